import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { transpileCore } from '../../support/transpiled-core.js';
import { AgentStoreFixture, agentStorePath, fixtureEvents } from '../../support/openclaw-store.js';
import { claudeLine, openclawLines, writeJsonl } from '../../support/transcripts.js';

/**
 * Issue 10's acceptance over every layout capture reads: a cold import of Claude lines with and
 * without a uuid (content-derived ids), OpenClaw v1 files (ids from the header and the line index),
 * v3 files and an agent store (per-session watermarks), Codex rollouts and Gemini chats, read by the
 * read worker, is killed (SIGKILL) inside one file of each layout in turn, each restart killed in
 * the next one, until one restart completes: it must hold exactly what a clean import of the same
 * corpus holds. The kill points are commits, found by what they hold rather than by time, so they
 * land at the same place on any machine: the child kills itself just after the first commit that
 * adds parts of a given session, or just before the second (losing the open window).
 */

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const BASE = Date.UTC(2026, 0, 10, 9, 0, 0);
const at = (seconds: number) => new Date(BASE + seconds * 1000);

/** Windows of 100 rows (or a tenth of the parts stored, see CommitWindow): many commits over a small corpus. */
const CHILD = `import { Capture } from './core/capture/index.js';
import { GatewayReader, openGateway } from './core/gateway/index.js';
import { ProjectStore } from './core/projects/index.js';
import { parseConfig } from './core/config/index.js';
import { createMemoryLogger } from './core/log/index.js';
const [home] = process.argv.slice(2);
const db = openGateway(home);
const crash = process.env.CRASH_AT ? JSON.parse(process.env.CRASH_AT) : undefined;
// SIGKILL sent from inside at a commit is the signal kill -9 sends: nothing runs after it, in any thread.
if (crash) {
  const partsOf = db.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck();
  const exec = db.exec.bind(db);
  let seen = partsOf.get(crash.session);
  let adding = 0;
  db.exec = (sql) => {
    if (sql !== 'COMMIT') return exec(sql);
    const now = partsOf.get(crash.session);
    if (now > seen) adding += 1;
    seen = now;
    if (crash.when === 'open' && adding === 2) process.kill(process.pid, 'SIGKILL');
    const result = exec(sql);
    if (crash.when === 'committed' && adding === 1) process.kill(process.pid, 'SIGKILL');
    return result;
  };
}
const config = parseConfig({ query: { cache: { retention: { default_days: 0 } } } });
const capture = new Capture({ db, config, env: process.env, logger: createMemoryLogger(), projects: new ProjectStore(db, new GatewayReader(db)), record: () => {}, commitLimits: { maxRows: 100, maxBytes: 1 << 30, maxAgeMs: 600_000 } });
const providers = await capture.tick();
const usesWorker = capture.reader.usesWorker;
await capture.stop();
db.close();
process.stdout.write('DONE ' + JSON.stringify({ usesWorker, providers }) + '\\n');
`;

// ---------------------------------------------------------------- the corpus

let counter = 0;
const nextUuid = () => `00000000-0000-4000-9000-${(counter += 1).toString(16).padStart(12, '0')}`;
const words = 'prune graft orchard ladder calendar frost cider blossom rootstock mulch pest harvest ledger'.split(' ');
const prose = (seed: number, n: number) => Array.from({ length: n }, (_, i) => words[(seed * 7 + i * 3 + ((seed * i) % 5)) % words.length]).join(' ');

/**
 * Claude sessions: every third without uuids, every third with uuids on alternate lines only;
 * subagents; summaries naming leaves in other files. The last one of its folder has no uuids and is
 * longer than two batches: a kill lands between two commits of it, once the files read before it
 * (its folder's at least) were checkpointed.
 */
function writeClaude(root: string): void {
  const leaves: string[] = [];
  for (let s = 0; s <= 10; s += 1) {
    const big = s === 10;
    const cwd = `/work/orchard-${big ? 0 : s % 3}`;
    const sessionId = `10000000-0000-4000-8000-${s.toString(16).padStart(12, '0')}`;
    const withUuid = (i: number) => !big && (s % 3 === 2 || (s % 3 === 1 && i % 2 === 0));
    const lines: Array<Record<string, unknown>> = Array.from({ length: big ? 600 : 40 }, (_, i) => {
      const ts = at(s * 3600 + i * 2);
      const uuid = nextUuid();
      const line =
        i % 2 === 0
          ? claudeLine({ sessionId, cwd, ts, uuid, content: i % 6 === 2 ? [{ type: 'tool_result', tool_use_id: `tu_${s}_${i - 1}`, content: prose(i, 30) }] : prose(s + i, 12) })
          : claudeLine({ sessionId, cwd, ts, uuid, type: 'assistant', content: [{ type: 'text', text: prose(s * i, 20) }, ...(i % 6 === 1 ? [{ type: 'tool_use', id: `tu_${s}_${i}`, name: 'Bash', input: { command: prose(i, 3) } }] : [])] });
      if (!withUuid(i)) delete line.uuid;
      return line;
    });
    // The same words twice, without a uuid: two parts, told apart by where each line starts.
    const twice = claudeLine({ sessionId, cwd, ts: at(s * 3600 + 400), text: 'again' });
    delete twice.uuid;
    lines.push(twice, twice);
    if (s % 3 === 2) leaves.push(lines[lines.length - 3]!.uuid as string);
    if (s % 4 === 0 && leaves.length > 0) lines.push({ type: 'summary', summary: `Orchard chores ${s}`, leafUuid: leaves[leaves.length - 1] });
    const dir = join(root, 'projects', cwd.replace(/\//g, '-'));
    writeJsonl(join(dir, `${sessionId}.jsonl`), lines);
    if (s % 5 === 0) {
      const agent = `a${s.toString(16).padStart(6, '0')}`;
      const sub = Array.from({ length: 40 }, (_, i) => {
        const line = claudeLine({ sessionId, cwd, agentId: agent, ts: at(s * 3600 + i), uuid: nextUuid(), text: prose(s + i * 2, 15) });
        if (i % 3 !== 0) delete line.uuid;
        return line;
      });
      writeJsonl(join(dir, sessionId, 'subagents', `agent-${agent}.jsonl`), sub);
    }
  }
  // A summary alone in its file, whose leaf lives in another folder (read before or after it: sibling
  // folders are walked concurrently). Its leaf is no other summary's: two claims on one leaf title it
  // by the order the files were read in, which no import controls.
  writeJsonl(join(root, 'projects', '-work-orchard-0', '00000000-0000-4000-8000-00000000000a.jsonl'), [{ type: 'summary', summary: 'Pruning plan', leafUuid: leaves[1] }]);
}

/** A pi v1 session: a header without `version`, entries without ids (keyed by line index), a compaction. */
function v1Session(id: string, entries: number, seed: number): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [{ type: 'session', id, timestamp: at(seed).toISOString(), cwd: `/work/claw-${seed % 2}`, provider: 'anthropic', modelId: 'claude-sonnet-4-5' }];
  for (let i = 0; i < entries; i += 1) {
    const ts = at(seed + i + 1);
    if (i === Math.floor(entries / 2)) lines.push({ type: 'compaction', timestamp: ts.toISOString(), summary: prose(seed + i, 25), firstKeptEntryIndex: i - 4, tokensBefore: 90_000 });
    else if (i % 17 === 5) lines.push({ type: 'thinking_level_change', timestamp: ts.toISOString(), thinkingLevel: 'high' });
    else if (i % 2 === 0) lines.push({ type: 'message', timestamp: ts.toISOString(), message: { role: 'user', content: [{ type: 'text', text: prose(seed * 3 + i, 14) }], timestamp: ts.getTime() } });
    else lines.push({ type: 'message', timestamp: ts.toISOString(), message: { role: 'assistant', content: [{ type: 'text', text: prose(seed + i * 5, 22) }], model: 'claude-sonnet-4-5', stopReason: 'stop', timestamp: ts.getTime() } });
  }
  return lines;
}

function userEvent(id: string, parentId: string | null, text: string, ts: Date): string {
  return JSON.stringify({ type: 'message', id, parentId, timestamp: ts.toISOString(), message: { role: 'user', content: text, timestamp: ts.getTime() } });
}

function assistantEvent(id: string, parentId: string, text: string, ts: Date): string {
  return JSON.stringify({ type: 'message', id, parentId, timestamp: ts.toISOString(), message: { role: 'assistant', content: [{ type: 'text', text }], model: 'claude-sonnet-4-5', timestamp: ts.getTime() } });
}

/**
 * OpenClaw: v1 files, v3 files, and an agent store (its own sessions, and one its JSONL also holds).
 * The store stays open, its rows in its WAL, as a running OpenClaw gateway keeps it.
 */
function writeOpenClaw(root: string): AgentStoreFixture {
  const sessions = join(root, 'agents', 'main', 'sessions');
  for (let v = 0; v < 3; v += 1) writeJsonl(join(sessions, `v1-sess-${v}.jsonl`), v1Session(`v1-sess-${v}`, 60, 50_000 + v * 1000));
  // Read after the other v1 files: a kill lands inside it once they are checkpointed.
  writeJsonl(join(sessions, 'v1-tail.jsonl'), v1Session('v1-tail', 600, 40_000));
  const shared = '3000000a-0000-4000-8000-000000000000';
  for (let o = 0; o < 2; o += 1) {
    const header = `3000000${o}-0000-4000-8000-000000000000`;
    const entries = Array.from({ length: 50 }, (_, i) => ({ id: `${o}${i.toString(16).padStart(7, '0')}`, role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant', text: prose(o * 11 + i, 18), ts: at(60_000 + o * 1000 + i) }));
    writeJsonl(join(sessions, `${header}.jsonl`), openclawLines(header, entries, `/work/claw-${o}`));
  }
  const store = new AgentStoreFixture(agentStorePath(root, 'main'), 'current', 'main');
  for (let k = 0; k < 3; k += 1) {
    const sid = `4000000${k}-0000-4000-8000-000000000000`;
    const events = Array.from({ length: k === 0 ? 1000 : 40 }, (_, i) => {
      const id = `${(k + 10).toString(16)}${i.toString(16).padStart(6, '0')}`;
      const parent = i === 0 ? null : `${(k + 10).toString(16)}${(i - 1).toString(16).padStart(6, '0')}`;
      return i % 2 === 0 ? userEvent(id, parent, prose(k * 5 + i, 12), at(70_000 + k * 2000 + i)) : assistantEvent(id, parent!, prose(k + i * 3, 20), at(70_000 + k * 2000 + i));
    });
    store.append(sid, events, `Store session ${k}`);
  }
  // A session the JSONL holds too: the store's rows are the same entries, not new ones.
  const sharedEntries = Array.from({ length: 30 }, (_, i) => ({ id: `c${i.toString(16).padStart(7, '0')}`, role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant', text: prose(i + 40, 16), ts: at(80_000 + i) }));
  const sharedLines = openclawLines(shared, sharedEntries, '/work/claw-shared');
  writeJsonl(join(sessions, `${shared}.jsonl`), sharedLines);
  store.append(shared, [...sharedLines.slice(2).map((l) => JSON.stringify(l)), userEvent('c00000ff', 'c000001d', 'one more in the store', at(80_100))]);
  // The fixture session, with its zstd-compressed row.
  store.append('7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01', fixtureEvents(), 'Trip planning');
  return store;
}

function codexRollout(sessionId: string, items: number, seed: number): Array<Record<string, unknown>> {
  const start = at(seed);
  const line = (i: number, type: string, payload: Record<string, unknown>) => ({ timestamp: new Date(start.getTime() + i * 1000).toISOString(), type, payload });
  const lines: Array<Record<string, unknown>> = [
    line(0, 'session_meta', { session_id: sessionId, id: sessionId, timestamp: start.toISOString(), cwd: `/work/cider-${seed % 2}`, originator: 'codex-tui', cli_version: '0.144.3', source: 'cli' }),
    line(0, 'turn_context', { turn_id: `t-${seed}`, cwd: `/work/cider-${seed % 2}`, model: 'gpt-5.6-sol' }),
  ];
  for (let i = 1; i <= items; i += 1) {
    if (i % 4 === 1) lines.push(line(i, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prose(seed + i, 10) }] }));
    else if (i % 4 === 2) lines.push(line(i, 'response_item', { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: prose(i, 3) }), call_id: `call_${seed}_${i}` }));
    else if (i % 4 === 3) lines.push(line(i, 'response_item', { type: 'function_call_output', call_id: `call_${seed}_${i - 1}`, output: JSON.stringify({ output: prose(seed * i, 12), metadata: { exit_code: 0 } }) }));
    else lines.push(line(i, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: prose(seed + i * 7, 24) }] }));
    if (i % 10 === 0) lines.push(line(i, 'event_msg', { type: 'token_count', info: null }));
  }
  return lines;
}

/** Codex: generated rollouts, and the fixtures (a modern rollout, its fork, and a bare one whose keys count repeats). */
function writeCodex(root: string): void {
  for (let r = 0; r < 5; r += 1) {
    const id = `019f0000-0000-7000-8000-00000000000${r}`;
    writeJsonl(join(root, 'sessions', '2026', '01', '10', `rollout-2026-01-10T1${r}-00-00-${id}.jsonl`), codexRollout(id, r === 4 ? 1200 : 100, 90_000 + r * 10_000));
  }
  const place = (name: string, folder: string) => {
    mkdirSync(join(root, 'sessions', folder), { recursive: true });
    copyFileSync(join(FIXTURES, 'codex', name), join(root, 'sessions', folder, name));
  };
  place('rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl', '2026/07/13');
  place('rollout-2026-07-13T19-20-00-019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c.jsonl', '2026/07/13');
  place('rollout-2025-08-20T11-12-03-5a3f1c2e-8b4d-4e6f-9a1b-2c3d4e5f6a7b.jsonl', '2025/08/20');
}

/** A current Gemini chat: a header, messages re-emitted as they grow, `$set` patches. */
function geminiChat(sessionId: string, messages: number, seed: number): unknown[] {
  const lines: unknown[] = [{ sessionId, projectHash: 'cellar', startTime: at(seed).toISOString(), lastUpdated: at(seed).toISOString(), kind: 'main' }];
  for (let i = 0; i < messages; i += 1) {
    const id = `${seed.toString(16)}-${i.toString(16).padStart(4, '0')}-4000-8000-000000000000`;
    const ts = at(seed + i * 5).toISOString();
    if (i % 2 === 0) {
      lines.push({ id, timestamp: ts, type: 'user', content: [{ text: prose(seed + i, 11) }] });
      continue;
    }
    const reply = { id, timestamp: ts, type: 'gemini', content: prose(seed * i, 19), thoughts: [{ subject: 'Plan', description: prose(i, 8), timestamp: ts }], model: 'gemini-3-pro' };
    lines.push(reply, { $set: { lastUpdated: ts } });
    if (i % 3 === 0) lines.push({ ...reply, toolCalls: [{ id: `run-${seed}-${i}`, name: 'run_shell_command', args: { command: prose(i, 2) }, status: 'success', timestamp: ts, result: [{ functionResponse: { id: `run-${seed}-${i}`, name: 'run_shell_command', response: { output: prose(i + 1, 9) } } }] }] });
  }
  lines.push({ $set: { summary: `Cellar ${seed}` } });
  return lines;
}

/** Gemini: generated chats in a registered project folder, and the legacy, current and subagent fixtures. */
function writeGemini(root: string): void {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(root, 'projects.json'), JSON.stringify({ projects: { '/home/ana/src/site': 'site', '/work/cellar': 'cellar' } }));
  for (let c = 0; c < 4; c += 1) writeJsonl(join(root, 'tmp', 'cellar', 'chats', `session-2026-01-10T1${c}-00-${c}abc.jsonl`), geminiChat(`5000000${c}-0000-4000-8000-000000000000`, c === 3 ? 1000 : 60, 100_000 + c * 10_000));
  const fixture = (name: string) => join(FIXTURES, 'gemini', name);
  mkdirSync(join(root, 'tmp', '6f193382ff22044c43b6f28809b1cbb16d8d9da89bcb44954c0a506d81b6960a', 'chats'), { recursive: true });
  copyFileSync(fixture('legacy-session.json'), join(root, 'tmp', '6f193382ff22044c43b6f28809b1cbb16d8d9da89bcb44954c0a506d81b6960a', 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json'));
  mkdirSync(join(root, 'tmp', 'site', 'chats', '92f625c6-a764-48e3-b922-3766d41f9c4c'), { recursive: true });
  copyFileSync(fixture('current-session.jsonl'), join(root, 'tmp', 'site', 'chats', 'session-2026-05-22T14-59-92f625c6.jsonl'));
  copyFileSync(fixture('subagent-session.jsonl'), join(root, 'tmp', 'site', 'chats', '92f625c6-a764-48e3-b922-3766d41f9c4c', 'e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl'));
}

// ---------------------------------------------------------------- the child and what it leaves

interface ProviderRun {
  provider: string;
  discovered: number;
  read: number;
  unchanged: number;
  failed: number;
  failedLines: number;
}

interface Finished {
  usesWorker: boolean;
  providers: ProviderRun[];
}

/** Where the child kills itself: just after the first commit that adds parts of `session`, or just before the second. */
interface CrashPoint {
  session: string;
  when: 'committed' | 'open';
}

let build: { dir: string; cleanup: () => void };
let roots: TempHome;
let store: AgentStoreFixture | undefined;
let env: NodeJS.ProcessEnv;

/** One child run over the corpus into `home`: killed at `crash`, or run to the end of its tick. */
function runChild(home: string, crash?: CrashPoint): Promise<{ signal: NodeJS.Signals | null; code: number | null; done?: Finished; stderr: string }> {
  const child = spawn(process.execPath, [join(build.dir, 'crash-child.mjs'), home], { env: { ...env, ...(crash ? { CRASH_AT: JSON.stringify(crash) } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith('DONE '));
      resolve({ code, signal, stderr: err.slice(0, 2000), ...(line ? { done: JSON.parse(line.slice(5)) as Finished } : {}) });
    }),
  );
}

interface Snapshot {
  partIds: string[];
  sessionIds: string[];
  parts: unknown[];
  sessions: unknown[];
  stats: unknown[];
  projects: unknown[];
  claims: unknown[];
  checkpoints: unknown[];
  indexed: number;
  spool: number;
  integrity: string;
}

function snapshot(home: string): Snapshot {
  // The gateway's own opener: the index's check calls the SQL functions it registers.
  const db = openGateway(home);
  try {
    const rows = (sql: string) => db.prepare(sql).all() as Array<Record<string, unknown>>;
    const without = (list: Array<Record<string, unknown>>, ...keys: string[]) => list.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k))));
    db.exec("INSERT INTO search_fts (search_fts) VALUES ('integrity-check')");
    return {
      partIds: db.prepare('SELECT part_id FROM parts ORDER BY part_id').pluck().all() as string[],
      sessionIds: db.prepare('SELECT session_id FROM sessions ORDER BY session_id').pluck().all() as string[],
      parts: rows('SELECT * FROM parts ORDER BY part_id'),
      sessions: without(rows('SELECT * FROM sessions ORDER BY session_id'), 'updated_at'),
      stats: rows('SELECT * FROM session_stats ORDER BY session_id'),
      projects: without(rows('SELECT * FROM projects ORDER BY project_key'), 'created_at', 'updated_at'),
      claims: without(rows('SELECT * FROM title_claims ORDER BY leaf_prefix, fallback_session_id'), 'seq'),
      checkpoints: without(rows('SELECT * FROM file_checkpoints ORDER BY provider, path'), 'updated_at'),
      indexed: db.prepare('SELECT COUNT(*) FROM search_map').pluck().get() as number,
      spool: db.prepare('SELECT COUNT(*) FROM spool').pluck().get() as number,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    db.close();
  }
}

/** Rows one side holds and the other does not (a few of each), so a failure names them rather than two long lists. */
function differences(actual: unknown, expected: unknown): { extra: unknown[]; missing: unknown[] } {
  const list = (value: unknown) => (Array.isArray(value) ? value : [value]).map((row) => JSON.stringify(row));
  const [have, want] = [list(actual), list(expected)];
  const wantSet = new Set(want);
  const haveSet = new Set(have);
  return { extra: have.filter((row) => !wantSet.has(row)).slice(0, 5), missing: want.filter((row) => !haveSet.has(row)).slice(0, 5) };
}

/** What a killed child left, read as the file is (read-only): the restart, not the test, recovers it. */
function leftAt(home: string, session: string): { partIds: string[]; sessionIds: string[]; ofSession: number; checkpoints: number; integrity: string } {
  const db = new Database(join(home, 'gateway.db'), { readonly: true, fileMustExist: true });
  try {
    const count = (sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;
    return {
      partIds: db.prepare('SELECT part_id FROM parts').pluck().all() as string[],
      sessionIds: db.prepare('SELECT session_id FROM sessions').pluck().all() as string[],
      ofSession: count('SELECT COUNT(*) FROM parts WHERE session_id = ?', session),
      checkpoints: count('SELECT COUNT(*) FROM file_checkpoints'),
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    db.close();
  }
}

/**
 * One file of each layout, in the order a run reads them, each longer than the windows it is read
 * in: a window holds 100 rows or a tenth of the parts already stored, whichever is more, and up to
 * twice that while a WAL checkpoint holds the disk (see CommitWindow), so the files read later are
 * longer. Every kill lands inside its file, which the test checks.
 */
const KILLS: Array<{ layout: string } & CrashPoint> = [
  { layout: 'Claude lines without a uuid (content-derived ids)', session: '10000000-0000-4000-8000-00000000000a', when: 'committed' },
  { layout: 'an OpenClaw v1 file (ids from the header and the line index)', session: 'oc:main:v1-tail', when: 'open' },
  { layout: 'an OpenClaw agent store (per-session watermarks)', session: 'oc:main:40000000-0000-4000-8000-000000000000', when: 'committed' },
  { layout: 'a Codex rollout', session: '019f0000-0000-7000-8000-000000000004', when: 'open' },
  { layout: 'a Gemini chat', session: '50000003-0000-4000-8000-000000000000', when: 'committed' },
];

let clean: Snapshot;
let cleanRun: Finished;
const cleanSessionParts = new Map<string, number>();

beforeAll(async () => {
  build = transpileCore('steward-checkpoint-crash-mixed');
  writeFileSync(join(build.dir, 'crash-child.mjs'), CHILD);
  roots = tempHome('steward-crash-mixed-');
  const dirs = { claude: join(roots.dir, 'claude'), openclaw: join(roots.dir, 'openclaw'), codex: join(roots.dir, 'codex'), gemini: join(roots.dir, 'gemini') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  writeClaude(dirs.claude);
  store = writeOpenClaw(dirs.openclaw);
  writeCodex(dirs.codex);
  writeGemini(dirs.gemini);
  env = { ...roots.env, STEWARD_CLAUDE_ROOTS: dirs.claude, STEWARD_OPENCLAW_ROOTS: dirs.openclaw, STEWARD_CODEX_ROOTS: dirs.codex, STEWARD_GEMINI_ROOTS: dirs.gemini, STEWARD_READ_WORKER: '1' };
  const home = join(roots.dir, 'clean');
  mkdirSync(home);
  const run = await runChild(home);
  expect(run, run.stderr).toMatchObject({ code: 0, signal: null });
  cleanRun = run.done!;
  clean = snapshot(home);
  for (const { session } of KILLS) cleanSessionParts.set(session, leftAt(home, session).ofSession);
}, 60_000);

afterAll(() => {
  store?.close();
  build?.cleanup();
  roots?.cleanup();
});

describe('kill -9 during a cold import of every layout, read by the read worker', () => {
  it('the clean import reads every file of every layout through the worker', () => {
    expect(cleanRun.usesWorker).toBe(true);
    expect(cleanRun.providers.map((p) => [p.provider, p.read > 0, p.failed, p.failedLines])).toEqual(['claude', 'openclaw', 'codex', 'gemini'].map((p) => [p, true, 0, 0]));
    expect(clean).toMatchObject({ spool: 0, integrity: 'ok' });
    expect(clean.indexed).toBe(clean.partIds.length);
    expect(clean.partIds.filter((id) => id.startsWith('cc:10000000-0000-4000-8000-00000000000a@')).length).toBeGreaterThan(500);
    expect(clean.partIds).toContain('oc:main:v1-tail:l1:0');
    expect(clean.sessionIds).toContain('oc:main:7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01');
  });

  it('killed inside a file of each layout in turn (each restart killed in the next), the last restart ends with exactly a clean import\'s rows', { timeout: 60_000 }, async () => {
    const home = join(roots.dir, 'crashed');
    mkdirSync(home);
    const want = new Set(clean.partIds);
    const wantSessions = new Set(clean.sessionIds);
    let checkpointed = 0;
    for (const kill of KILLS) {
      const where = `killed ${kill.when === 'open' ? 'before a commit' : 'just after a commit'} inside ${kill.layout}`;
      const killed = await runChild(home, kill);
      expect(killed.signal, `${where}: ${killed.stderr}`).toBe('SIGKILL');
      const left = leftAt(home, kill.session);
      // Inside the file: some of its parts are committed, not all.
      expect(left.ofSession, where).toBeGreaterThan(0);
      expect(left.ofSession, where).toBeLessThan(cleanSessionParts.get(kill.session)!);
      // Whatever a crash leaves is a part of what a clean import stores: never a row it would not.
      expect(left.partIds.filter((id) => !want.has(id)), where).toEqual([]);
      expect(left.sessionIds.filter((id) => !wantSessions.has(id)), where).toEqual([]);
      expect(left.integrity, where).toBe('ok');
      checkpointed = left.checkpoints;
    }

    const restarted = await runChild(home);
    expect(restarted, restarted.stderr).toMatchObject({ code: 0, signal: null });
    const done = restarted.done!;
    expect(done.usesWorker).toBe(true);
    // Every file checkpointed before the last crash is skipped; every other one is read, once.
    expect(done.providers.reduce((n, p) => n + p.unchanged, 0)).toBe(checkpointed);
    for (const run of done.providers) expect(run, run.provider).toMatchObject({ failed: 0, failedLines: 0 });

    const after = snapshot(home);
    const have = new Set(after.partIds);
    expect({ lost: clean.partIds.filter((id) => !have.has(id)), doubled: after.partIds.filter((id) => !want.has(id)) }).toEqual({ lost: [], doubled: [] });
    expect(after.sessionIds).toEqual(clean.sessionIds);
    // And the rows themselves: parts, sessions, their counts, projects, title claims, checkpoints, the index.
    for (const key of Object.keys(clean) as Array<keyof Snapshot>) expect(differences(after[key], clean[key]), key).toEqual({ extra: [], missing: [] });
  });
});
