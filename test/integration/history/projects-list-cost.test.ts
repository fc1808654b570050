import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayReader, openGateway } from '../../../core/gateway/index.js';
import { CONVERSATION } from '../../../core/gateway/sessions.js';
import { ProjectStore } from '../../../core/projects/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * The projects list asks each project for its count and its latest conversation. Asked of every
 * session at once (a window function over all of them) it held the owner's event loop 358–406 ms
 * with 150k sessions in one project; now each question is a range of sessions_conversations, which holds conversations only.
 * The cost is read from the query plans, not timed.
 */

const BIG = '/work/big';
const SMALL = '/work/small';
const CONVERSATIONS = 40;
const SUBAGENTS = 25;

let home: TempHome;
let db: Db;
let projects: ProjectStore;
let keys: { big: string; small: string };

beforeAll(() => {
  home = tempHome('steward-projects-list-');
  db = openGateway(home.dir);
  projects = new ProjectStore(db, new GatewayReader(db));
  keys = { big: projects.touch(BIG), small: projects.touch(SMALL) };
  const insert = db.prepare(
    "INSERT INTO sessions (session_id, provider, source, project_key, cwd, parent_session_id, parent_kind, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', ?, ?, ?, ?, 1, ?, 1)",
  );
  db.transaction(() => {
    for (let i = 0; i < CONVERSATIONS; i += 1) insert.run(`big-${i}`, keys.big, BIG, null, null, 1_000 + i);
    // Subagents newer than every conversation: neither counted nor the latest.
    for (let i = 0; i < SUBAGENTS; i += 1) insert.run(`big-0:agent-${i}`, keys.big, BIG, 'big-0', 'subagent', 9_000 + i);
    // A branch is a conversation of its own.
    insert.run('small-0', keys.small, SMALL, null, null, 500);
    insert.run('small-branch', keys.small, SMALL, 'small-0', 'branch', 600);
  })();
});

afterAll(() => {
  db?.close();
  home?.cleanup();
});

/** The plan of every statement on sessions the list runs, as SQLite would run them now. */
function plansOfList(): string[] {
  const plans: string[] = [];
  const prepare = db.prepare.bind(db);
  const run = new Set<string>();
  db.prepare = ((sql: string) => {
    const statement = prepare(sql) as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ['get', 'all', 'iterate']) {
      const original = statement[method]!.bind(statement);
      statement[method] = (...args: unknown[]) => (run.add(sql), original(...args));
    }
    return statement;
  }) as unknown as Db['prepare'];
  try {
    new ProjectStore(db, new GatewayReader(db)).list();
  } finally {
    db.prepare = prepare as Db['prepare'];
  }
  for (const sql of run) if (/FROM sessions/.test(sql)) plans.push((db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...placeholders(sql)) as Array<{ detail: string }>).map((r) => r.detail).join(' | '));
  return plans;
}

const placeholders = (sql: string) => Array.from({ length: (sql.match(/\?/g) ?? []).length }, (_, i) => (i === 0 ? 'p_key' : 1));

describe('the projects list', () => {
  it('counts each project’s conversations and names its latest, subagents left out and branches in', () => {
    const listed = new Map(projects.list().map((p) => [p.projectKey, p]));
    expect(listed.get(keys.big)).toMatchObject({ sessions: CONVERSATIONS, latestSession: { sessionId: `big-${CONVERSATIONS - 1}` } });
    expect(listed.get(keys.small)).toMatchObject({ sessions: 2, latestSession: { sessionId: 'small-branch' } });
  });

  it('reads each project’s conversations from the index that holds only them, never every session', () => {
    const plans = plansOfList();
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan).toContain('sessions_conversations');
      expect(plan).not.toMatch(/SCAN sessions(?! USING)/);
    }
    // The count reads the index alone, no table row.
    expect(plans.some((plan) => /COVERING INDEX sessions_conversations/.test(plan))).toBe(true);
  });

  it('holds the same conversations the readers call conversations', () => {
    const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'sessions_conversations'").pluck().get() as string;
    expect(sql.replace(/\s+/g, ' ')).toContain(`WHERE ${CONVERSATION}`);
  });
});
