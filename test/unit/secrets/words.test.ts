import { describe, expect, it } from 'vitest';
import { WordFinder } from '../../../core/secrets/words.js';

/** What `found` must say: each word held exactly where `includes` finds it, by its number. */
function heldByIncludes(words: readonly string[], text: string): number[] {
  return words.flatMap((word, id) => (text.includes(word) ? [id] : []));
}

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

describe('WordFinder finds the words a text holds, as includes does', () => {
  const WORDS = ['pass', 'password', 'passwd', 'assw', 'sword', 'word', 'key', 'api_key', '://', 'hooks.slack.com/', 'sha256~', 'q~', 'ss', 's', 'kennwort', 'für'];

  it.each([
    ['', []],
    ['no words here at all', ['s', 'word']],
    ['my password', ['pass', 'password', 'assw', 'sword', 'word', 'ss', 's']],
    ['pas passw passwd', ['pass', 'passwd', 'assw', 'ss', 's']],
    ['xapi_keyx https://hooks.slack.com/x', ['key', 'api_key', '://', 'hooks.slack.com/', 's']],
    ['sha256~q~', ['sha256~', 'q~', 's']],
    ['kennwort für', ['kennwort', 'für']],
  ])('%j', (text, held) => {
    const finder = new WordFinder(WORDS);
    const found = finder.found(text);
    expect(found.map((id) => WORDS[id]).sort()).toEqual([...held].sort());
    expect(sorted(found)).toEqual(heldByIncludes(WORDS, text));
  });

  it('agrees with includes on words run into each other, and on many texts after one another', () => {
    const finder = new WordFinder(WORDS);
    let seed = 3;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 500; round += 1) {
      const text = Array.from({ length: 1 + (next() % 8) }, () => {
        const word = WORDS[next() % WORDS.length]!;
        return next() % 2 === 0 ? word : word.slice(next() % word.length);
      }).join(next() % 3 === 0 ? ' ' : '');
      const found = finder.found(text);
      expect(new Set(found).size).toBe(found.length);
      expect(sorted(found)).toEqual(heldByIncludes(WORDS, text));
    }
  });

  it('says which words it looks for', () => {
    const finder = new WordFinder(['token', 'secret']);
    expect(finder.idOf('secret')).toBe(1);
    expect(finder.idOf('password')).toBeUndefined();
  });

  it('refuses the empty word, which every text holds', () => {
    expect(() => new WordFinder(['token', ''])).toThrow(RangeError);
  });
});
