import { describe, expect, it } from 'vitest';
import { looksLikeJson } from '../../../core/gateway/index.js';
import { isJsonText } from '../../../core/secrets/index.js';

/** Redaction and the search index read a text as JSON by one rule: JSON's white space is space, tab, CR and LF only. */
describe('isJsonText and looksLikeJson', () => {
  const inputs = ['\f{"a":1}', '\u00a0{"a":1}', '\ufeff{"a":1}', '\u2028["x"]', '\v[]', '[', '[[', '[["a"]]', '[ {"a"', '[1]', '{"', '{}', '{ }', ' {"a"', '\t\r\n{"a"', '{ a: 1 }', 'C:\\new', '[note] C:\\new', 'plain text', ''];
  for (const input of inputs) {
    it(`agree on ${JSON.stringify(input)}`, () => {
      expect(isJsonText(input)).toBe(looksLikeJson(input));
    });
  }
});
