import { describe, expect, it } from 'vitest';
import { looksLikeJson } from '../../../core/gateway/index.js';
import { isJsonText } from '../../../core/secrets/index.js';

/**
 * Redaction and the search index read a text as JSON by one rule (isJsonText; the index's looksLikeJson
 * is it): JSON's white space is space, tab, CR and LF only, and a text is JSON by how it begins.
 */
describe('whether a text is JSON, by how it begins', () => {
  const cases: Array<[string, boolean]> = [
    ['\f{"a":1}', false],
    ['\u00a0{"a":1}', false],
    ['\ufeff{"a":1}', false],
    ['\u2028["x"]', false],
    ['\v[]', false],
    ['[', false],
    ['[[', false],
    ['[["a"]]', true],
    ['[ {"a"', true],
    ['[1]', false],
    ['[]', true],
    ['{"', true],
    ['{}', true],
    ['{ }', true],
    [' {"a"', true],
    ['\t\r\n{"a"', true],
    ['{ a: 1 }', false],
    ['C:\\new', false],
    ['{C:\\new folder}', false],
    ['[note] C:\\new', false],
    ['plain text', false],
    ['', false],
  ];
  for (const [input, json] of cases) {
    it(`${JSON.stringify(input)} is ${json ? '' : 'not '}JSON`, () => {
      expect(isJsonText(input)).toBe(json);
    });
  }

  it('is the index\'s rule too', () => {
    expect(looksLikeJson).toBe(isJsonText);
  });
});
