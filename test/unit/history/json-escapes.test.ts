import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { indexReading, looksLikeJson } from '../../../core/gateway/index.js';
import { registerSearchFunctions } from '../../../core/gateway/search-index.js';
import { snippetOf, termPattern, type Snippet } from '../../../core/history/snippet.js';

/**
 * In a text that is JSON (a tool's input, Codex's output wrapper) the index reads `\n`, `\r`, `\t`,
 * `\b` and `\f` as the breaks they stand for (searchTextV3), and a snippet marks words as the index
 * read them; any other text keeps its backslashes as written.
 */

const marked = (s: Snippet) => s.highlights.map(([a, b]) => s.text.slice(a, b));
const snippet = (text: string, terms: string[]) => snippetOf(text, termPattern(terms));

describe('which texts are JSON', () => {
  it.each([
    { text: '{"command":"make"}', json: true },
    { text: '  \n{ "a": 1 }', json: true },
    { text: '{}', json: true },
    { text: '[{"type":"text"}]', json: true },
    { text: '[["a"]]', json: true },
    { text: '["a","b"]', json: true },
    // Cut short by the cap on stored text: still JSON by its start.
    { text: '{"content":"line one\\nline tw', json: true },
    { text: 'C:\\new folder', json: false },
    { text: '{C:\\new folder}', json: false },
    { text: '{ path: "C:\\new" }', json: false },
    { text: '[note] C:\\new', json: false },
    { text: '[1, 2]', json: false },
    { text: '', json: false },
  ])('$text: $json', ({ text, json }) => {
    expect(looksLikeJson(text)).toBe(json);
  });
});

describe('the text as the index reads it', () => {
  it('each escape a letter spells is two spaces in JSON, at the same offsets; others stay', () => {
    const text = '{"a":"x;\\nexport\\tb\\r\\nc\\bd\\fe \\"q\\" \\u00e9 \\/"}';
    const read = indexReading(text);
    expect(read).toBe('{"a":"x;  export  b    c  d  e \\"q\\" \\u00e9 \\/"}');
    expect(read).toHaveLength(text.length);
  });

  it('escapes are read in pairs from the first backslash of a run', () => {
    // `\\n`: a backslash, then the word `notes`; `\\\n`: a backslash, then a line break.
    expect(indexReading('{"c":"C:\\\\notes\\\\\\ninstall"}')).toBe('{"c":"C:\\\\notes\\\\  install"}');
    expect(indexReading('{"c":"\\\\\\\\n"}')).toBe('{"c":"\\\\\\\\n"}');
    // A lone backslash at the end escapes nothing.
    expect(indexReading('{"c":"a\\')).toBe('{"c":"a\\');
  });

  it('a text that is not JSON, or is said not to be, is read as it is', () => {
    expect(indexReading('Save it under C:\\new folder')).toBe('Save it under C:\\new folder');
    expect(indexReading('"a\\nb"', false)).toBe('"a\\nb"');
    // A piece of a JSON text (an excerpt) says so: it no longer begins as JSON.
    expect(indexReading('line\\nexport', true)).toBe('line  export');
  });
});

describe('which parts the walk indexes again', () => {
  const db = new Database(':memory:');
  registerSearchFunctions(db);
  const stale = (version: number, text: string) => db.prepare('SELECT steward_search_text_stale(?, ?, NULL)').pluck().get(version, text);

  it.each([
    { version: 2, text: '{"content":"a;\\nexport b"}', stale: 1 },
    { version: 1, text: '{"content":"a;\\nexport b"}', stale: 1 },
    { version: 3, text: '{"content":"a;\\nexport b"}', stale: 0 },
    { version: 2, text: '{"content":"C:\\\\notes"}', stale: 0 },
    { version: 2, text: '{"content":"one line"}', stale: 0 },
    { version: 2, text: 'Save it under C:\\new folder', stale: 0 },
    { version: 1, text: '日本語のテスト', stale: 1 },
    { version: 2, text: '日本語のテスト', stale: 0 },
  ])('indexed at v$version: $text → $stale', ({ version, text, stale: expected }) => {
    expect(stale(version, text)).toBe(expected);
  });
});

describe('a snippet marks what the index found', () => {
  it('in JSON, the word after an escaped line break; elsewhere the letters after a backslash', () => {
    expect(marked(snippet('{"content":"import x;\\nexport function f() {}"}', ['export']))).toEqual(['export']);
    expect(marked(snippet('{"content":"C:\\\\notes"}', ['notes']))).toEqual(['notes']);
    expect(marked(snippet('Save it under C:\\new folder', ['new']))).toEqual(['new']);
    expect(marked(snippet('{"content":"a\\nnew b"}', ['new']))).toEqual(['new']);
    expect(marked(snippet('{"content":"a\\nnew b"}', ['nnew']))).toEqual([]);
  });
});
