import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import type { MatchedPart } from '../../../core/gateway/index.js';
import { rankByRelevance } from '../../../core/history/rank.js';
import { snippetOf, termPattern, type Snippet } from '../../../core/history/snippet.js';
import { compileTerms } from '../../../core/history/term-match.js';
import { migrate } from '../../../core/store/index.js';

/**
 * Snippets, highlights and relevance read a text as the full-text index does (unicode61 with
 * remove_diacritics 2, over searchText): a term is a whole token, folded, or an identifier's pieces.
 */

const marked = (s: Snippet) => s.highlights.map(([a, b]) => s.text.slice(a, b));
const snippet = (text: string, terms: string[], prefixes?: string[]) => snippetOf(text, termPattern(terms, prefixes));
const FILLER = 'Some unrelated words about gardening and soil and weather. '.repeat(4);

describe('a term matches whole tokens, not letters inside longer words', () => {
  it('the snippet is cut around the word, not around its letters in a longer one', () => {
    const s = snippet(`We concatenate the files first. ${FILLER}Then the cat sat on the mat.`, ['cat']);
    expect(s.text).toContain('the cat sat');
    expect(marked(s)).toEqual(['cat']);
  });

  it('a one-letter word marks only itself', () => {
    expect(marked(snippet('a bar and a cat', ['a']))).toEqual(['a', 'a']);
  });

  it('snake_case is split at its underscore, as unicode61 splits it; showcase is another word', () => {
    expect(marked(snippet('see snake_case and showcase', ['case']))).toEqual(['case']);
  });

  it('a run of Japanese is found by any stretch of it, as the index holds its characters too: the stretch alone is marked', () => {
    expect(marked(snippet('日本語のテスト and 日本語', ['日本語']))).toEqual(['日本語', '日本語']);
    expect(marked(snippet('日本語のテスト and 日本語', ['テス']))).toEqual(['テス']);
  });

  it('a prefix term marks the start of words that begin with it, and only with its `*`', () => {
    expect(marked(snippet('Configuration stays unconfirmed', ['conf'], ['conf']))).toEqual(['Conf']);
    expect(marked(snippet('Configuration stays unconfirmed', ['conf']))).toEqual([]);
  });

  it('a word the snippet’s cut runs through is not taken for a whole one', () => {
    // The window of 240 characters ends after "cat" of "catalog".
    const text = `cat ${'x'.repeat(232)} cat${'alog'.repeat(5)}`;
    const s = snippet(text, ['cat']);
    expect(s.text.endsWith('cat…')).toBe(true);
    expect(s.highlights).toEqual([[0, 3]]);
  });
});

describe('a term matches accents folded away, marked in the original text', () => {
  it('an emoji and a combining accent before the match: the marks index the snippet as shown', () => {
    // 😀 is two UTF-16 units; "é" is e + U+0301, which the fold drops: offsets must map back.
    const text = `${FILLER}😀 Ame\u0301lie left. Meet me at the café; re\u0301sume\u0301 attached, resume later.`;
    const cafe = snippet(text, ['cafe']);
    expect(cafe.text.startsWith('…')).toBe(true);
    expect(marked(cafe)).toEqual(['café']);
    expect(marked(snippet(text, ['resume']))).toEqual(['re\u0301sume\u0301', 'resume']);
    expect(marked(snippet(text, ['amelie']))).toEqual(['Ame\u0301lie']);
  });

  it('a typed accent finds the plain word too, as the index folds the query alike', () => {
    expect(marked(snippet('a resume and a résumé', ['résumé']))).toEqual(['resume', 'résumé']);
  });
});

describe('an identifier typed with humps marks its pieces where the index found them', () => {
  it('as words of their own', () => {
    expect(marked(snippet('the parse config step', ['parseConfig']))).toEqual(['parse', 'config']);
  });

  it('inside a longer identifier, and the identifier itself whole', () => {
    expect(marked(snippet('call parseConfigLoader() after parseConfig()', ['parseConfig']))).toEqual(['parse', 'Config', 'parseConfig']);
  });

  it('a piece typed alone marks the piece in an identifier', () => {
    expect(marked(snippet('HTTPServer failed with TS2345', ['server', '2345']))).toEqual(['Server', '2345']);
  });
});

function part(key: number, text: string): MatchedPart {
  return { key, partId: `p${key}`, sessionId: 's', provider: 'claude', role: 'user', kind: 'text', ts: null, text, meta: null, projectKey: null, genuineUserTurn: true, isCompactSummary: false };
}

const scores = async (texts: string[], terms: string[], prefixes?: string[]) => {
  const parts = texts.map((t, i) => part(i + 1, t));
  const { ranked } = await rankByRelevance(parts, terms, undefined, prefixes);
  return texts.map((_, i) => ranked.find((r) => r.part.key === i + 1)!.score);
};

describe('relevance counts what the index matched', () => {
  it('three mentions of a word outrank one among words that merely hold its letters', async () => {
    const [three, one] = await scores(['cat cat cat and a dog', 'cat concatenate catalog category scatter catapult cattle catch catholic catnip'], ['cat']);
    expect(three).toBeGreaterThan(one!);
  });

  it('an accented match counts for a plain term', async () => {
    const [accented, decomposed, other] = await scores(['résumé résumé résumé', 're\u0301sume\u0301 twice re\u0301sume\u0301', 'nothing to see here at all today'], ['resume']);
    expect(accented).toBeGreaterThan(0);
    expect(decomposed).toBeGreaterThan(0);
    expect(other).toBe(0);
  });

  it('an identifier counts by its pieces in order, not scattered', async () => {
    const [phrase, scattered] = await scores(['the parse config step', 'parse the config'], ['parseConfig']);
    expect(phrase).toBeGreaterThan(0);
    expect(scattered).toBe(0);
  });

  it('a prefix counts words it starts, not words that hold it', async () => {
    const [starts, holds] = await scores(['configure it', 'reconfigure it'], ['conf'], ['conf']);
    expect(starts).toBeGreaterThan(0);
    expect(holds).toBe(0);
  });
});

describe('the matcher reads text as the index’s tokenizer does', () => {
  /** The tokens the index's own tokenizer (read from its schema) makes of a text. */
  function indexTokens(text: string): string[] {
    const db = new Database(':memory:');
    migrate(db, GATEWAY_MIGRATIONS, 'gateway');
    const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_fts'").pluck().get() as string;
    const tokenize = /tokenize\s*=\s*'([^']+)'/.exec(sql)![1]!;
    db.exec(`CREATE VIRTUAL TABLE probe USING fts5(x, tokenize = '${tokenize}'); CREATE VIRTUAL TABLE probe_terms USING fts5vocab(probe, 'instance');`);
    db.prepare('INSERT INTO probe (rowid, x) VALUES (1, ?)').run(text);
    const tokens = db.prepare('SELECT term FROM probe_terms ORDER BY offset').pluck().all() as string[];
    db.close();
    return tokens;
  }

  /** A text with Chinese or Japanese characters is a term per token, each by its segments (see cjkTerms): joined, they are the token. */
  const wordsOf = (text: string) => compileTerms([text]).flatMap((term) => (term[0]!.within ? [term[0]!.words.join('')] : term[0]!.words));

  it('case, accents, combining marks, separators and other scripts', async () => {
    const text =
      'Café CAFE\u0301 \u0301x a\u0332b snake_case x\u200dy ﬁne Ǆ ſ ς ß ẞ İ ı ø Ǿ ệ ǖ ΆΈ ё Ω ²x ½ ٣٤ x\uE000y 😀word👍 ' +
      'क्षत्रिय مَرْحَبًا שָׁלוֹם สวัสดีครับ 한국어 日本語のテスト';
    expect(wordsOf(text)).toEqual(indexTokens(text));
  });

  it('every Latin, Greek and Cyrillic letter of SQLite’s Unicode tables', async () => {
    const letters: string[] = [];
    // U+01E0/U+01E1 (ǡ): SQLite keeps the accents of this one; newer letters than its tables are left out.
    const ranges = [
      [0x00c0, 0x01df],
      [0x01e2, 0x024f],
      [0x0386, 0x03ff],
      [0x0400, 0x0527],
      [0x1e00, 0x1eff],
    ] as const;
    for (const [from, to] of ranges) for (let c = from; c <= to; c += 1) if (/\p{L}/u.test(String.fromCodePoint(c))) letters.push(`x${String.fromCodePoint(c)}x`);
    expect(wordsOf(letters.join(' '))).toEqual(indexTokens(letters.join(' ')));
  });
});

describe('ranking many candidates', () => {
  it('gives the event loop turns while it counts, instead of holding it for the whole page', async () => {
    // Minified code or base64: a camelCase hump every other letter, the matcher's slowest text.
    const parts = Array.from({ length: 1_000 }, (_, i) => part(i + 1, 'aB'.repeat(1_000)));
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const { ranked } = await rankByRelevance(parts, ['aBa'], undefined, []);
    counting = false;
    expect(ranked).toHaveLength(1_000);
    expect(turns).toBeGreaterThan(1);
  });
});
