import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { SearchIndex } from '../../../core/gateway/search-index.js';
import { SearchReader, wholeSeconds, type MatchedPart, type SearchFilter } from '../../../core/gateway/search-read.js';
import { migrate } from '../../../core/store/index.js';

/**
 * Search.Query's `from` and `to` are epoch ms, inclusive; the index's keys hold a line's second only.
 * The seconds a bound cuts inside are read from the index whole and their matches kept by each part's
 * own time, before a page is counted, so a page is as full as the range allows and paging misses nothing.
 */
const BASE = Date.UTC(2026, 2, 10, 12);
/**
 * Lines by ms from BASE, stored in this order: within one second keys follow the order parts were
 * stored, so in the second at BASE the line at .700 holds the highest key and .100 the lowest.
 */
const LINES = [-500, 100, 900, 300, 700, 1000, 1500];

function indexed(): Database.Database {
  const db = new Database(':memory:');
  migrate(db, GATEWAY_MIGRATIONS, 'gateway');
  db.prepare("INSERT INTO sessions (session_id, provider, updated_at) VALUES ('s-1', 'claude', 0)").run();
  const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, genuine_user_turn) VALUES (?, 's-1', 'claude', 'user', 'text', ?, ?, ?)");
  db.transaction(() => {
    // Every line but .300 is the person's own.
    for (const at of LINES) part.run(`cl:s-1:m${at}:0`, BASE + at, `kestrel at ${at}`, at === 300 ? 0 : 1);
    new SearchIndex(db).indexAfter(0);
  })();
  return db;
}

const at = (matches: readonly MatchedPart[]) => matches.map((m) => m.ts! - BASE);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const inRange = (from: number | undefined, to: number | undefined) => sorted(LINES).filter((l) => (from === undefined || BASE + l >= from) && (to === undefined || BASE + l <= to));

/** Every page of a newest-first search, following the last hit's key, or where the scan stopped. */
async function allPages(reader: SearchReader, filter: SearchFilter, limit: number): Promise<number[]> {
  const out: number[] = [];
  let before: number | null = null;
  for (;;) {
    const page = await reader.newest(filter, before, limit + 1);
    const shown = page.matches.slice(0, limit);
    out.push(...at(shown));
    before = page.matches.length > limit ? shown[shown.length - 1]!.key : page.resumeBelow;
    if (before === null) return out;
  }
}

describe('a date range cuts inside a second, at the ms the contract says', () => {
  const ranges: Array<[string, number | undefined, number | undefined]> = [
    ['from .500', BASE + 500, undefined],
    ['to .500', undefined, BASE + 500],
    ['from .200 to .800 of one second', BASE + 200, BASE + 800],
    ['from .950 of one second to .200 of the next', BASE + 950, BASE + 1200],
  ];

  it.each(ranges)('%s: newest first and ranked candidates hold only lines in it', async (_name, fromMs, toMs) => {
    const reader = new SearchReader(indexed());
    const filter: SearchFilter = { expression: 'kestrel', fromMs, toMs };
    const expected = inRange(fromMs, toMs);
    expect(sorted(at((await reader.newest(filter, null, 50)).matches))).toEqual(expected);
    const candidates = await reader.candidates(filter, reader.upperKey(), 500);
    expect(sorted(at(candidates.heads))).toEqual(expected);
    expect(candidates.capped).toBe(false);
  });

  it.each(ranges)('%s: every page is full and pages of one hit go through each line once', async (_name, fromMs, toMs) => {
    const reader = new SearchReader(indexed());
    const filter: SearchFilter = { expression: 'kestrel', fromMs, toMs };
    const expected = inRange(fromMs, toMs);
    // The second at BASE's highest key is its line at .700: kept out of `to .500`, the page still holds two.
    expect((await reader.newest(filter, null, 2)).matches).toHaveLength(Math.min(2, expected.length));
    const paged = await allPages(reader, filter, 1);
    expect(sorted(paged)).toEqual(expected);
    expect(paged).toHaveLength(expected.length);
  });

  it('with the person’s own words, both hold', async () => {
    const reader = new SearchReader(indexed());
    const newest = await reader.newest({ expression: 'kestrel', fromMs: BASE + 200, toMs: BASE + 800, genuineUserTurn: true }, null, 50);
    expect(at(newest.matches)).toEqual([700]);
  });

  it('a bound on a whole second (from .000, to .999) reads no part’s time: its second is in whole', () => {
    expect(wholeSeconds({ fromMs: BASE, toMs: BASE + 999 })).toBeNull();
    expect(wholeSeconds({})).toBeNull();
    expect(wholeSeconds({ fromMs: BASE + 500 })).toEqual({ lo: ((BASE + 1000) / 1000) * 2 ** 20, hi: Number.MAX_SAFE_INTEGER });
    expect(wholeSeconds({ toMs: BASE + 500 })).toEqual({ lo: 0, hi: (BASE / 1000) * 2 ** 20 });
  });
});
