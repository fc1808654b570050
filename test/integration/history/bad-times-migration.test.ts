import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openGateway, SearchIndex } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Gateway step 34: a store an older build wrote holds times no line can hold (1e300 as a REAL in the
 * INTEGER `ts`, 9e15 and -9e15 past what a Date holds, 1980 from a clock set back), in parts and in
 * their conversations' first and last times. The step takes them as no time, as capture does today:
 * the parts lose their time (the place walk places them and moves their index keys), and the
 * conversations' first and last times are those of their parts that have one. No row is lost. A store
 * is captured through today's path, set back to what an older build wrote, and after the step and the
 * walk must hold exactly what capture wrote.
 */
const SID = '3c9d2e1f-6a5b-4c7d-8e9f-0a1b2c3d4e5f';
const OTHER = '3c9d2e1f-0000-4000-8000-0000000000bb';
const CWD = '/work/mill';
const T0 = Date.UTC(2026, 10, 21, 7, 30);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const uuid = (n: number) => `3c9d2e1f-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** What each of the lines 2 to 6 said for a time, as an older parseTs stored it. */
const BAD: Array<[number, number]> = [
  [1e300, 0],
  [1e300, 1],
  [9e15, 0],
  [-9e15, 0],
  [Date.UTC(1980, 0, 1), 0],
];

const owned = coreHome('steward-bad-times-migration-');

function capture(): string {
  const root = join(owned.home.dir, 'roots', 'claude');
  const line = (n: number, ts: unknown, text: string) => ({ ...claudeLine({ sessionId: SID, cwd: CWD, uuid: uuid(n), text, ...(n % 2 === 0 ? { type: 'assistant' as const } : {}) }), timestamp: ts });
  writeJsonl(join(root, 'projects', '-work-mill', `${SID}.jsonl`), [
    line(1, at(0).toISOString(), 'Grind the mill wheat'),
    ...BAD.map(([ts], i) => line(2 + i, ts, `mill line ${2 + i} with a bad time`)),
    line(7, at(5).toISOString(), 'Sack the mill flour'),
  ]);
  writeJsonl(join(root, 'projects', '-work-mill', `${OTHER}.jsonl`), [claudeLine({ sessionId: OTHER, cwd: CWD, ts: at(2), uuid: uuid(101), text: 'Another mill, timed well' })]);
  return root;
}

const PARTS = 'SELECT part_id, session_id, ts, typeof(ts) AS type, ts_inferred, (SELECT fts_rowid FROM search_map WHERE part_rowid = parts.rowid) AS key FROM parts ORDER BY rowid';
const snapshot = (db: Db) => ({
  parts: db.prepare(PARTS).all(),
  sessions: db.prepare('SELECT session_id, first_ts, last_ts FROM sessions ORDER BY session_id').all(),
  stats: db.prepare('SELECT * FROM session_stats ORDER BY session_id').all(),
});

/** The store as an older build wrote it: the bad times in the parts (indexed under the keys they gave) and in the conversation's span. */
function setBack(db: Db): void {
  const rowids = db.prepare('SELECT rowid FROM parts WHERE session_id = ? AND ts_inferred = 1 ORDER BY rowid').pluck().all(SID) as number[];
  expect(rowids).toHaveLength(BAD.length);
  const index = new SearchIndex(db);
  index.removeParts(rowids);
  const set = db.prepare('UPDATE parts SET ts = ?, ts_inferred = ? WHERE rowid = ?');
  rowids.forEach((rowid, i) => set.run(BAD[i]![0], BAD[i]![1], rowid));
  index.indexParts(rowids);
  db.prepare('UPDATE sessions SET first_ts = ?, last_ts = ? WHERE session_id = ?').run(-9e15, 1e300, SID);
  expect(db.prepare("SELECT COUNT(*) FROM parts WHERE typeof(ts) = 'real'").pluck().get()).toBe(2);
  db.pragma('user_version = 33');
}

describe('gateway step 34', () => {
  it('takes every stored time no line can hold as no time, and the walk places those parts as capture does', async () => {
    const root = capture();
    await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
    await owned.close();

    let fresh: ReturnType<typeof snapshot>;
    const db = openGateway(owned.home.dir);
    try {
      new SearchIndex(db).indexAfter(0);
      fresh = snapshot(db);
      setBack(db);
    } finally {
      db.close();
    }

    const upgraded = openGateway(owned.home.dir);
    try {
      // The step: no row lost, no time left that a line cannot hold, the span the timed parts'.
      expect(upgraded.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(34);
      const after = snapshot(upgraded);
      expect(after.parts).toHaveLength(fresh.parts.length);
      const mine = (after.parts as Array<{ session_id: string; ts: number | null; type: string; ts_inferred: number }>).filter((p) => p.session_id === SID);
      expect(mine.map((p) => [p.ts, p.type, p.ts_inferred])).toEqual([[T0, 'integer', 0], ...BAD.map(() => [null, 'null', 0]), [T0 + 5 * 60_000, 'integer', 0]]);
      expect(after.sessions).toEqual(fresh.sessions);
      expect(after.stats).toEqual(fresh.stats);

      const index = new SearchIndex(upgraded);
      while (index.retagStep(2));
      expect(index.walkProgress().complete).toBe(true);
      upgraded.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)");
      expect(snapshot(upgraded)).toEqual(fresh);
    } finally {
      upgraded.close();
    }
  });

  it("keeps a conversation's good end when only its other end is bad (its first line's part may be gone, pruned)", async () => {
    const root = capture();
    await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
    await owned.close();
    const db = openGateway(owned.home.dir);
    const EARLIER = T0 - 86_400_000;
    let last: unknown;
    try {
      last = db.prepare('SELECT last_ts FROM sessions WHERE session_id = ?').pluck().get(SID);
      // A first time no stored part says any more (retention took its line's part), and a bad last one.
      db.prepare('UPDATE sessions SET first_ts = ?, last_ts = ? WHERE session_id = ?').run(EARLIER, 1e300, SID);
      db.pragma('user_version = 33');
    } finally {
      db.close();
    }
    const upgraded = openGateway(owned.home.dir);
    try {
      expect(upgraded.prepare('SELECT first_ts, last_ts FROM sessions WHERE session_id = ?').get(SID)).toEqual({ first_ts: EARLIER, last_ts: last });
    } finally {
      upgraded.close();
    }
  });

  it('changes nothing in a store that holds no such time, and marks no walk', async () => {
    const root = capture();
    await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
    await owned.close();
    let fresh: ReturnType<typeof snapshot>;
    let state: unknown;
    const db = openGateway(owned.home.dir);
    try {
      new SearchIndex(db).indexAfter(0);
      fresh = snapshot(db);
      state = db.prepare("SELECT key, value FROM search_state WHERE key LIKE 'place_%' ORDER BY key").raw().all();
      db.pragma('user_version = 33');
    } finally {
      db.close();
    }
    const upgraded = openGateway(owned.home.dir);
    try {
      expect(snapshot(upgraded)).toEqual(fresh);
      expect(upgraded.prepare("SELECT key, value FROM search_state WHERE key LIKE 'place_%' ORDER BY key").raw().all()).toEqual(state);
    } finally {
      upgraded.close();
    }
  });
});
