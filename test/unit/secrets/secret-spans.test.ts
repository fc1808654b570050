import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../../core/secrets/index.js';

const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const GH = `ghp_${'a1B2'.repeat(9)}`;
const KNOWN = 'my-own-configured-key-123';

/** `text` with each span put as REDACTED, as a reader of the spans would hide them. */
const hidden = (text: string, spans: ReadonlyArray<readonly [number, number]>) => {
  let out = text;
  for (const [a, b] of [...spans].reverse()) out = `${out.slice(0, a)}${REDACTED}${out.slice(b)}`;
  return out;
};

describe('where redaction finds the secrets in a text (secretsMany)', () => {
  const redactor = createRedactor([KNOWN]);
  const texts = [
    `export OPENAI_API_KEY=${KEY} and then git push with ${GH} again`,
    'nothing secret here',
    '',
    `configured ${KNOWN} beside DB_PASSWORD=correcthorsebattery`,
    'first\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nlast',
    'postgres://admin:hunter2hunter2@db.local/app',
    // A later pass's match holds an earlier REDACTED (a header around a key): one secret, where both were.
    `Authorization: Bearer ${KEY} and api_key="${GH}x" then password is password is hunter2`,
  ];

  it('gives the spans of the text that redaction replaces, the same rule and passes', async () => {
    const [spans, redacted] = await Promise.all([redactor.secretsMany(texts), redactor.redactMany(texts)]);
    const slices = spans.map((s, i) => s.map(([a, b]) => texts[i]!.slice(a, b)));
    expect(slices[0]).toEqual([KEY, GH]);
    expect(slices[1]).toEqual([]);
    expect(slices[2]).toEqual([]);
    expect(slices[3]).toEqual([KNOWN, 'correcthorsebattery']);
    expect(slices[4]?.join('')).toContain('MIIEow');
    expect(slices[5]?.join('')).toContain('hunter2hunter2');
    for (const secret of [KEY, GH, 'hunter2']) expect(slices[6]?.some((slice) => slice.includes(secret))).toBe(true);
    // Hiding the spans reads as redaction wrote it.
    texts.forEach((text, i) => expect(hidden(text, spans[i]!), text).toBe(redacted[i]));
  });

  it('spans are sorted and never overlap', async () => {
    for (const s of await redactor.secretsMany(texts)) s.forEach(([a, b], i) => expect(a < b && (i === 0 || a > s[i - 1]![1])).toBe(true));
  });
});
