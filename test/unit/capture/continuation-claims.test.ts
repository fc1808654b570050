import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayReader, Sink } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { migrate, type Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { partRow, sessionRow } from '../../support/rows.js';

let home: TempHome;
let db: Db;
let sql: string[];
let sink: Sink;

beforeEach(() => {
  home = tempHome();
  sql = [];
  db = new Database(join(home.dir, 'gateway.db'), { verbose: (statement) => sql.push(String(statement)) });
  migrate(db, GATEWAY_MIGRATIONS, 'gateway');
  sink = new Sink(db, new ProjectStore(db, new GatewayReader(db)));
});
afterEach(() => {
  db.close();
  home.cleanup();
});

const parentOf = (id: string) => db.prepare('SELECT parent_session_id AS parent, parent_kind AS kind FROM sessions WHERE session_id = ?').get(id);
const MESSAGE = 'cc:00000000-0000-4000-8000-0000000000a4:';

describe('Sink: a session whose first line follows a message of another (followsMessage)', () => {
  it('becomes a branch of the session holding it, found by one seek of the part_id key', () => {
    sink.write([sessionRow({ sessionId: 'orig', cwd: '/w' })], [partRow({ partId: `${MESSAGE}0`, sessionId: 'orig' }), partRow({ partId: `${MESSAGE}1`, sessionId: 'orig' })]);
    // Many messages around it: a scan would walk them.
    sink.write([], Array.from({ length: 50 }, (_, i) => partRow({ partId: `cc:00000000-0000-4000-8000-0000000001${i.toString().padStart(2, '0')}:0`, sessionId: 'orig' })));
    sql.length = 0;
    sink.write([sessionRow({ sessionId: 'cont', cwd: '/w', followsMessage: MESSAGE })], []);
    expect(parentOf('cont')).toEqual({ parent: 'orig', kind: 'branch' });
    const seek = sql.filter((s) => /FROM parts WHERE part_id > /i.test(s));
    expect(seek).toHaveLength(1);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${seek[0]}`).all() as { detail: string }[];
    expect(plan.map((row) => row.detail)).toEqual([expect.stringMatching(/USING INDEX sqlite_autoindex_parts_1 \(part_id>\? AND part_id<\?\)$/)]);
    // Linked, it asks nothing more.
    sql.length = 0;
    sink.write([sessionRow({ sessionId: 'cont', cwd: '/w', followsMessage: MESSAGE, lastTs: 5 })], []);
    expect(sql.filter((s) => /FROM parts WHERE part_id > /i.test(s))).toEqual([]);
    expect(parentOf('cont')).toEqual({ parent: 'orig', kind: 'branch' });
  });

  it('waits for a message not stored yet: the write that stores it links the session', () => {
    sink.write([sessionRow({ sessionId: 'cont', cwd: '/w', followsMessage: MESSAGE })], []);
    expect(parentOf('cont')).toEqual({ parent: null, kind: null });
    sink.write([sessionRow({ sessionId: 'orig', cwd: '/w' })], [partRow({ partId: `${MESSAGE}0`, sessionId: 'orig' })]);
    expect(parentOf('cont')).toEqual({ parent: 'orig', kind: 'branch' });
  });

  it('never replaces a parent, never points a session at itself, never crosses providers', () => {
    sink.write([sessionRow({ sessionId: 'orig', cwd: '/w' })], [partRow({ partId: `${MESSAGE}0`, sessionId: 'orig' })]);
    sink.write([sessionRow({ sessionId: 'p1' })], []);
    sink.write([sessionRow({ sessionId: 'p1:agent-a1', parentSessionId: 'p1', parentKind: 'subagent', followsMessage: MESSAGE })], []);
    expect(parentOf('p1:agent-a1')).toEqual({ parent: 'p1', kind: 'subagent' });
    sink.write([sessionRow({ sessionId: 'orig', followsMessage: MESSAGE })], []);
    expect(parentOf('orig')).toEqual({ parent: null, kind: null });
    sink.write([{ ...sessionRow({ sessionId: 'other', followsMessage: MESSAGE }), provider: 'codex' }], []);
    expect(parentOf('other')).toEqual({ parent: null, kind: null });

    // Waiting too: the part that comes is its own, or another provider's.
    const LATER = 'cc:00000000-0000-4000-8000-0000000000b7:';
    sink.write([sessionRow({ sessionId: 'self', followsMessage: LATER }), { ...sessionRow({ sessionId: 'cx', followsMessage: LATER }), provider: 'codex' }], []);
    sink.write([], [partRow({ partId: `${LATER}0`, sessionId: 'self' })]);
    expect([parentOf('self'), parentOf('cx')]).toEqual([
      { parent: null, kind: null },
      { parent: null, kind: null },
    ]);
  });

  it('never closes a circle: a session is no branch of one that descends from it (a resume written into the wrong file)', () => {
    const OTHER = 'cc:00000000-0000-4000-8000-0000000000b5:';
    sink.write([sessionRow({ sessionId: 'a', cwd: '/w' })], [partRow({ partId: `${MESSAGE}0`, sessionId: 'a' })]);
    sink.write([sessionRow({ sessionId: 'b', cwd: '/w', followsMessage: MESSAGE })], [partRow({ partId: `${OTHER}0`, sessionId: 'b' })]);
    expect(parentOf('b')).toEqual({ parent: 'a', kind: 'branch' });
    // a's lines, read again after b's in b's file, say a follows b: b descends from a, so a stays a root.
    sink.write([sessionRow({ sessionId: 'a', cwd: '/w', followsMessage: OTHER })], []);
    expect(parentOf('a')).toEqual({ parent: null, kind: null });
    sink.write([sessionRow({ sessionId: 'a', cwd: '/w', parentSessionId: 'b', parentKind: 'branch' })], []);
    expect(parentOf('a')).toEqual({ parent: null, kind: null });
    // Waiting for a message, it is not adopted by a descendant's either.
    const LATER = 'cc:00000000-0000-4000-8000-0000000000c6:';
    sink.write([sessionRow({ sessionId: 'c', cwd: '/w', followsMessage: LATER })], []);
    sink.write([sessionRow({ sessionId: 'd', cwd: '/w', parentSessionId: 'c', parentKind: 'branch' })], []);
    sink.write([], [partRow({ partId: `${LATER}0`, sessionId: 'd' })]);
    expect(parentOf('c')).toEqual({ parent: null, kind: null });
  });
});
