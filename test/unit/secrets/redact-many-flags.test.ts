import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../core/secrets/index.js';

const GH = `ghp_${'a1B2'.repeat(9)}`;
/** A piece cut from inside a JSON text: its `\n` is a line break only when that text is JSON. */
const PIECE = `ok","output":"deploy\\n${GH}\\nthen restart`;

describe('redactMany with a flag per text', () => {
  it('reads each text as its own flag says, as a call per flag would', async () => {
    const redactor = createRedactor();
    const [asJson] = await redactor.redactMany([PIECE], { json: true });
    const [asPlain] = await redactor.redactMany([PIECE], { json: false });
    expect(asJson).not.toBe(asPlain);
    expect(await redactor.redactMany([PIECE, PIECE, 'plain'], { json: [true, false, false] })).toEqual([asJson, asPlain, 'plain']);
    expect(await redactor.redactMany([PIECE, PIECE], { json: [false, true] })).toEqual([asPlain, asJson]);
  });
});
