import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { KEY_SHIFT, registerSearchFunctions, SearchIndex, searchText, searchTextV4 } from '../../../core/gateway/search-index.js';
import { SearchReader, SearchTooBroadError } from '../../../core/gateway/search-read.js';
import { migrate } from '../../../core/store/index.js';

describe('searchText adds the pieces unicode61 cannot split', () => {
  it.each([
    ['call parseConfig now', 'call parseConfig now\nparse Config'],
    ['HTTPServer and TS2345', 'HTTPServer and TS2345\nHTTP Server TS 2345'],
    ['plain words, snake_case and src/app.ts', 'plain words, snake_case and src/app.ts'],
    ['parseConfig twice: parseConfig', 'parseConfig twice: parseConfig\nparse Config'],
  ])('%s', (text, indexed) => {
    expect(searchText(text)).toBe(indexed);
  });
});

describe('a tool call is indexed with its tool’s name (v4)', () => {
  it.each([
    ['{"command":"ls"}', 'Bash', '{"command":"ls"}\nBash'],
    ['*** Begin Patch', 'apply_patch', '*** Begin Patch\napply_patch'],
    ['{"todos":[]}', 'TodoWrite', '{"todos":[]}\nTodoWrite\nTodo Write'],
    [null, 'read_file', 'read_file'],
    ['{"command":"ls"}', null, '{"command":"ls"}'],
  ])('%s by %s', (text, name, indexed) => {
    expect(searchTextV4(text, name)).toBe(indexed);
  });

  it('the walk indexes again a call that names its tool, at any older version; no other part for it', () => {
    const db = new Database(':memory:');
    registerSearchFunctions(db);
    const stale = (version: number, text: string | null, meta: string | null) => db.prepare('SELECT steward_search_text_stale(?, ?, ?)').pluck().get(version, text, meta);
    const named = JSON.stringify({ name: 'apply_patch', toolUseId: 'c1' });
    expect([stale(3, '*** Begin Patch', named), stale(2, null, named), stale(1, '{}', named), stale(4, '*** Begin Patch', named)]).toEqual([1, 1, 1, 0]);
    expect([stale(3, '*** Begin Patch', null), stale(3, '{}', '{"toolUseId":"c1"}'), stale(3, '{}', 'not json "name"')]).toEqual([0, 0, 0]);
    // What it is indexed with: the name only at v4, so a part indexed before is taken out with the tokens it went in with.
    const text = (version: number) => db.prepare('SELECT steward_search_tool_text(?, ?, ?)').pluck().get(version, '{"command":"ls"}', JSON.stringify({ name: 'Bash' }));
    expect([text(3), text(4)]).toEqual(['{"command":"ls"}', '{"command":"ls"}\nBash']);
    db.close();
  });
});

describe('index keys', () => {
  it('order by line time and never collide: two parts of one second whose rowids share the low bits get distinct keys', async () => {
    const db = new Database(':memory:');
    migrate(db, GATEWAY_MIGRATIONS, 'gateway');
    const index = new SearchIndex(db);
    const insert = db.prepare("INSERT INTO parts (rowid, part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 's', 'claude', 'user', 'text', ?, ?)");
    const ts = Date.UTC(2026, 0, 1, 12, 0, 0, 250);
    insert.run(7, 'cc:a:0', ts, 'orchard one');
    insert.run(7 + KEY_SHIFT, 'cc:b:0', ts + 500, 'orchard two');
    insert.run(8 + KEY_SHIFT, 'cc:c:0', ts - 60_000, 'orchard older');
    expect(index.indexAfter(0)).toBe(3);
    const keys = db.prepare('SELECT fts_rowid FROM search_map ORDER BY part_rowid').pluck().all() as number[];
    expect(new Set(keys).size).toBe(3);
    expect(keys[0]).toBe((ts / 1000 - 0.25) * KEY_SHIFT + 7);
    expect(keys[1]).toBe(keys[0]! + 1);
    const newest = (await new SearchReader(db).newest({ expression: 'orchard' }, null, 10)).matches.map((m) => m.partId);
    expect(newest.slice(2)).toEqual(['cc:c:0']);
    db.close();
  });
});

describe('prefix terms are weighed before the index merges them', () => {
  /** Parts whose words all start `orch` (40,000 distinct ones: `orch0`, `orch1`, …), and one about an orchard. */
  function indexed(file = ':memory:'): Database.Database {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    migrate(db, GATEWAY_MIGRATIONS, 'gateway');
    const insert = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, 's', 'claude', 'user', 'text', ?, ?)");
    const words = Array.from({ length: 40_000 }, (_, i) => `orch${i}`);
    db.transaction(() => {
      for (let i = 0; i < 200; i += 1) insert.run(`cc:${i}:0`, Date.UTC(2026, 0, 1) + i * 1000, words.slice(i * 200, i * 200 + 200).join(' '));
      insert.run('cc:apple:0', Date.UTC(2026, 0, 2), 'The Orchärd needs pruning');
      new SearchIndex(db).indexAfter(0);
    })();
    return db;
  }

  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'steward-prefix-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts the leaf pages a prefix spans: many for a broad one, few for a narrow one, by the tokenizer’s folding', () => {
    const db = indexed();
    const reader = new SearchReader(db);
    const broad = reader.prefixPages('orch');
    expect(broad).toBeGreaterThan(20);
    expect(reader.prefixPages('ORCH')).toBe(broad);
    // `Orchä` folds to `orcha`: only the orchard starts so. A narrow stem counts about the one page
    // around it in each of the index's segments.
    expect(reader.prefixPages('Orchä')).toBeLessThan(broad / 10);
    // orch39, orch390…orch399, orch3900…: 1,111 of the 40,000 words.
    expect(reader.prefixPages('orch39')).toBeLessThan(broad / 4);
    expect(reader.prefixPages('orch39')).toBeGreaterThan(reader.prefixPages('orcha'));
    expect(reader.prefixPages('prun')).toBeLessThan(broad / 10);
    expect(reader.prefixPages('---')).toBe(0);
    db.close();
  });

  it('matches a prefix beyond the budget off the owner’s thread, with the same parts as in-thread, and a narrow one in-thread', async () => {
    const db = indexed(join(dir, 'gateway.db'));
    const offThread = new SearchReader(db, { prefixPageBudget: 10 });
    const inThread = new SearchReader(db);
    try {
      const filter = { expression: 'orch*', prefixes: ['orch'] };
      // A match run in-thread settles before the event loop turns; one on the worker cannot.
      let turned = false;
      setImmediate(() => (turned = true));
      const far = (await offThread.newest(filter, null, 50)).matches;
      expect(turned).toBe(true);
      expect(offThread.offThreadMatches).toBe(1);
      expect(far.map((m) => m.partId)).toEqual((await inThread.newest(filter, null, 50)).matches.map((m) => m.partId));
      expect(far).toHaveLength(50);
      const candidates = await offThread.candidates(filter, offThread.upperKey(), 500);
      expect(candidates.heads).toHaveLength(201);
      expect(offThread.offThreadMatches).toBe(2);
      turned = false;
      setImmediate(() => (turned = true));
      expect((await offThread.newest({ expression: 'orcha*', prefixes: ['orcha'] }, null, 10)).matches.map((m) => m.partId)).toEqual(['cc:apple:0']);
      expect(turned).toBe(false);
      expect(offThread.offThreadMatches).toBe(2);
      // Prefixes each within the budget, together beyond it, are weighed together.
      const parts = ['orch1', 'orch2', 'orch3'].map((p) => offThread.prefixPages(p));
      expect(parts[0]! + parts[1]! + parts[2]!).toBeGreaterThan(Math.max(...parts));
      const several = new SearchReader(db, { prefixPageBudget: Math.max(...parts) });
      await several.newest({ expression: 'orch1* OR orch2* OR orch3*', prefixes: ['orch1', 'orch2', 'orch3'] }, null, 10);
      expect(several.offThreadMatches).toBe(1);
      await several.close();
      expect(inThread.offThreadMatches).toBe(0);
    } finally {
      await offThread.close();
      db.close();
    }
  });

  it('leaves out parts above the rowid a paged search began at, off the owner’s thread as in it', async () => {
    const db = indexed(join(dir, 'gateway.db'));
    const offThread = new SearchReader(db, { prefixPageBudget: 10 });
    const inThread = new SearchReader(db);
    try {
      // cc:0…cc:199 are rowids 1…200, the orchard 201: the newest hundred, and the orchard, came later.
      const filter = { expression: 'orch*', prefixes: ['orch'], partRowid: 100 };
      const far = (await offThread.newest(filter, null, 10)).matches.map((m) => m.partId);
      expect(offThread.offThreadMatches).toBe(1);
      expect(far).toEqual(Array.from({ length: 10 }, (_, i) => `cc:${99 - i}:0`));
      expect((await inThread.newest(filter, null, 10)).matches.map((m) => m.partId)).toEqual(far);
      expect(inThread.lastPartRowid()).toBe(201);
    } finally {
      await offThread.close();
      db.close();
    }
  });

  it('refuses as too broad a match that outruns its time; narrower searches go on', async () => {
    const db = indexed(join(dir, 'gateway.db'));
    // No worker starts and answers within a millisecond.
    const hurried = new SearchReader(db, { prefixPageBudget: 10, matchTimeoutMs: 1 });
    const patient = new SearchReader(db, { prefixPageBudget: 10 });
    try {
      const filter = { expression: 'orch*', prefixes: ['orch'] };
      const refused = await hurried.newest(filter, null, 10).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SearchTooBroadError);
      expect((refused as SearchTooBroadError).prefix).toBe('orch');
      await expect(hurried.newest(filter, null, 10)).rejects.toThrow(SearchTooBroadError);
      expect((await hurried.newest({ expression: 'orcha*', prefixes: ['orcha'] }, null, 10)).matches.map((m) => m.partId)).toEqual(['cc:apple:0']);
      expect((await patient.newest(filter, null, 10)).matches).toHaveLength(10);
    } finally {
      await hurried.close();
      await patient.close();
      db.close();
    }
  });
});

describe('the person’s own words are read from the matched parts’ flag, within a scan budget', () => {
  /** 300 user texts about the orchard, newest last; every 50th is the person's (rowid 50, 100, …), the rest harness text. */
  function indexed(): Database.Database {
    const db = new Database(':memory:');
    migrate(db, GATEWAY_MIGRATIONS, 'gateway');
    const insert = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, genuine_user_turn) VALUES (?, 's', 'claude', ?, 'text', ?, ?, ?)");
    db.transaction(() => {
      for (let i = 1; i <= 300; i += 1) insert.run(`cc:${i}:0`, 'user', Date.UTC(2026, 0, 1) + i * 1000, i % 50 === 0 ? `orchard request ${i}` : `<command-name>/orchard</command-name> ${i}`, i % 50 === 0 ? 1 : 0);
      // An assistant's text about the orchard is never the person's, flag or not.
      insert.run('cc:assistant:0', 'assistant', Date.UTC(2026, 0, 2), 'orchard reply', 1);
      new SearchIndex(db).indexAfter(0);
    })();
    return db;
  }
  const genuine = ['cc:300:0', 'cc:250:0', 'cc:200:0', 'cc:150:0', 'cc:100:0', 'cc:50:0'];

  /** Every page of a newest-first search, following the last hit's key, or where the scan stopped. */
  async function pages(reader: SearchReader, limit: number): Promise<string[][]> {
    const out: string[][] = [];
    let before: number | null = null;
    for (;;) {
      const page = await reader.newest({ expression: 'orchard', genuineUserTurn: true }, before, limit + 1);
      const shown = page.matches.slice(0, limit);
      out.push(shown.map((m) => m.partId));
      before = page.matches.length > limit ? shown[shown.length - 1]!.key : page.resumeBelow;
      if (before === null) return out;
    }
  }

  it('finds only the flagged user texts, newest first, within the budget in one page', async () => {
    const db = indexed();
    const reader = new SearchReader(db);
    const page = await reader.newest({ expression: 'orchard', genuineUserTurn: true }, null, 10);
    expect(page).toEqual({ matches: genuine.map((partId) => expect.objectContaining({ partId, role: 'user', kind: 'text' })), resumeBelow: null });
    expect(await pages(reader, 2)).toEqual([genuine.slice(0, 2), genuine.slice(2, 4), genuine.slice(4)]);
    const candidates = await reader.candidates({ expression: 'orchard', genuineUserTurn: true }, reader.upperKey(), 500);
    expect(candidates.heads.map((m) => m.partId)).toEqual(genuine);
    expect(candidates.capped).toBe(false);
    db.close();
  });

  it('stops at its budget with a short page that goes on below what it looked at: every page together holds each match once', async () => {
    const db = indexed();
    // 120 matches a page: the person's words are 2 or 3 of them.
    const reader = new SearchReader(db, { genuineScanBudget: 120 });
    const first = await reader.newest({ expression: 'orchard', genuineUserTurn: true }, null, 11);
    expect(first.matches.map((m) => m.partId)).toEqual(genuine.slice(0, 3));
    expect(first.resumeBelow).not.toBeNull();
    const all = await pages(reader, 10);
    expect(all.length).toBeGreaterThan(1);
    expect(all.flat()).toEqual(genuine);
    // Relevance ranks what the budget reached and says there may be more.
    const candidates = await reader.candidates({ expression: 'orchard', genuineUserTurn: true }, reader.upperKey(), 500);
    expect(candidates.heads.map((m) => m.partId)).toEqual(genuine.slice(0, 3));
    expect(candidates.capped).toBe(true);
    db.close();
  });
});
