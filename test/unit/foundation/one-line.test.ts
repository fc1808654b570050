import { describe, expect, it } from 'vitest';
import { oneLine } from '../../../core/cli/output.js';

/**
 * A session title printed on one terminal line (`steward sessions`, `search`, `projects`) is written by
 * an agent or the person, not by Steward: nothing in it may move the cursor, start a terminal sequence,
 * break the line or reorder what the terminal shows after it. Each such character becomes a space.
 */
describe('oneLine: a title on one terminal line, as the terminal will show it', () => {
  const cases: Array<[string, string]> = [
    ['C0 controls and ESC', 'a\x1b[2Jb\x07c\td\r\ne\x00f'],
    ['DEL', 'a\x7fb'],
    ['C1 controls (U+009B is a CSI some terminals honour)', 'a\u009b2Jb\u0085c\u0080d\u009fe'],
    ['lone surrogates', 'a\ud800b\udfffc'],
    ['line and paragraph separators', 'a\u2028b\u2029c'],
    ['bidi embeddings and overrides', 'a\u202ab\u202bc\u202cd\u202de\u202ef'],
    ['bidi isolates', 'a\u2066b\u2067c\u2068d\u2069e'],
  ];

  it.each(cases)('turns %s into spaces', (_, text) => {
    const flat = oneLine(text);
    expect(flat).toMatch(/^[a-f]( [a-f0-9J[]*)*$/);
    expect(flat).not.toMatch(/[\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
  });

  it('keeps what only looks unusual: accents, CJK, emoji, a zero-width joiner in an emoji', () => {
    const text = 'Café 配置 🚀 👩‍💻 déjà vu';
    expect(oneLine(text)).toBe(text);
  });

  it('runs of spaces become one, and the ends are trimmed', () => {
    expect(oneLine('  fix\u2028\u2028 the\u202e build \x1b ')).toBe('fix the build');
  });

  it('cuts a long title at 100 characters without cutting a surrogate pair (or an emoji) in half', () => {
    for (const head of ['', 'x']) {
      const cut = oneLine(head + '🚀'.repeat(120));
      expect([...cut]).toHaveLength(100);
      expect(cut.endsWith('…')).toBe(true);
      expect(cut).not.toMatch(/\p{Cs}/u);
    }
    expect(oneLine('a'.repeat(100))).toBe('a'.repeat(100));
    expect(oneLine('a'.repeat(101))).toBe(`${'a'.repeat(99)}…`);
  });
});
