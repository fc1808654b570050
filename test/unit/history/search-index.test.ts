import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { KEY_SHIFT, SearchIndex, searchText } from '../../../core/gateway/search-index.js';
import { SearchReader } from '../../../core/gateway/search-read.js';
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

describe('index keys', () => {
  it('order by line time and never collide: two parts of one second whose rowids share the low bits get distinct keys', () => {
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
    const newest = new SearchReader(db).newest({ expression: 'orchard' }, null, 10).map((m) => m.partId);
    expect(newest.slice(2)).toEqual(['cc:c:0']);
    db.close();
  });
});
