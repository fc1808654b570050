import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommitWindow, GatewayReader, Materializer, Sink, Spool } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { PieceWindow } from '../../../core/gateway/pace.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { migrate, type Db } from '../../../core/store/index.js';
import type { TranscriptBatch } from '../../../core/transcripts/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { partRow, sessionRow } from '../../support/rows.js';

function batch(sessionId: string, ids: string[]): TranscriptBatch {
  return {
    parts: ids.map((id) => partRow({ partId: `cc:${id}:0`, sessionId, text: `text of ${id}` })),
    sessions: [sessionRow({ sessionId })],
  };
}

let home: TempHome;
let db: Db;
let other: Db;
let sql: string[];
let materializer: Materializer;
let sink: Sink;

beforeEach(() => {
  home = tempHome();
  sql = [];
  const file = join(home.dir, 'gateway.db');
  db = new Database(file, { verbose: (statement) => sql.push(String(statement)) });
  db.pragma('journal_mode = WAL');
  migrate(db, GATEWAY_MIGRATIONS, 'gateway');
  // A second connection sees only what is committed, as a reader in another process would.
  other = new Database(file, { readonly: true });
  sink = new Sink(db, new ProjectStore(db, new GatewayReader(db)));
  materializer = new Materializer(db, new Spool(db), sink);
});
afterEach(() => {
  other.close();
  db.close();
  home.cleanup();
});

const committedParts = () => other.prepare('SELECT COUNT(*) FROM parts').pluck().get() as number;

/** One batch as a run writes it: materialized through the sink into the open window. */
function write(window: CommitWindow, run: object, b: TranscriptBatch): boolean {
  window.open();
  const appended = materializer.materialize(run, b);
  return window.add(appended.partsAppended + appended.sessionsAppended, appended.textAppended);
}

describe('CommitWindow', () => {
  it('waits with a full window while the disk gate is taken, then commits; commit() and a window twice over go ahead', () => {
    let free = false;
    const entered: boolean[] = [];
    const gate = { enter: (force = false) => (entered.push(force), free || force), leave: () => undefined };
    const window = new CommitWindow(db, { maxRows: 2, maxBytes: 1e9, maxAgeMs: 1e9 }, { gate });
    const run = {};
    expect(write(window, run, batch('s1', ['a', 'b']))).toBe(true);
    expect(window.commitWhenQuiet()).toBe(false);
    expect(window.isOpen).toBe(true);
    expect(committedParts()).toBe(0);
    free = true;
    expect(window.commitWhenQuiet()).toBe(true);
    expect(committedParts()).toBe(2);
    free = false;
    // Twice the row limit: it no longer waits for the gate.
    write(window, run, batch('s2', ['c', 'd']));
    expect(window.commitWhenQuiet()).toBe(false);
    write(window, run, batch('s3', ['e', 'f']));
    expect(window.commitWhenQuiet()).toBe(true);
    expect(committedParts()).toBe(6);
    write(window, run, batch('s4', ['g']));
    window.commit();
    expect(committedParts()).toBe(7);
    expect(entered).toEqual([false, false, false, true, true]);
  });

  it('waits for the whole WAL to be copied after every 8th commit, and only between windows', async () => {
    let settles = 0;
    const window = new CommitWindow(db, { maxRows: 1, maxBytes: 1e9, maxAgeMs: 1e9 }, { settle: async () => (settles += 1) });
    const run = {};
    const commitOne = (id: string) => {
      write(window, run, batch('s', [id]));
      window.commit();
    };
    for (let i = 0; i < 7; i += 1) {
      commitOne(`a${i}`);
      await window.settle();
    }
    expect(settles).toBe(0);
    commitOne('a7');
    // Never with a window open: its transaction would keep the WAL from starting over.
    write(window, run, batch('s', ['open']));
    await window.settle();
    expect(settles).toBe(0);
    window.commit();
    await window.settle();
    expect(settles).toBe(1);
    await window.settle();
    expect(settles).toBe(1);
    for (let i = 0; i < 8; i += 1) commitOne(`b${i}`);
    await window.settle();
    expect(settles).toBe(2);
  });

  it('groups batches into one commit, and what waits on durability runs only after it', () => {
    const window = new CommitWindow(db);
    const run = {};
    const waited: string[] = [];
    write(window, run, batch('s1', ['a', 'b']));
    window.afterCommit(() => waited.push('file 1'));
    write(window, run, batch('s2', ['c']));
    window.afterCommit(() => waited.push('file 2'));
    // Visible on the owner's connection, not yet committed for anybody else.
    expect(db.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(3);
    expect(committedParts()).toBe(0);
    expect(waited).toEqual([]);

    window.commit();
    expect(committedParts()).toBe(3);
    expect(waited).toEqual(['file 1', 'file 2']);
    expect(other.prepare('SELECT COUNT(*) FROM spool').pluck().get()).toBe(0);
    // With no window open, a callback runs at once.
    window.afterCommit(() => waited.push('now'));
    expect(waited).toEqual(['file 1', 'file 2', 'now']);
  });

  it('a callback that throws after the commit does not keep the others from running, and its error is told once they ran', () => {
    const window = new CommitWindow(db);
    const waited: string[] = [];
    write(window, {}, batch('s1', ['a']));
    window.afterCommit(() => {
      throw new Error('listener failed');
    });
    window.afterCommit(() => waited.push('file 2'));
    expect(() => window.commit()).toThrow('listener failed');
    // Committed all the same, and the callback after the one that threw ran.
    expect(committedParts()).toBe(1);
    expect(waited).toEqual(['file 2']);
    expect(db.inTransaction).toBe(false);
  });

  it('batches join the window instead of nesting savepoints, which copy every page they touch', () => {
    const window = new CommitWindow(db);
    sql.length = 0;
    write(window, {}, batch('s1', ['a', 'b', 'c']));
    write(window, {}, batch('s2', ['d']));
    window.commit();
    expect(sql.filter((s) => /^(SAVEPOINT|RELEASE)\b/.test(s))).toEqual([]);
    expect(sql.filter((s) => /^(BEGIN|COMMIT)\b/.test(s))).toEqual(['BEGIN IMMEDIATE', 'COMMIT']);
    // Outside a window each still commits on its own.
    sql.length = 0;
    materializer.materialize({}, batch('s3', ['e']));
    expect(sql.filter((s) => /^(BEGIN|COMMIT)\b/.test(s))).toEqual(['BEGIN', 'COMMIT']);
  });

  it('says when it is due: by rows, by text bytes, by age', () => {
    // On an empty store (a window's limits grow with the parts stored; see below).
    const byBytes = new CommitWindow(db, { maxRows: 1e9, maxBytes: 20, maxAgeMs: 1e9 });
    expect(write(byBytes, {}, batch('b', ['b1']))).toBe(false); // "text of b1": 10 characters
    expect(write(byBytes, {}, batch('b', ['b2']))).toBe(true);
    byBytes.commit();
    const byRows = new CommitWindow(db, { maxRows: 4, maxBytes: 1e9, maxAgeMs: 1e9 });
    expect(write(byRows, {}, batch('r', ['r1', 'r2']))).toBe(false); // 2 parts + 1 session
    expect(write(byRows, {}, batch('r', ['r3']))).toBe(true);
    byRows.commit();
    const byAge = new CommitWindow(db, { maxRows: 1e9, maxBytes: 1e9, maxAgeMs: 0 });
    expect(write(byAge, {}, batch('g', ['g1']))).toBe(true);
    byAge.commit();
    expect(committedParts()).toBe(6);
  });

  it('grows with the store: a window over 100,000 stored parts holds a tenth of them, and text worth most of their part_id index', () => {
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
             INSERT INTO parts (part_id, session_id, provider, kind, text) SELECT 'cc:seed-' || i || ':0', 'seed', 'claude', 'text', 'x' FROM n`);
    const byRows = new CommitWindow(db, { maxRows: 4, maxBytes: 1e9, maxAgeMs: 1e9 });
    byRows.open();
    expect(byRows.add(9_999, 0)).toBe(false);
    expect(byRows.add(1, 0)).toBe(true);
    byRows.commit();
    // 100,000 parts × 52 bytes of index × 3/4: a window holds 3.9 MB of text, not the 20 bytes set.
    const byBytes = new CommitWindow(db, { maxRows: 1e9, maxBytes: 20, maxAgeMs: 1e9 });
    byBytes.open();
    expect(byBytes.add(1, 3_899_000)).toBe(false);
    expect(byBytes.add(1, 1_000)).toBe(true);
    byBytes.commit();
  });

  it('a window SQLite itself rolled back is lost: what waited on it never runs, and nothing throws', () => {
    const window = new CommitWindow(db);
    const waited: string[] = [];
    write(window, {}, batch('s1', ['a']));
    window.afterCommit(() => waited.push('file 1'));
    // What an I/O error or a full disk does to an open transaction.
    db.exec('ROLLBACK');
    expect(() => window.commit()).not.toThrow();
    expect(waited).toEqual([]);
    expect(window.isOpen).toBe(false);
    expect(committedParts()).toBe(0);
    // The next window works as usual.
    write(window, {}, batch('s1', ['a']));
    window.commit();
    expect(committedParts()).toBe(1);
  });

  it('written into the index walk’s open transaction, what waits on durability waits for that commit, and is dropped when it rolls back', () => {
    const walk = new PieceWindow(db);
    const window = new CommitWindow(db);
    const waited: string[] = [];
    walk.enter();
    write(window, {}, batch('s1', ['a']));
    expect(window.isOpen).toBe(false);
    window.afterCommit(() => waited.push('file 1'));
    // The run ends with nothing of its own to commit: its rows are in the walk's transaction.
    window.commit();
    expect(committedParts()).toBe(0);
    expect(waited).toEqual([]);
    walk.leave();
    expect(walk.commit()).toBe(true);
    expect(committedParts()).toBe(1);
    expect(waited).toEqual(['file 1']);

    // The walk's transaction rolled back (a piece that threw): capture's rows in it went too.
    walk.enter();
    write(window, {}, batch('s2', ['b']));
    window.afterCommit(() => waited.push('file 2'));
    walk.fail();
    // SQLite rolled the walk's transaction back on its own (an I/O error, a full disk).
    walk.enter();
    write(window, {}, batch('s3', ['c']));
    window.afterCommit(() => waited.push('file 3'));
    db.exec('ROLLBACK');
    window.afterCommit(() => waited.push('file 3, later'));
    // Later windows, of either writer, never run what waited on a lost one.
    write(window, {}, batch('s4', ['d']));
    window.commit();
    walk.enter();
    walk.leave();
    walk.commit();
    expect(committedParts()).toBe(2);
    expect(waited).toEqual(['file 1']);
  });

  it('the walk’s pieces joined to capture’s window: what waits on them runs at capture’s commit', () => {
    const walk = new PieceWindow(db);
    const window = new CommitWindow(db);
    const waited: string[] = [];
    write(window, {}, batch('s1', ['a']));
    walk.enter();
    expect(walk.open).toBe(false);
    walk.afterCommit(() => waited.push('walk done'));
    walk.leave();
    expect(waited).toEqual([]);
    window.commit();
    expect(waited).toEqual(['walk done']);
  });

  it('leaves a transaction it did not open to its owner', () => {
    const window = new CommitWindow(db);
    db.exec('BEGIN');
    window.open();
    expect(window.isOpen).toBe(false);
    db.exec('COMMIT');
    window.open();
    expect(window.isOpen).toBe(true);
    window.commit();
  });
});
