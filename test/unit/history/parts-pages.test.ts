import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import { HistoryReader, type OrderedPart, type PartKey } from '../../../core/gateway/history-read.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * A conversation is read a page at a time after the last part read (export, the viewer's later
 * pages). A page is found by seeking parts(session_id, ts) to that part, not by walking the
 * conversation from its start: the walk made each page of a 149k-part export cost up to 17 ms more
 * the further it was, all of it holding the owner's event loop.
 */
const LONG = 'long-1';
const LONG_PARTS = 200_000;
const MIXED = 'mixed-1';
const BASE = Date.UTC(2026, 0, 1);

let home: TempHome;
let db: Db;
let reader: HistoryReader;

const keyOf = (part: OrderedPart): PartKey => ({ ts: part.ts, rowid: part.rowid });

beforeAll(() => {
  home = tempHome('steward-parts-pages-');
  db = openGateway(home.dir);
  const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 'claude', 'assistant', 'text', ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < LONG_PARTS; i += 1) part.run(`cc:long:${i}`, LONG, BASE + i * 1000, `line ${i}`);
    // Parts without a time (they sort first), and parts sharing a time across page boundaries,
    // stored out of time order and between another conversation's parts.
    const stamps = [null, BASE + 5000, null, BASE + 1000, BASE + 1000, BASE + 1000, BASE + 3000, BASE + 1000, null, BASE + 3000, BASE + 5000, BASE + 5000];
    stamps.forEach((ts, i) => {
      part.run(`cc:mixed:${i}`, MIXED, ts, `mixed ${i}`);
      part.run(`cc:other:${i}`, 'other-1', ts, `other ${i}`);
    });
  })();
  reader = new HistoryReader(db);
});

afterAll(() => {
  db?.close();
  home?.cleanup();
});

/** Every part of a conversation, following each page's last part. */
function walk(sessionId: string, limit: number): OrderedPart[] {
  const out: OrderedPart[] = [];
  for (let after: PartKey | null = null; ; ) {
    const page = reader.partsAfter(sessionId, after, limit);
    out.push(...page);
    if (page.length < limit) return out;
    after = keyOf(page[page.length - 1]!);
  }
}

/** The fastest of several reads of one page, in ms: the machine's noise only ever adds. */
function fastest(read: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 9; i += 1) {
    const started = performance.now();
    read();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('a conversation, page by page', () => {
  it.each([1, 2, 3, 5])('pages of %i give every part once, untimed first, then by time and by when it was stored', (limit) => {
    const expected = db.prepare('SELECT part_id FROM parts WHERE session_id = ? ORDER BY ts, rowid').pluck().all(MIXED);
    expect(expected).toHaveLength(12);
    expect(walk(MIXED, limit).map((p) => p.partId)).toEqual(expected);
  });

  it('reads a page deep in a long conversation as fast as one near its start', () => {
    const near = reader.partsAfter(LONG, null, 200).at(-1)!;
    const deep = reader.partsAfter(LONG, { ts: BASE + (LONG_PARTS - 201) * 1000, rowid: LONG_PARTS - 200 }, 1).at(0)!;
    expect(deep.partId).toBe(`cc:long:${LONG_PARTS - 200}`);
    const page = (after: OrderedPart) => () => reader.partsAfter(LONG, keyOf(after), 100);
    expect(page(deep)().map((p) => p.partId)).toEqual(Array.from({ length: 100 }, (_, i) => `cc:long:${LONG_PARTS - 199 + i}`));
    // Walking 200k index entries to the page took about 50 times as long as the page itself (14 ms, not 0.2).
    expect(fastest(page(deep))).toBeLessThan(5 * fastest(page(near)) + 1);
  });

  it.each([1, 2, 3, 5])('pages of %i read backwards give every earlier part once, the untimed ones last', (limit) => {
    const expected = db.prepare('SELECT part_id FROM parts WHERE session_id = ? ORDER BY ts, rowid').pluck().all(MIXED) as string[];
    const last = reader.partsAfter(MIXED, null, 12).at(-1)!;
    const seen: string[] = [];
    for (let before: PartKey = keyOf(last); ; ) {
      const page = reader.partsBefore(MIXED, before, limit);
      seen.push(...page.map((p) => p.partId));
      if (page.length < limit) break;
      before = keyOf(page[page.length - 1]!);
    }
    expect(seen).toEqual(expected.slice(0, -1).reverse());
  });

  it('reads an earlier page far from the end of a long conversation as fast as one near it', () => {
    const all = (at: number) => reader.partsAfter(LONG, { ts: BASE + (at - 1) * 1000, rowid: at }, 1).at(0)!;
    const nearEnd = all(LONG_PARTS - 10);
    const nearStart = all(300);
    expect(nearStart.partId).toBe('cc:long:300');
    const page = (before: OrderedPart) => () => reader.partsBefore(LONG, keyOf(before), 100);
    expect(page(nearStart)().map((p) => p.partId)).toEqual(Array.from({ length: 100 }, (_, i) => `cc:long:${299 - i}`));
    expect(fastest(page(nearStart))).toBeLessThan(5 * fastest(page(nearEnd)) + 1);
  });
});


describe('parts without a time', () => {
  const insert = (sessionId: string, partId: string, ts: number | null) =>
    db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 'claude', 'assistant', 'text', ?, 'x')").run(partId, sessionId, ts);

  it('reads a page of a conversation of untimed lines as fast as one of timed lines', () => {
    // Placing each untimed line after the row stored before it walked back up to 512 rows per line,
    // on every page: 651 ms a page for 2,000 lines, 5 ms before.
    db.transaction(() => {
      for (let i = 0; i < 2000; i += 1) insert('untimed-1', `cc:untimed:${i}`, null);
    })();
    const middle = reader.partsAfter('untimed-1', null, 1000).at(-1)!;
    expect(middle.partId).toBe('cc:untimed:999');
    const near = reader.partsAfter(LONG, null, 200).at(-1)!;
    const timed = fastest(() => reader.partsAfter(LONG, keyOf(near), 100));
    expect(reader.partsAfter('untimed-1', keyOf(middle), 100).map((p) => p.partId)).toEqual(Array.from({ length: 100 }, (_, i) => `cc:untimed:${1000 + i}`));
    expect(fastest(() => reader.partsAfter('untimed-1', keyOf(middle), 100))).toBeLessThan(5 * timed + 1);
    expect(fastest(() => reader.partsBefore('untimed-1', keyOf(middle), 100))).toBeLessThan(5 * timed + 1);
  });

  it('keeps its place when another conversation stored between is forgotten, so a walk gives every part once', () => {
    insert('keep-1', 'cc:keep:t1', BASE + 1000);
    db.transaction(() => {
      for (let i = 0; i < 600; i += 1) insert('gone-1', `cc:gone:${i}`, BASE + i);
    })();
    insert('keep-1', 'cc:keep:u', null);
    insert('keep-1', 'cc:keep:t2', BASE + 2000);
    const seen: string[] = [];
    let after: PartKey | null = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = reader.partsAfter('keep-1', after, 1);
      if (page.length === 0) break;
      seen.push(page[0]!.partId);
      after = keyOf(page[0]!);
      // The other conversation is forgotten between the first and the second page.
      if (pages === 0) db.prepare("DELETE FROM parts WHERE session_id = 'gone-1'").run();
    }
    expect(seen.toSorted()).toEqual(['cc:keep:t1', 'cc:keep:t2', 'cc:keep:u']);
  });
});
