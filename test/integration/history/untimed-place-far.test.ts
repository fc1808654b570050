import { describe, expect, it } from 'vitest';
import { openGateway, SearchIndex, SessionEraser } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome } from '../../support/home.js';

/**
 * Gateway step 30's placing over stores built row by row: a part stored with no time takes the time of
 * its conversation's last part before it with one, in stored (rowid) order, else of the first after
 * it. Its neighbour may sit far from it (a file read again days later, a long run of untimed lines):
 * looking for it must never cost its conversation's size in one statement (a piece cannot stop inside
 * one), and a piece stopped inside a conversation must resume only that conversation.
 */
async function withGateway(run: (db: Db) => void | Promise<void>): Promise<void> {
  const home = tempHome('steward-untimed-far-');
  const db = openGateway(home.dir);
  try {
    await run(db);
  } finally {
    db.close();
    home.cleanup();
  }
}

const session = (db: Db, sessionId: string) => db.prepare("INSERT INTO sessions (session_id, provider, updated_at) VALUES (?, 'claude', 0)").run(sessionId).lastInsertRowid as number;

function storePart(db: Db, sessionId: string, id: string, ts: number | null): number {
  return db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 'claude', 'user', 'text', ?, 'x')").run(id, sessionId, ts).lastInsertRowid as number;
}

/** What migration 30 marks: every conversation stored so far is to be placed. */
function markPlacing(db: Db): void {
  db.prepare(
    "INSERT INTO search_state (key, value) VALUES ('place_cursor', 0), ('place_session', 0), ('place_part', 0), ('place_upto', (SELECT MAX(rowid) FROM sessions)) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  ).run();
}

/** The rule, read off every row: the previous timed part of the conversation in rowid order, else the next. */
function expectedPlaces(db: Db, sessionId: string): Map<number, number | null> {
  const rows = db.prepare('SELECT rowid, ts FROM parts WHERE session_id = ? ORDER BY rowid').raw().all(sessionId) as Array<[number, number | null]>;
  const places = new Map<number, number | null>();
  let last: number | null = null;
  const waiting: number[] = [];
  for (const [rowid, ts] of rows) {
    if (ts === null) {
      if (last !== null) places.set(rowid, last);
      else waiting.push(rowid);
      continue;
    }
    last = ts;
    for (const w of waiting.splice(0)) places.set(w, ts);
  }
  for (const w of waiting) places.set(w, null);
  return places;
}

const storedPlaces = (db: Db, rowids: Iterable<number>) =>
  new Map([...rowids].map((rowid) => [rowid, db.prepare('SELECT ts FROM parts WHERE rowid = ? AND (ts IS NULL OR ts_inferred = 1)').pluck().get(rowid) as number | null]));

function walk(index: SearchIndex): number {
  let pieces = 1;
  while (index.retagStep(2_000)) pieces += 1;
  expect(index.retagPending()).toBe(false);
  return pieces;
}

describe('gateway step 30, a neighbour far away', () => {
  it('is looked for by seeks and bounded windows: no statement of the placing sorts a conversation', () =>
    withGateway((db) => {
      // Every statement SearchIndex prepares that looks for a part's neighbours (named `@sessionId`).
      const prepared: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => {
        prepared.push(sql);
        return prepare(sql);
      }) as typeof db.prepare;
      try {
        new SearchIndex(db);
      } finally {
        db.prepare = prepare;
      }
      const placing = prepared.filter((sql) => sql.includes('@sessionId'));
      expect(placing.length).toBeGreaterThan(0);
      for (const sql of placing) {
        const params = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map(([, name]) => [name!, name === 'sessionId' ? 's' : 1]));
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((row) => row.detail);
        expect(plan.filter((line) => / q /.test(line)).every((line) => line.startsWith('SEARCH q'))).toBe(true);
        expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
      }
    }));

  it('places parts far from any timed part by the rule, a search spread over pieces that stop inside it', () =>
    withGateway((db) => {
      const S = 'far-conversation';
      const OTHER = 'other-conversation';
      session(db, S);
      session(db, OTHER);
      db.transaction(() => {
        // Leading untimed parts, their next timed part 1,050 rows on: found beside them, in the second step.
        for (let i = 0; i < 1_050; i += 1) storePart(db, S, `lead-${i}`, null);
        // Timed parts whose times fall as rowids rise: the previous part by rowid is not the latest time.
        for (let i = 0; i < 1_500; i += 1) storePart(db, S, `t-${i}`, 9_000_000 - i);
        // Read again later: untimed parts 5,000 rows from their conversation's last, which its entries find first.
        for (let i = 0; i < 5_000; i += 1) storePart(db, OTHER, `o-${i}`, 5);
        for (let i = 0; i < 3; i += 1) storePart(db, S, `late-${i}`, null);
        for (let i = 0; i < 2_500; i += 1) storePart(db, OTHER, `p-${i}`, 6);
        storePart(db, S, 'last', null);
        storePart(db, OTHER, 'untimed-other', null);
      })();
      const expected = new Map([...expectedPlaces(db, S), ...expectedPlaces(db, OTHER)]);
      markPlacing(db);
      // No time for a piece: each takes one step of a search, and must still come to the end.
      const pieces = walk(new SearchIndex(db, { placeMs: 0 }));
      expect(storedPlaces(db, expected.keys())).toEqual(expected);
      expect(pieces).toBeGreaterThan(4);
    }));

  it('resumes inside a conversation only if it is the one stopped in, not a new one given its rowids', () =>
    withGateway(async (db) => {
      const A = 'first-conversation';
      const GONE = 'forgotten-conversation';
      const NEW = 'new-conversation';
      session(db, A);
      storePart(db, A, 'a-t', 1_000);
      storePart(db, A, 'a-u', null);
      const goneRowid = session(db, GONE);
      storePart(db, GONE, 'g-t', 2_000);
      const stoppedAfter = storePart(db, GONE, 'g-u1', null);
      storePart(db, GONE, 'g-u2', null);
      storePart(db, GONE, 'g-u3', null);
      markPlacing(db);
      const index = new SearchIndex(db, { placeMs: 0 });
      const placed = (id: string) => db.prepare('SELECT ts_inferred FROM parts WHERE part_id = ?').pluck().get(id) === 1;
      while (!placed('g-u1')) expect(index.retagStep(2_000)).toBe(true);
      expect(placed('g-u2')).toBe(false);

      // Forgotten before the next piece; a conversation stored next takes its rowid and its parts' rowids.
      await new SessionEraser(db, index).erase([GONE]);
      expect(session(db, NEW)).toBe(goneRowid);
      const first = storePart(db, NEW, 'n-u1', null);
      storePart(db, NEW, 'n-u2', null);
      storePart(db, NEW, 'n-t', 3_000);
      expect(first).toBeLessThan(stoppedAfter);

      walk(index);
      expect(db.prepare('SELECT part_id, ts, ts_inferred FROM parts WHERE session_id = ? ORDER BY rowid').raw().all(NEW)).toEqual([
        ['n-u1', 3_000, 1],
        ['n-u2', 3_000, 1],
        ['n-t', 3_000, 0],
      ]);
    }));
});
