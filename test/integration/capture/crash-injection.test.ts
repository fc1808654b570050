import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome, type TempHome } from '../../support/home.js';
import { transpileCore } from '../../support/transpiled-core.js';
import { claudeLine, openclawLines, writeJsonl } from '../../support/transcripts.js';

/**
 * Crash injection: the owner runs as a child process on a generated history and is SIGKILLed at random
 * points of its cold import; restarted, it must end exactly where a clean import ends (no part lost,
 * none duplicated, the spool empty, the file intact). STEWARD_FAULT_ROUNDS sets the number of kills
 * (`npm run test:fault` runs 50); STEWARD_FAULT_SEED replays a run.
 */
const ROUNDS = Number(process.env.STEWARD_FAULT_ROUNDS ?? 5);
const SEED = Number(process.env.STEWARD_FAULT_SEED ?? Date.now() % 1_000_000);

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const words = 'prune graft orchard ladder calendar frost cider blossom rootstock mulch pest harvest ledger'.split(' ');
const prose = (rnd: () => number, n: number) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');

/**
 * A history in the shapes agents write: Claude sessions over several projects with tool use and
 * results, resumed sessions whose files repeat the lines they continue, subagent transcripts, and
 * OpenClaw sessions. Generated from a fixed seed: every round imports the same history.
 */
function writeHistory(claudeRoot: string, openclawRoot: string): void {
  const rnd = random(20_261_201);
  const base = Date.now() - 5 * 86_400_000;
  let uuid = 0;
  const nextUuid = () => `00000000-0000-4000-9000-${(uuid += 1).toString(16).padStart(12, '0')}`;
  for (let s = 0; s < 96; s += 1) {
    const cwd = `/work/project-${s % 6}`;
    const sessionId = `10000000-0000-4000-8000-${s.toString(16).padStart(12, '0')}`;
    const lines = Array.from({ length: 400 }, (_, i) => {
      const ts = new Date(base + s * 3_600_000 + i * 2_000);
      if (i % 2 === 0) {
        const content = i % 6 === 2 ? [{ type: 'tool_result', tool_use_id: `tu_${s}_${i - 1}`, content: prose(rnd, 60) }] : prose(rnd, 12 + Math.floor(rnd() * 40));
        return claudeLine({ sessionId, cwd, ts, uuid: nextUuid(), content });
      }
      const content = [{ type: 'text', text: prose(rnd, 20 + Math.floor(rnd() * 120)) }, ...(i % 6 === 1 ? [{ type: 'tool_use', id: `tu_${s}_${i}`, name: 'Bash', input: { command: prose(rnd, 4) } }] : [])];
      return claudeLine({ sessionId, cwd, ts, type: 'assistant', uuid: nextUuid(), content });
    });
    const dir = join(claudeRoot, 'projects', cwd.replace(/\//g, '-'));
    writeJsonl(join(dir, `${sessionId}.jsonl`), lines);
    // Every fourth session was resumed: the new file repeats the lines it continues, then goes on.
    if (s % 4 === 3) {
      const resumed = `20000000-0000-4000-8000-${s.toString(16).padStart(12, '0')}`;
      const more = Array.from({ length: 40 }, (_, i) => claudeLine({ sessionId: resumed, cwd, ts: new Date(base + s * 3_600_000 + 600_000 + i * 1_000), uuid: nextUuid(), text: prose(rnd, 30) }));
      writeJsonl(join(dir, `${resumed}.jsonl`), [...lines.slice(0, 120), ...more]);
    }
    if (s % 5 === 0) {
      const agent = `a${s.toString(16).padStart(6, '0')}`;
      const sub = Array.from({ length: 30 }, (_, i) => claudeLine({ sessionId, cwd, agentId: agent, ts: new Date(base + s * 3_600_000 + i * 500), uuid: nextUuid(), text: prose(rnd, 25) }));
      writeJsonl(join(dir, sessionId, 'subagents', `agent-${agent}.jsonl`), sub);
    }
  }
  for (let o = 0; o < 6; o += 1) {
    const header = `3000000${o}-0000-4000-8000-000000000000`;
    const entries = Array.from({ length: 120 }, (_, i) => ({ id: `${o.toString(16)}${i.toString(16).padStart(7, '0')}`, role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant', text: prose(rnd, 30) }));
    writeJsonl(join(openclawRoot, 'agents', `agent-${o % 2}`, 'sessions', `${header}.jsonl`), openclawLines(header, entries, `/work/claw-${o % 3}`));
  }
}

/** The owner, as `steward serve` starts it, except that it runs its first tick on request and says when it is done. */
const OWNER_SCRIPT = `import { startOwner } from './core/server/index.js';
const [home] = process.argv.slice(2);
const owner = await startOwner({ home: { dir: home, kind: 'env' }, env: process.env, port: 0, schedule: false });
process.on('SIGTERM', () => void owner.stop().then(() => process.exit(0)));
process.stdout.write('IMPORTING\\n');
const { providers } = await owner.core.call('Sweep.Tick', {});
process.stdout.write('DONE ' + JSON.stringify(providers) + '\\n');
`;

interface Run {
  child: ChildProcess;
  /** Resolves when the owner starts its import. */
  importing: Promise<void>;
  /** Resolves with the tick's stats once the import is done. */
  done: Promise<unknown>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let build: { dir: string; cleanup: () => void };
let rootsHome: TempHome;
let env: NodeJS.ProcessEnv;

function startOwnerChild(home: string): Run {
  const child = spawn(process.execPath, [join(build.dir, 'crash-owner.mjs'), home], { env: { ...env, STEWARD_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const seen = (marker: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const at = out.indexOf(marker);
        if (at >= 0) resolve(out.slice(at + marker.length, out.indexOf('\n', at)));
      };
      child.stdout!.on('data', check);
      child.once('exit', () => reject(new Error(`owner exited before ${marker.trim()}: ${err.slice(0, 800)}`)));
    });
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const importing = seen('IMPORTING').then(() => undefined);
  const done = seen('DONE ').then((json) => JSON.parse(json) as unknown);
  // Whoever waits on one of these later sees the rejection; nobody else must.
  importing.catch(() => undefined);
  done.catch(() => undefined);
  return { child, importing, done, exited };
}

/** Runs the owner to the end of its import and stops it as a user would (SIGTERM). */
async function importToEnd(home: string): Promise<{ ms: number; stats: unknown }> {
  const run = startOwnerChild(home);
  await run.importing;
  const started = performance.now();
  const stats = await run.done;
  const ms = performance.now() - started;
  run.child.kill('SIGTERM');
  expect(await run.exited).toEqual({ code: 0, signal: null });
  return { ms, stats };
}

interface Snapshot {
  parts: number;
  partsHash: string;
  sessions: string;
  projects: string;
  spool: number;
  integrity: string;
}

function snapshot(home: string): Snapshot {
  const db = new Database(join(home, 'gateway.db'), { readonly: true, fileMustExist: true });
  try {
    const hash = createHash('sha256');
    let parts = 0;
    for (const row of db.prepare('SELECT part_id, session_id, provider, role, kind, ts, text, meta FROM parts ORDER BY part_id').raw().iterate()) {
      hash.update(JSON.stringify(row));
      parts += 1;
    }
    const rows = (sql: string) => JSON.stringify(db.prepare(sql).raw().all());
    return {
      parts,
      partsHash: hash.digest('hex'),
      sessions: rows('SELECT session_id, provider, source, project_key, cwd, parent_session_id, agent_type, title, first_ts, last_ts FROM sessions ORDER BY session_id'),
      projects: rows('SELECT project_key, cwd, slug, name, repo_id, repo_backed, last_activity_at FROM projects ORDER BY project_key'),
      spool: db.prepare('SELECT COUNT(*) FROM spool').pluck().get() as number,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    db.close();
  }
}

let clean: Snapshot;
let cleanMs: number;

beforeAll(async () => {
  build = transpileCore('steward-crash-injection');
  writeFileSync(join(build.dir, 'crash-owner.mjs'), OWNER_SCRIPT);
  rootsHome = tempHome('steward-crash-roots-');
  const claudeRoot = join(rootsHome.dir, 'claude');
  const openclawRoot = join(rootsHome.dir, 'openclaw');
  mkdirSync(claudeRoot, { recursive: true });
  mkdirSync(openclawRoot, { recursive: true });
  writeHistory(claudeRoot, openclawRoot);
  env = { ...rootsHome.env, STEWARD_CLAUDE_ROOTS: claudeRoot, STEWARD_OPENCLAW_ROOTS: openclawRoot, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '' };
  const home = join(rootsHome.dir, 'clean');
  mkdirSync(home);
  cleanMs = (await importToEnd(home)).ms;
  clean = snapshot(home);
}, 120_000);

afterAll(() => {
  build?.cleanup();
  rootsHome?.cleanup();
});

describe('kill -9 during a cold import', () => {
  it(`loses nothing and duplicates nothing after ${ROUNDS} kills at random points (seed ${SEED})`, { timeout: 60_000 + ROUNDS * 20_000 }, async () => {
    expect(clean).toMatchObject({ spool: 0, integrity: 'ok' });
    expect(clean.parts).toBeGreaterThan(10_000);
    const rnd = random(SEED);
    const kills: Array<{ atMs: number; partsAtKill: number }> = [];
    for (let draw = 1; kills.length < ROUNDS; draw += 1) {
      expect(draw, 'the import kept finishing before its kill: the history is too small for this machine').toBeLessThanOrEqual(ROUNDS * 3);
      const round = kills.length;
      const home = join(rootsHome.dir, `draw-${draw}`);
      mkdirSync(home);
      const run = startOwnerChild(home);
      await run.importing;
      // Anywhere in the import: before the first commit, between batches, inside a commit, in the final drain.
      const atMs = Math.round(rnd() * cleanMs * 0.95);
      const finished = await Promise.race([run.done.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), atMs))]);
      run.child.kill('SIGKILL');
      expect(await run.exited, `round ${round}`).toEqual({ code: null, signal: 'SIGKILL' });
      // A kill that came after the import finished proves nothing: that round is drawn again.
      if (!finished) {
        const killed = snapshot(home);
        kills.push({ atMs, partsAtKill: killed.parts });
        expect(killed.integrity, `round ${round}: the killed owner's file`).toBe('ok');
        await importToEnd(home);
        const where = `round ${round}, killed ${atMs} ms into a ${Math.round(cleanMs)} ms import with ${killed.parts} of ${clean.parts} parts committed (seed ${SEED})`;
        expect({ ...snapshot(home), round }, where).toEqual({ ...clean, round });
      }
      rmSync(home, { recursive: true, force: true });
    }
    expect(kills).toHaveLength(ROUNDS);
  });
});
