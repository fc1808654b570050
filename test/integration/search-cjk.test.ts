import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params } from '../../core/index.js';
import { openGateway, SearchIndex } from '../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../core/gateway/migrations.js';
import { openDatabase, type Db } from '../../core/store/index.js';
import { sessionsOf } from '../support/history.js';
import { tempHome, type TempHome } from '../support/home.js';
import { expectIndexExact, indexAsBefore, retagWalk } from '../support/search-index.js';
import { claudeLine, writeJsonl } from '../support/transcripts.js';

/**
 * Chinese and Japanese runs, which unicode61 keeps whole from punctuation to punctuation, are found by
 * any stretch of them (the index holds their characters one by one beside the text: searchTextV2),
 * and a snippet marks exactly the stretch typed.
 */

const JA = 'ja-session';
const ZH = 'zh-session';
const EN = 'en-session';
const base = Date.UTC(2026, 2, 1, 9);

/** Three conversations: Japanese (with a Latin word and an ideograph beyond the BMP inside its runs), Chinese, English. */
function writeConversations(root: string): void {
  const file = (id: string) => join(root, 'projects', '-work-cjk', `${id}.jsonl`);
  const line = (sessionId: string, i: number, type: 'user' | 'assistant', text: string) => claudeLine({ sessionId, type, text, cwd: '/work/cjk', ts: new Date(base + i * 60_000) });
  writeJsonl(file(JA), [line(JA, 0, 'user', '日本語のテストです。全文検索を試します。'), line(JA, 1, 'assistant', 'React入門を読みました。𠮷野家の牛丼も食べた。')]);
  writeJsonl(file(ZH), [line(ZH, 2, 'user', '我们今天讨论全文搜索的实现。东京。大阪')]);
  writeJsonl(file(EN), [line(EN, 3, 'user', 'apple crumble and parseConfig for the orchard')]);
}

describe('searching Chinese and Japanese text', () => {
  let home: TempHome;
  let core: Core;
  beforeAll(async () => {
    home = tempHome('steward-search-cjk-');
    writeConversations(join(home.dir, 'roots'));
    home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'roots');
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Backfill.Run', { all: true });
  });
  afterAll(async () => {
    await core?.shutdown();
    home?.cleanup();
  });

  const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);
  /** What each hit's highlights cover, as the contract's UTF-16 ranges of its snippet. */
  const marked = async (query: string) => (await search({ query })).hits.map((h) => h.highlights.map(([a, b]) => h.snippet.slice(a, b)));

  it.each([
    { name: 'a stretch inside a Japanese run', query: 'テスト', expected: [JA] },
    { name: 'the start of a Japanese run', query: '日本語', expected: [JA] },
    { name: 'a Japanese run whole, as before, and a stretch across its kana and kanji', query: '日本語のテストです のテ', expected: [JA] },
    { name: 'a stretch inside a Chinese run', query: '搜索', expected: [ZH] },
    { name: 'a stretch both languages write', query: '全文', expected: [JA, ZH] },
    { name: 'a mixed term, Latin and Japanese in one run', query: 'React入門', expected: [JA] },
    { name: 'the Japanese of a mixed run', query: '入門', expected: [JA] },
    { name: 'the Latin word of a mixed run', query: 'React', expected: [JA] },
    { name: 'a phrase of two Japanese words', query: '"日本語 テスト"', expected: [JA] },
    { name: 'Chinese beside an English word', query: '搜索 实现', expected: [ZH] },
  ])('$name: $query', async ({ query, expected }) => {
    const result = await search({ query });
    expect(sessionsOf(result)).toEqual([...expected].sort());
    expect(result.fallback).toBeUndefined();
  });

  it('a stretch is never found across punctuation: 东京。大阪 holds 京 and 大 but no 京大', async () => {
    expect((await search({ query: '京' })).hits.map((h) => h.sessionId)).toEqual([ZH]);
    expect((await search({ query: '大' })).hits.map((h) => h.sessionId)).toEqual([ZH]);
    expect((await search({ query: '京大' })).hits).toEqual([]);
  });

  it('highlights cover exactly the stretch typed, as UTF-16 ranges of the snippet', async () => {
    expect(await marked('テスト')).toEqual([['テスト']]);
    expect(await marked('搜索')).toEqual([['搜索']]);
    expect(await marked('React入門')).toEqual([['React入門']]);
    expect(await marked('React')).toEqual([['React']]);
    expect(await marked('野家')).toEqual([['野家']]);
    // 𠮷 is two UTF-16 code units: the range holds both.
    const [hit] = (await search({ query: '𠮷野' })).hits;
    const range = hit!.highlights[0]!;
    expect(hit!.snippet.slice(...range)).toBe('𠮷野');
    expect(range[1] - range[0]).toBe(3);
    // English is found and marked as before: whole words, an identifier by its pieces.
    expect(sessionsOf(await search({ query: 'apple' }))).toEqual([EN]);
    expect(await marked('crumble')).toEqual([['crumble']]);
    expect(await marked('Config')).toEqual([['Config']]);
    expect((await search({ query: 'orch' })).hits).toEqual([]);
  });

  it('forgetting a conversation leaves the index exact: its stretches are found no more', async () => {
    expect(sessionsOf(await search({ query: '全文' }))).toEqual([JA, ZH].sort());
    await core.call('Forget.Session', { sessionId: JA });
    expect(sessionsOf(await search({ query: '全文' }))).toEqual([ZH]);
    expect((await search({ query: 'テスト' })).hits).toEqual([]);
    expectIndexExact(core.gateway);
  });
});

const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;

/**
 * The index's bytes once merged to one segment: equal when the same text went in as the same tokens.
 * Less its structure record (id 10), which counts the writes that built it.
 */
function mergedIndex(db: Db): { blocks: Buffer[]; bytes: number } {
  db.prepare("INSERT INTO search_fts (search_fts) VALUES ('optimize')").run();
  const blocks = db.prepare('SELECT block FROM search_fts_data WHERE id <> 10 ORDER BY id').pluck().all() as Buffer[];
  return { blocks, bytes: blocks.reduce((sum, b) => sum + b.length, 0) };
}

describe('a store indexed before Chinese and Japanese were found by their stretches', () => {
  let home: TempHome | undefined;
  afterEach(() => {
    home?.cleanup();
    home = undefined;
  });

  /** A gateway.db as schema 12 left it: parts indexed through steward_search_text_v1, counted. */
  function oldStore(dir: string, texts: readonly string[]): void {
    const db = openDatabase(join(dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 12) });
    const session = db.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', NULL, '/work/old', ?, ?, ?)");
    const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, ?, 'claude', ?, 'text', ?, ?, NULL)");
    db.transaction(() => {
      for (let s = 0; s < 4; s += 1) session.run(`old-${s}`, base, base + texts.length * 1000, base);
      texts.forEach((text, i) => part.run(`cc:old-${i}:0`, `old-${i % 4}`, i % 2 === 0 ? 'user' : 'assistant', base + i * 1000, text));
    })();
    indexAsBefore(db);
    db.close();
  }

  const mixed = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? `line ${i} 日本語のテスト第${i}回` : `line ${i} about orchards and parseConfig`));

  it('opening drops nothing: search and the counts stay whole, and the walk indexes only the Chinese and Japanese parts again', async () => {
    home = tempHome('steward-search-cjk-migrate-');
    oldStore(home.dir, mixed);
    const before = openDatabase(join(home.dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 12) });
    const stats = before.prepare('SELECT session_id, parts, messages, tool_calls FROM session_stats ORDER BY session_id').all();
    before.close();
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    try {
      // Every part is still indexed and counted; only a stretch of a run is not found yet.
      expect(count(core.gateway, 'SELECT COUNT(*) FROM search_map')).toBe(mixed.length);
      const early = await core.call('Search.Query', { query: 'orchards', limit: 100 });
      // The walk that reads every part again says how far it has come, and that matches may be missing meanwhile (テスト's are).
      expect([early.hits.length, early.indexing]).toEqual([100, { phase: 'retag', indexedParts: 0, totalParts: mixed.length }]);
      expect((await core.call('Search.Query', { query: 'テスト' })).hits).toEqual([]);
      // A whole run is found before the walk too: the query asks for the token whole beside its characters.
      expect((await core.call('Search.Query', { query: '日本語のテスト第10回' })).hits.map((h) => h.partId)).toEqual(['cc:old-10:0']);
      expect(core.gateway.prepare('SELECT session_id, parts, messages, tool_calls FROM session_stats ORDER BY session_id').all()).toEqual(stats);

      await retagWalk(core.gateway);
      // Only the Japanese parts were taken out and put back (at today's version); the English ones keep the version they were indexed with.
      expect(core.gateway.prepare('SELECT text_version, COUNT(*) FROM search_map GROUP BY text_version ORDER BY text_version').raw().all()).toEqual([
        [1, 100],
        [4, 100],
      ]);
      const found = await core.call('Search.Query', { query: 'テスト', limit: 10 });
      expect(found.hits).toHaveLength(10);
      expect((await core.call('Search.Query', { query: '第10回' })).hits.map((h) => h.partId)).toEqual(['cc:old-10:0']);
      const matches = (expression: string) => count(core.gateway, `SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH '${expression}'`);
      expect([matches('"テ ス ト"'), matches('orchards'), matches('"parse Config"'), matches('line')]).toEqual([100, 100, 100, 200]);
      expectIndexExact(core.gateway);
      expect(core.gateway.prepare('SELECT session_id, parts, messages, tool_calls FROM session_stats ORDER BY session_id').all()).toEqual(stats);
    } finally {
      await core.shutdown();
    }
  });

  it('a part forgotten before the walk reached it leaves the index exact (its delete hands back the tokens it was indexed with)', async () => {
    home = tempHome('steward-search-cjk-forget-');
    oldStore(home.dir, mixed);
    const db = openGateway(home.dir);
    try {
      new SearchIndex(db).removeParts([1, 2, 3]);
      db.prepare('DELETE FROM parts WHERE rowid IN (1, 2, 3)').run();
      db.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run();
      const index = new SearchIndex(db);
      while (index.retagStep(16));
      expectIndexExact(db);
    } finally {
      db.close();
    }
  });

  it('the upgrade leaves an English index as it was, byte for byte', () => {
    home = tempHome('steward-search-cjk-size-');
    const english = Array.from({ length: 300 }, (_, i) => `line ${i} about orchards, parseConfig and ERR_MODULE_NOT_FOUND in src/app.ts`);
    oldStore(home.dir, english);
    const old = openDatabase(join(home.dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 12) });
    const v1 = mergedIndex(old);
    old.close();
    const db = openGateway(home.dir);
    try {
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_source'").pluck().get()).toContain('steward_search_text(m.text_version, p.text)');
      const index = new SearchIndex(db);
      while (index.retagStep(64));
      const v2 = mergedIndex(db);
      expect(db.prepare('SELECT DISTINCT text_version FROM search_map').pluck().all()).toEqual([1]);
      expect(v2.bytes).toBe(v1.bytes);
      expect(v2.blocks).toEqual(v1.blocks);
      expectIndexExact(db);
    } finally {
      db.close();
    }
  });
});
