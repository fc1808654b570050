import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayReader, Sink } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { migrate, type Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { sessionRow } from '../../support/rows.js';

let home: TempHome;
let db: Db;
let sql: string[];

beforeEach(() => {
  home = tempHome();
  sql = [];
  // better-sqlite3 reports every executed statement to `verbose`: the test sees exactly what ran.
  db = new Database(join(home.dir, 'gateway.db'), { verbose: (statement) => sql.push(String(statement)) });
  migrate(db, GATEWAY_MIGRATIONS, 'gateway');
});
afterEach(() => {
  db.close();
  home.cleanup();
});

const parentOf = (id: string) => db.prepare('SELECT parent_session_id AS parent, parent_kind AS kind FROM sessions WHERE session_id = ?').get(id);

describe('Sink: a subagent stored before its parent', () => {
  it("is linked by the parent's first row, through one seek of the subagents' key range", () => {
    const sink = new Sink(db, new ProjectStore(db, new GatewayReader(db)));
    const orphan = sessionRow({ sessionId: 'p1:agent-a1', cwd: '/work/x', parentSessionId: 'p1', parentKind: 'subagent', parentMissing: true });
    // Many conversations: a plan on sessions_parent (IS NULL) would walk them all.
    sink.write([orphan, ...Array.from({ length: 20 }, (_, i) => sessionRow({ sessionId: `top-${i}`, cwd: '/work/x' }))], []);
    expect(parentOf('p1:agent-a1')).toEqual({ parent: null, kind: null });

    sql.length = 0;
    sink.write([sessionRow({ sessionId: 'p1', cwd: '/work/x' })], []);
    expect(parentOf('p1:agent-a1')).toEqual({ parent: 'p1', kind: 'subagent' });
    const adopt = sql.filter((s) => /^UPDATE sessions SET parent_session_id/i.test(s.trim()));
    expect(adopt).toHaveLength(1);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${adopt[0]}`).all() as { detail: string }[];
    expect(plan.map((row) => row.detail)).toEqual([expect.stringMatching(/USING INDEX sqlite_autoindex_sessions_1 \(session_id>\? AND session_id<\?\)$/)]);

    // A row written again asks nothing: only a new session can be a parent the cache did not know.
    sql.length = 0;
    sink.write([sessionRow({ sessionId: 'p1', cwd: '/work/x', lastTs: 3 })], []);
    expect(sql.filter((s) => /^UPDATE sessions SET parent_session_id/i.test(s.trim()))).toEqual([]);
  });
});
