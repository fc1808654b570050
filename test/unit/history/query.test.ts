import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { searchText } from '../../../core/gateway/search-index.js';
import { asPhrase, prepareQuery, withoutDangling } from '../../../core/history/query.js';
import { snippetOf, termPattern } from '../../../core/history/snippet.js';

describe('prepareQuery keeps search syntax and quotes what FTS5 would refuse', () => {
  it.each([
    ['apple crumble', 'apple crumble', ['apple', 'crumble'], []],
    ['"first frost" OR saplings', '"first frost" OR saplings', ['first frost', 'saplings'], []],
    ['prun* NOT crumble', 'prun* NOT crumble', ['prun', 'crumble'], ['prun']],
    ['^how apple', '^how apple', ['how', 'apple'], []],
    ['src/config/load_settings.ts', '"src/config/load_settings.ts"', ['src/config/load_settings.ts'], []],
    ['foo-bar E0308: error', '"foo-bar" "E0308:" error', ['foo-bar', 'E0308:', 'error'], []],
    ['tool_input:npm test', 'tool_input : npm test', ['npm', 'test'], []],
    ['{body thinking}: frost', '{body thinking} : frost', ['frost'], []],
    ['scope:zpclaude', '"scope:zpclaude"', ['scope:zpclaude'], []],
    ['NEAR(apple crumble, 3)', 'NEAR( apple crumble , 3 )', ['apple', 'crumble'], []],
    ['(apple OR pear) AND tree', '( apple OR pear ) AND tree', ['apple', 'pear', 'tree'], []],
    ['error, warning', '"error," warning', ['error,', 'warning'], []],
    ['say "he said ""hi"""', 'say "he said ""hi"""', ['say', 'he said "hi"'], []],
    ['café', 'café', ['café'], []],
    ['"first fr"* tool_input:np*', '"first fr"* tool_input : np*', ['first fr', 'np'], ['first fr', 'np']],
    // An identifier is also looked for by its pieces, as the index holds them beside the text.
    ['DeliveryRetry', '(DeliveryRetry OR "Delivery Retry")', ['DeliveryRetry'], []],
    // Its pieces' phrase is a prefix too (of its last piece), weighed like any other.
    ['tool_input:parseConf*', 'tool_input : (parseConf* OR "parse Conf"*)', ['parseConf'], ['parseConf', 'parse Conf']],
    ['configV*', '(configV* OR "config V"*)', ['configV'], ['configV', 'config V']],
    ['^parseConfig NEAR(parseConfig apple)', '^parseConfig NEAR( parseConfig apple )', ['parseConfig', 'parseConfig', 'apple'], []],
  ])('%s → %s', (raw, expression, terms, prefixes) => {
    // Relevance counts only what the positive expression looks for: a word after NOT never raises a hit.
    const positiveTerms = raw.includes(' NOT crumble') ? terms.filter((t) => t !== 'crumble') : terms;
    expect(prepareQuery(raw)).toEqual({ expression, terms, prefixes, positive: expression.replace(' NOT crumble', ''), positiveTerms });
  });

  // What a redacted search asks the index (see recheck.ts): the expression less what NOT leaves out, by FTS5's precedence.
  it.each([
    ['a NOT b', 'a'],
    ['a NOT b c', 'a'],
    ['a NOT b AND c', 'a AND c'],
    ['a NOT (b OR c) d', 'a AND d'],
    ['(a NOT b) OR c', '( a ) OR c'],
    ['a NOT b NOT c', 'a'],
    ['a NOT NEAR(b c) OR d', 'a OR d'],
    ['tool_input:npm NOT tool_output:err', 'tool_input : npm'],
    ['NOT a', 'NOT a'],
    ['a NOT', 'a NOT'],
    ['a OR NOT b', 'a OR NOT b'],
  ])('%s asks the index for %s', (raw, positive) => {
    expect(prepareQuery(raw)?.positive).toBe(positive);
  });

  it('the expression without its NOTs matches every part the expression matches', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(body)');
    const words = ['a', 'b', 'c', 'd'];
    // Every set of the four words, in order, as a part.
    for (let set = 1; set < 16; set += 1) db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)').run(set, words.filter((_, i) => set & (1 << i)).join(' '));
    const match = (expression: string) => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').pluck().all(expression) as number[];
    for (const raw of ['a NOT b', 'a NOT b c', 'a NOT b AND c', 'a NOT (b OR c) d', '(a NOT b) OR c', 'a NOT b NOT c', 'a b NOT c d', 'a NOT b OR c NOT d']) {
      const prepared = prepareQuery(raw)!;
      const all = match(prepared.positive);
      expect(prepared.positive, raw).not.toContain('NOT');
      for (const row of match(prepared.expression)) expect(all, raw).toContain(row);
      expect(all.length, raw).toBeGreaterThan(match(prepared.expression).length);
    }
    db.close();
  });

  it.each(['"unterminated', '(open', 'close)', 'a) OR (b', '   '])('%s cannot be repaired locally', (raw) => {
    expect(prepareQuery(raw)).toBeNull();
  });

  // FTS5 joins phrases side by side, but refuses a (group) beside another operand: an AND goes there, and only there.
  it.each([
    ['fix TS2345', 'fix AND (TS2345 OR "TS 2345")'],
    ['cat (mat OR dog)', 'cat AND ( mat OR dog )'],
    ['(mat OR dog) cat', '( mat OR dog ) AND cat'],
    ['parseConfig (a) b', '(parseConfig OR "parse Config") AND ( a ) AND b'],
    ['npm tool_input:parseConf*', 'npm AND tool_input : (parseConf* OR "parse Conf"*)'],
    ['(a) tool_input:(b)', '( a ) AND tool_input : ( b )'],
    ['npm tool_input:test', 'npm tool_input : test'],
    ['NEAR(a b) c', 'NEAR( a b ) c'],
    ['a NOT b c', 'a NOT b c'],
    ['a OR (b)', 'a OR ( b )'],
  ])('%s → %s', (raw, expression) => {
    expect(prepareQuery(raw)?.expression).toBe(expression);
  });

  it('a word beside a group or an identifier is searched as both, not refused', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(body, tool_input)');
    const insert = db.prepare('INSERT INTO t (rowid, body, tool_input) VALUES (?, ?, ?)');
    insert.run(1, searchText('fix TS2345 in the parseConfig step'), null);
    insert.run(2, searchText('the cat sat on the mat'), null);
    insert.run(3, 'npm', searchText('npm run parseConfig'));
    const match = (raw: string) => (db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid').pluck().all(prepareQuery(raw)!.expression) as number[]);
    expect(match('fix TS2345')).toEqual([1]);
    expect(match('parseConfig step')).toEqual([1]);
    expect(match('cat (mat OR dog)')).toEqual([2]);
    expect(match('(dog OR mat) cat')).toEqual([2]);
    expect(match('npm tool_input:parseConf*')).toEqual([3]);
    db.close();
  });

  // A pasted command's flags are words to find, not words to leave out: `-word` is not an exclusion.
  it('a command with flags finds the parts that hold it', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(body)');
    const insert = db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)');
    ['rm -rf node_modules', 'ls -la src', 'rm node_modules/x', 'git commit -m fix'].forEach((text, i) => insert.run(i + 1, text));
    const match = (raw: string) => db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid').pluck().all(prepareQuery(raw)!.expression);
    expect(match('rm -rf node_modules')).toEqual([1]);
    expect(match('ls -la')).toEqual([2]);
    expect(match('git commit -m fix')).toEqual([4]);
    db.close();
  });

  it('every prepared expression is accepted by FTS5 or refused as a syntax error, never anything else', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, thinking, tool_input, tool_output, scope)");
    for (const raw of ['src/a.ts', 'foo-bar', 'E0308:', 'a,b', 'x:y', '-npm', 'tool_input:', 'NEAR(a b, 2)', 'a*', '"a b"*', '^a', "don't"]) {
      const prepared = prepareQuery(raw);
      if (prepared === null) continue;
      try {
        db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(`{body thinking tool_input tool_output} : (${prepared.expression})`);
      } catch (error) {
        expect((error as { code?: string }).code, raw).toBe('SQLITE_ERROR');
      }
    }
    db.close();
  });

  it('finds an identifier inside a longer one by its pieces, as searchText indexed them', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(body)');
    db.prepare('INSERT INTO t (body) VALUES (?)').run(searchText('retry: handleWebhookDeliveryRetryWith(event) failed'));
    const count = (raw: string) => (db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(prepareQuery(raw)!.expression) as unknown[]).length;
    expect(count('DeliveryRetry')).toBe(1);
    expect(count('handleWebhookDeliveryRetryWith')).toBe(1);
    expect(count('WebhookRetry')).toBe(0);
    db.close();
  });

  it('the phrase fallback quotes the whole input', () => {
    expect(asPhrase(' cream "OR ')).toEqual({ expression: '"cream ""OR"', terms: ['cream "OR'], prefixes: [], positive: '"cream ""OR"', positiveTerms: ['cream "OR'] });
  });
});

describe('withoutDangling: the words typed, less an operator with nothing on a side and a lone *', () => {
  it.each([
    ['kitchen AND', 'kitchen', ['AND']],
    ['NOT kitchen', '', ['NOT', 'kitchen']],
    ['OR NOT kitchen', '', ['OR', 'NOT', 'kitchen']],
    ['OR kitchen AND', 'kitchen', ['OR', 'AND']],
    ['kitchen AND AND', 'kitchen', ['AND', 'AND']],
    ['kitchen NEAR', 'kitchen', ['NEAR']],
    ['NEAR kitchen', 'kitchen', ['NEAR']],
    ['prun* OR', 'prun*', ['OR']],
    ['*', '', ['*']],
    ['  **  ', '', ['**']],
    ['AND', '', ['AND']],
    ['kitchen *', 'kitchen', ['*']],
    ['kitchen AND *', 'kitchen', ['AND', '*']],
    ['"a * b" OR', '"a * b"', ['OR']],
    ['(kitchen OR sink) AND', '(kitchen OR sink)', ['AND']],
  ])('%s → %s', (raw, text, leftOut) => {
    expect(withoutDangling(raw)).toEqual({ text, leftOut });
  });

  it.each([
    ['NOT kitchen deploy', 'deploy NOT kitchen'],
    ['NOT (kitchen OR sink) deploy now', 'deploy now NOT (kitchen OR sink)'],
    ['NOT kitchen deploy AND', 'deploy NOT kitchen'],
  ])('%s is searched as %s', (raw, text) => {
    expect(withoutDangling(raw).text).toBe(text);
    expect(withoutDangling(raw).moved).toBe(true);
  });

  it.each(['apple AND crumble', 'NEAR(apple crumble)', 'kitchen and', '"kitchen AND"', '"kitchen AND', 'a NOT b', 'tool_input:npm*', 'kitchen ^AND', ''])('%s is left as typed', (raw) => {
    expect(withoutDangling(raw)).toEqual({ text: raw, leftOut: [] });
  });
});

describe('Chinese and Japanese are searched as the index holds them: a run’s characters one by one', () => {
  it.each([
    // A phrase of its characters finds any run that holds them side by side, the whole run too.
    ['テスト', '("テ ス ト" OR "テスト")', ['テスト'], []],
    ['全文搜索 实现', '("全 文 搜 索" OR "全文搜索") AND ("实 现" OR "实现")', ['全文搜索', '实现'], []],
    // Latin letters in the run stay one word, beside its characters.
    ['React入門', '("React 入 門" OR "React入門")', ['React入門'], []],
    // A phrase of two runs: each run's characters, the runs ANDed (a phrase cannot span two runs).
    ['"日本語 テスト"', '(("日 本 語" OR "日本語") AND ("テ ス ト" OR "テスト"))', ['日本語 テスト'], []],
    // A stretch of characters is found anywhere in a run already: the `*` goes, unless Latin letters end it.
    ['東京*', '("東 京" OR "東京")', ['東京'], []],
    ['入門Rea*', '("入 門 Rea"* OR "入門Rea"*)', ['入門Rea'], ['入門Rea', '入 門 Rea']],
    ['body:東京', 'body : ("東 京" OR "東京")', ['東京'], []],
    // NEAR and ^ keep their meaning over whole tokens: the run as written there.
    ['NEAR(東京 大阪) 京都', 'NEAR( 東京 大阪 ) AND ("京 都" OR "京都")', ['東京', '大阪', '京都'], []],
    ['^東京 大阪', '^東京 AND ("大 阪" OR "大阪")', ['東京', '大阪'], []],
  ])('%s → %s', (raw, expression, terms, prefixes) => {
    expect(prepareQuery(raw)).toEqual({ expression, terms, prefixes, positive: expression, positiveTerms: terms });
  });

  it('the phrase fallback searches a run by its characters too', () => {
    expect(asPhrase('"東京都 の')).toEqual({ expression: '(("東 京 都" OR "東京都") AND "の")', terms: ['"東京都 の'], prefixes: [], positive: '(("東 京 都" OR "東京都") AND "の")', positiveTerms: ['"東京都 の'] });
  });
});

describe('snippets', () => {
  it('start near the first match, fold whitespace and mark every match', () => {
    const text = `${'filler words here. '.repeat(20)}The first frost\n\n arrives late; frost again.`;
    const snippet = snippetOf(text, termPattern(['frost']));
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.text).toContain('The first frost arrives late; frost again.');
    expect(snippet.highlights.map(([a, b]) => snippet.text.slice(a, b))).toEqual(['frost', 'frost']);
    expect(snippet.text.length).toBeLessThanOrEqual(242);
  });

  it('highlights a camelCase piece inside its identifier, case-insensitively', () => {
    const snippet = snippetOf('call parseConfig() now', termPattern(['config']));
    expect(snippet.highlights.map(([a, b]) => snippet.text.slice(a, b))).toEqual(['Config']);
  });

  it('ignores one-letter words when longer ones were asked for', () => {
    expect(termPattern(['a', 'frost'])?.source).toBe('frost');
    expect(termPattern(['"  "'])).toBeNull();
  });
});
