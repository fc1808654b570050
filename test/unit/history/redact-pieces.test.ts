import { describe, expect, it } from 'vitest';
import { redactPieces } from '../../../core/history/snippet.js';
import { createRedactor, type RedactOptions, type Redactor } from '../../../core/secrets/index.js';

const GH = `ghp_${'a1B2'.repeat(9)}`;
/** A piece cut from inside a JSON text, and one from a person's message: `\n` is a line break only in the first. */
const FROM_JSON = `ok","output":"deploy\\n${GH}\\nthen restart`;
const FROM_PLAIN = 'Save it under C:\\new folder, hunter';

describe('redactPieces', () => {
  it("redacts a page's JSON and plain pieces in one pass, each read as its text is", async () => {
    const redactor = createRedactor();
    const calls: Array<RedactOptions | undefined> = [];
    const counting: Redactor = {
      ...redactor,
      redactMany: (texts, options) => {
        calls.push(options);
        return redactor.redactMany(texts, options);
      },
    };
    const pieces = [
      { text: FROM_JSON, redactAsJson: true },
      { text: FROM_PLAIN, redactAsJson: false },
      { text: '', redactAsJson: true },
      { text: FROM_JSON, redactAsJson: false },
    ];
    const out = await redactPieces(pieces, counting);
    expect(calls).toHaveLength(1);
    const [asJson] = await redactor.redactMany([FROM_JSON], { json: true });
    const [asPlain] = await redactor.redactMany([FROM_JSON], { json: false });
    expect(out).toEqual([asJson, FROM_PLAIN, '', asPlain]);
    expect(out[0]).not.toContain('a1B2a1B2');
  });
});
