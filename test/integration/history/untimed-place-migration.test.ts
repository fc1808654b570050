import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openGateway, SearchIndex, SessionEraser } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { coreHome } from '../../support/core.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Gateway step 30: a part stored with no time before step 29 (ts NULL) takes, once, the place capture
 * gives such a line today when it reads its file from the start, and its index key moves with it. A
 * store is captured through today's path, then set back to what step 28 left (the placed parts' time
 * and mark gone, their index keys those of a part with no time), and the walk must bring back exactly
 * what capture wrote.
 */
const SID = '7a1c9e2b-4d3f-4b8e-a6c0-1f2e3d4c5b6a';
const BARE = '7a1c9e2b-0000-4000-8000-0000000000ff';
const CWD = '/work/orchard';
const T0 = Date.now() - 86_400_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const uuid = (n: number) => `7a1c9e2b-0000-4000-8000-${String(n).padStart(12, '0')}`;

function untimed(line: Record<string, unknown>): Record<string, unknown> {
  const { timestamp: _dropped, ...rest } = line;
  return rest;
}

const owned = coreHome('steward-untimed-migration-');

/** A conversation whose file opens, holds and ends with lines without a time; one with no time at all. */
function capture(): string {
  const root = join(owned.home.dir, 'roots', 'claude');
  const line = (n: number, minutes: number | null, text: string) => {
    const l = claudeLine({ sessionId: SID, cwd: CWD, ts: at(minutes ?? 0), uuid: uuid(n), text, ...(n % 2 === 0 ? { type: 'assistant' as const } : {}) });
    return minutes === null ? untimed(l) : l;
  };
  writeJsonl(join(root, 'projects', '-work-orchard', `${SID}.jsonl`), [
    line(1, null, 'orchard opening note without a time'),
    line(3, null, 'orchard second note without a time'),
    line(5, 1, 'Plant the orchard rows along the fence'),
    line(6, 2, 'Planting the orchard rows now.'),
    line(7, null, 'Also water the orchard saplings'),
    line(9, null, 'And the orchard hedge'),
    line(10, 3, 'Watered the orchard saplings.'),
    line(11, 4, 'Prune the orchard'),
    line(13, null, 'orchard closing note without a time'),
  ]);
  writeJsonl(join(root, 'projects', '-work-orchard', `${BARE}.jsonl`), [
    untimed(claudeLine({ sessionId: BARE, cwd: CWD, uuid: uuid(101), text: 'orchard with no time at all' })),
  ]);
  return root;
}

const PARTS = 'SELECT part_id, session_id, ts, ts_inferred, (SELECT fts_rowid FROM search_map WHERE part_rowid = parts.rowid) AS key FROM parts ORDER BY rowid';
const snapshot = (db: Db) => ({
  parts: db.prepare(PARTS).all(),
  stats: db.prepare('SELECT * FROM session_stats ORDER BY session_id').all(),
});

/** The store as step 28 left it: parts without a time have none, and are indexed under the key of no time. */
function setBack(db: Db): void {
  const rowids = db.prepare('SELECT rowid FROM parts WHERE ts_inferred = 1').pluck().all() as number[];
  const index = new SearchIndex(db);
  index.removeParts(rowids);
  db.prepare(`UPDATE parts SET ts = NULL, ts_inferred = 0 WHERE rowid IN (SELECT value FROM json_each(?))`).run(JSON.stringify(rowids));
  index.indexParts(rowids);
  db.pragma('user_version = 29');
}

function walk(db: Db): void {
  const index = new SearchIndex(db);
  // Pieces of two parts: a conversation is placed over several, resumed after its last part looked at.
  while (index.retagStep(2));
  expect(index.retagPending()).toBe(false);
  expect(index.walkProgress().complete).toBe(true);
  db.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)");
}

/** One conversation whose file holds long runs of lines without a time: a piece stops inside it. */
function captureLong(): string {
  const root = join(owned.home.dir, 'roots', 'claude');
  const line = (n: number, minutes: number | null) => {
    const l = claudeLine({ sessionId: SID, cwd: CWD, ts: at(minutes ?? 0), uuid: uuid(n), text: `orchard row ${n}`, ...(n % 2 === 0 ? { type: 'assistant' as const } : {}) });
    return minutes === null ? untimed(l) : l;
  };
  const lines = [line(1, 1), ...Array.from({ length: 12 }, (_, i) => line(2 + i, null)), line(14, 2), ...Array.from({ length: 6 }, (_, i) => line(15 + i, null))];
  writeJsonl(join(root, 'projects', '-work-orchard', `${SID}.jsonl`), lines);
  return root;
}

const placedCount = (db: Db) => db.prepare('SELECT COUNT(*) FROM parts WHERE ts_inferred = 1').pluck().get() as number;

describe('gateway step 30', () => {
  it('stops a piece once its time is spent, inside a conversation, and resumes after its last part', async () => {
    const root = captureLong();
    await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
    await owned.close();

    let fresh: ReturnType<typeof snapshot>;
    const db = openGateway(owned.home.dir);
    try {
      new SearchIndex(db).indexAfter(0);
      fresh = snapshot(db);
      expect(placedCount(db)).toBe(18);
      setBack(db);
    } finally {
      db.close();
    }

    const upgraded = openGateway(owned.home.dir);
    try {
      // No time at all for a piece: each places one part however many rows it may take.
      const index = new SearchIndex(upgraded, { placeMs: 0 });
      expect(index.retagStep(2_000)).toBe(true);
      expect(placedCount(upgraded)).toBe(1);
      let pieces = 1;
      while (index.retagStep(2_000)) pieces += 1;
      expect(pieces).toBeGreaterThanOrEqual(18);
      expect(index.walkProgress().complete).toBe(true);
      upgraded.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)");
      expect(snapshot(upgraded)).toEqual(fresh);
    } finally {
      upgraded.close();
    }
  });

  it('starts the next conversation from its first part when the one a piece stopped inside is deleted before the next piece', async () => {
    // SID's row comes first but its untimed parts are stored last (appended after OTHER was captured):
    // a piece stops inside SID at a part rowid above all of OTHER's.
    const OTHER = '7a1c9e2b-0000-4000-8000-0000000000ee';
    const root = join(owned.home.dir, 'roots', 'claude');
    const dir = join(root, 'projects', '-work-orchard');
    const line = (sid: string, n: number, minutes: number | null) => {
      const l = claudeLine({ sessionId: sid, cwd: CWD, ts: at(minutes ?? 0), uuid: uuid(n), text: `orchard row ${n}` });
      return minutes === null ? untimed(l) : l;
    };
    const backfill = async () => {
      await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
      await owned.close();
    };
    writeJsonl(join(dir, `${SID}.jsonl`), [line(SID, 1, 1)]);
    await backfill();
    writeJsonl(join(dir, `${OTHER}.jsonl`), [line(OTHER, 201, 5), line(OTHER, 202, null), line(OTHER, 203, null), line(OTHER, 204, null)]);
    await backfill();
    appendJsonl(join(dir, `${SID}.jsonl`), [line(SID, 2, null), line(SID, 3, null), line(SID, 4, null)]);
    await backfill();

    const ofOther = (db: Db) => (snapshot(db).parts as Array<{ session_id: string; ts_inferred: number }>).filter((p) => p.session_id === OTHER);
    let fresh: ReturnType<typeof ofOther>;
    const db = openGateway(owned.home.dir);
    try {
      new SearchIndex(db).indexAfter(0);
      fresh = ofOther(db);
      expect(fresh.filter((p) => p.ts_inferred === 1)).toHaveLength(3);
      const rowid = (sid: string, agg: 'MIN' | 'MAX') => db.prepare(`SELECT ${agg}(rowid) FROM parts WHERE session_id = ? AND (ts IS NULL OR ts_inferred = 1)`).pluck().get(sid) as number;
      expect(rowid(SID, 'MIN')).toBeGreaterThan(rowid(OTHER, 'MAX'));
      setBack(db);
    } finally {
      db.close();
    }

    const upgraded = openGateway(owned.home.dir);
    try {
      const index = new SearchIndex(upgraded, { placeMs: 0 });
      // One part a piece: the first stops inside SID, after its first untimed part.
      expect(index.retagStep(2_000)).toBe(true);
      expect(upgraded.prepare('SELECT session_id FROM parts WHERE ts_inferred = 1').pluck().all()).toEqual([SID]);
      // Forgotten before the next piece (forget's and retention's erase).
      await new SessionEraser(upgraded, index).erase([SID]);
      while (index.retagStep(2_000));
      expect(index.walkProgress().complete).toBe(true);
      upgraded.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)");
      expect(ofOther(upgraded)).toEqual(fresh);
    } finally {
      upgraded.close();
    }
  });

  it('merges the index first, instead of placing, while one more segment could bring a crisis merge', async () => {
    const root = capture();
    await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
    await owned.close();

    let fresh: ReturnType<typeof snapshot>;
    const db = openGateway(owned.home.dir);
    try {
      new SearchIndex(db).indexAfter(0);
      fresh = snapshot(db);
      // Set back a part at a time: each commit writes a segment of its own on level 0.
      const rowids = db.prepare('SELECT rowid FROM parts WHERE ts_inferred = 1').pluck().all() as number[];
      const index = new SearchIndex(db);
      for (const rowid of rowids) {
        index.removeParts([rowid]);
        db.prepare('UPDATE parts SET ts = NULL, ts_inferred = 0 WHERE rowid = ?').run(rowid);
        index.indexParts([rowid]);
      }
      // FTS5 merges level 0 whole at its 8th segment: the placing must not write while it holds 4.
      db.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('crisismerge', 8)");
      db.pragma('user_version = 29');
    } finally {
      db.close();
    }

    const upgraded = openGateway(owned.home.dir);
    try {
      const index = new SearchIndex(upgraded);
      expect(index.retagStep(2_000)).toBe(true);
      expect(placedCount(upgraded)).toBe(0);
      while (index.retagStep(2_000));
      upgraded.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)");
      expect(snapshot(upgraded)).toEqual(fresh);
    } finally {
      upgraded.close();
    }
  });

  it('places the parts stored with no time where capture places them today, their index keys with them, once', async () => {
    const root = capture();
    await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
    await owned.close();

    let fresh: ReturnType<typeof snapshot>;
    const db = openGateway(owned.home.dir);
    try {
      new SearchIndex(db).indexAfter(0);
      fresh = snapshot(db);
      // Capture placed five parts, and left the one of a conversation with no time unplaced.
      expect(fresh.parts.filter((p) => (p as { ts_inferred: number }).ts_inferred === 1)).toHaveLength(5);
      expect(fresh.parts.filter((p) => (p as { ts: number | null }).ts === null)).toHaveLength(1);
      setBack(db);
      expect(snapshot(db)).not.toEqual(fresh);
    } finally {
      db.close();
    }

    const upgraded = openGateway(owned.home.dir);
    try {
      walk(upgraded);
      expect(snapshot(upgraded)).toEqual(fresh);
      // Run again (a store set back to schema 29 once more): nothing moves.
      upgraded.pragma('user_version = 29');
    } finally {
      upgraded.close();
    }
    const again = openGateway(owned.home.dir);
    try {
      walk(again);
      expect(snapshot(again)).toEqual(fresh);
    } finally {
      again.close();
    }

    // Read through the Core: the conversation in its file's order, newest first by place.
    const c = owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } });
    const got = await c.call('Sessions.Get', { sessionId: SID });
    expect(got.messages.map((m) => m.messageId)).toEqual([1, 3, 5, 6, 7, 9, 10, 11, 13].map((n) => `cc:${uuid(n)}`));
    expect(got.messages[0]!.ts).toBeNull();
    const newest = await c.call('Search.Query', { query: 'orchard', sort: 'newest', sessionId: SID });
    expect(newest.hits.map((h) => h.partId)).toEqual([13, 11, 10, 9, 7, 6, 5, 3, 1].map((n) => `cc:${uuid(n)}:0`));
  });
});
