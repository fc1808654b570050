import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { GatewayReader, openGateway } from '../../../core/gateway/index.js';
import { History } from '../../../core/history/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { ProjectStore } from '../../../core/projects/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';

/**
 * Naming a row's project must not read the project's sessions: with 30k sessions in one project,
 * counting them for every row held the owner 0.3–1.9 s per page of Sessions.List, and 1–2 s for one
 * conversation's 1,500 subagents. The cost is counted in statements run, not timed.
 */

const BIG = '/work/big';
const CONVERSATIONS = 30;
const SUBAGENTS = 12;
const PARENT = '11111111-2222-4333-8444-555555555555';

/** Runs of each prepared statement, by its SQL, from the moment they are counted. */
function countStatements(db: Db): { runs: Map<string, number>; of: (pattern: RegExp) => number; reset: () => void } {
  const runs = new Map<string, number>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql) as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ['get', 'all', 'run', 'iterate']) {
      const original = statement[method]!.bind(statement);
      statement[method] = (...args: unknown[]) => {
        runs.set(sql, (runs.get(sql) ?? 0) + 1);
        return original(...args);
      };
    }
    return statement;
  }) as unknown as Db['prepare'];
  const of = (pattern: RegExp) => [...runs].filter(([sql]) => pattern.test(sql)).reduce((n, [, count]) => n + count, 0);
  return { runs, of, reset: () => runs.clear() };
}

/** A conversation that starts SUBAGENTS subagents, each with a Task call just before it. */
function writeParent(root: string, base: number): void {
  const dir = join(root, 'projects', '-work-big');
  const lines = [claudeLine({ sessionId: PARENT, cwd: BIG, ts: new Date(base - 1000), text: 'start the helpers' })];
  for (let i = 0; i < SUBAGENTS; i += 1) {
    lines.push(claudeLine({ sessionId: PARENT, cwd: BIG, ts: new Date(base + i * 100), type: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Task', input: { prompt: `helper ${i}` } }] }));
    writeJsonl(join(dir, PARENT, 'subagents', `agent-a${i}.jsonl`), [
      claudeLine({ sessionId: PARENT, agentId: `a${i}`, cwd: BIG, ts: new Date(base + i * 100 + 1), text: `helper prompt ${i}` }),
      claudeLine({ sessionId: PARENT, agentId: `a${i}`, cwd: BIG, ts: new Date(base + i * 100 + 2), type: 'assistant', text: `helper answer ${i}` }),
    ]);
  }
  writeJsonl(join(dir, `${PARENT}.jsonl`), lines);
}

const PROJECT_SESSIONS = /FROM sessions WHERE project_key = \?/;
const PROJECT_ROW = /FROM projects WHERE project_key = \?/;
const STARTED_BY = /kind = 'tool_use' AND ts <=/;
const FIRST_USER_TEXTS = /genuine_user_turn = 1 OR/;

let home: TempHome;
/** The transcript roots, a folder of their own beside the Steward home. */
let roots: TempHome;
let db: Db;
let history: History;
let counted: ReturnType<typeof countStatements>;

beforeAll(async () => {
  roots = tempHome('steward-names-roots-');
  const root = join(roots.dir, 'claude');
  home = tempHome('steward-names-', { STEWARD_CLAUDE_ROOTS: root });
  const base = Date.now() - 3_600_000;
  for (let i = 0; i < CONVERSATIONS; i += 1) {
    claudeSession(root, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, 2, { cwd: BIG, ts: new Date(base + 60_000 + i * 10_000) });
  }
  claudeSession(root, '00000000-0000-4000-8000-aaaaaaaaaaaa', 2, { cwd: '/work/small', ts: new Date(base + 30_000) });
  writeParent(root, base);
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
  await core.shutdown();
  db = openGateway(home.dir);
  counted = countStatements(db);
  const projects = new ProjectStore(db, new GatewayReader(db));
  history = new History({ db, projects, env: home.env, logger: createMemoryLogger(), emit: () => undefined, removeNotes: async () => false });
  history.startIndexing();
  await history.whenIndexed();
});

afterAll(async () => {
  await history?.stop();
  db?.close();
  home?.cleanup();
  roots?.cleanup();
});

describe('naming projects in history', () => {
  it('Sessions.List names a page of one project without reading its sessions, once per project', async () => {
    // Redacted too, as the panel and the CLI ask for it.
    for (const redact of [false, true]) {
      counted.reset();
      const { sessions } = await history.sessions.list({ limit: 50, redact });
      expect(sessions).toHaveLength(CONVERSATIONS + 2);
      expect(new Set(sessions.map((s) => s.projectName))).toEqual(new Set(['big', 'small']));
      expect(counted.of(PROJECT_SESSIONS)).toBe(0);
      expect(counted.of(PROJECT_ROW)).toBe(2);
    }
  });

  it('Sessions.Get names the project once for the conversation and all its subagents', async () => {
    for (const redact of [false, true]) {
      counted.reset();
      const got = await history.sessions.get({ sessionId: PARENT, limit: 20, redact });
      expect(got.subagents).toHaveLength(SUBAGENTS);
      expect(got.subagents.every((s) => s.session.projectName === 'big' && s.startedBy !== null)).toBe(true);
      expect(counted.of(PROJECT_SESSIONS)).toBe(0);
      expect(counted.of(PROJECT_ROW)).toBe(1);
      // One look for the starting call per subagent, not more.
      expect(counted.of(STARTED_BY)).toBe(SUBAGENTS);
    }
  });

  it('an export reads each subagent once, and looks once for the call that started each (to place it)', async () => {
    for (const raw of [false, true]) {
      counted.reset();
      let piece = await history.exporter.export(PARENT, 'markdown', raw);
      let text = piece.content;
      while (piece.next) {
        piece = { ...piece, ...(await history.exporter.next(piece.next)) };
        text += piece.content;
      }
      expect(text).toContain('helper answer 11');
      expect(counted.of(PROJECT_SESSIONS)).toBe(0);
      expect(counted.of(STARTED_BY)).toBe(SUBAGENTS);
      // The conversation and each subagent: its first request is read once, for its own heading.
      expect(counted.of(FIRST_USER_TEXTS)).toBeLessThanOrEqual(1 + SUBAGENTS);
    }
  });

  it('search names the sessions of its hits with one read per project', async () => {
    counted.reset();
    const found = await history.search.query({ query: 'line', limit: 50 });
    const named = new Set(found.sessions.map((s) => s.projectKey));
    expect(found.sessions.length).toBeGreaterThan(named.size);
    expect(counted.of(PROJECT_SESSIONS)).toBe(0);
    expect(counted.of(PROJECT_ROW)).toBe(named.size);
  });
});
