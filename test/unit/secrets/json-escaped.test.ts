import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';
import { jsonReading, storedSpans } from '../../../core/secrets/json-reading.js';
import { leaks, secretKinds } from './corpus.js';

/**
 * Codex's shell output is stored as the JSON wrapper the model saw (`{"output": "…", "metadata": …}`),
 * its line breaks the two characters `\` `n`. Redacting the wrapper must hide what redacting the output
 * itself hides, and no more: a rule that ends a secret at white space once ran on over `\nbuild` and
 * took the next line's first word (and secretlint's database URL rule took a private key's marker).
 */

const BEFORE = 'step one done\nconn ready';
const AFTER = 'build finished in 42 seconds\nall good';
const outputOf = (snippet: string) => `${BEFORE}\n${snippet}\n${AFTER}`;
const wrap = (output: string) => JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.4 } });

/** The output a redacted wrapper holds: it must still be JSON, its metadata whole. */
function unwrap(text: string): string {
  const value = JSON.parse(text) as { output: unknown; metadata: unknown };
  expect(value.metadata).toEqual({ exit_code: 0, duration_seconds: 0.4 });
  return value.output as string;
}

const KEY_BODY = 'MIIEowIBAAKCAQEAx1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZ';
/** What QA saw: a database URL, and one assigned with a private key after it. */
const QA = [
  'conn postgres://admin:S3cr3tPassw0rd@db.internal:5432/app',
  `DATABASE_URL=postgres://admin:S3cr3tPassw0rd@db.internal:5432/app\n-----BEGIN RSA PRIVATE KEY-----\n${KEY_BODY}\n-----END RSA PRIVATE KEY-----`,
];

describe('redacting a secret inside a JSON-escaped shell output', () => {
  const kinds = [...secretKinds(), ...QA.map((snippet, i) => ({ kind: `QA case ${i + 1}`, snippet, secrets: ['S3cr3tPassw0rd', KEY_BODY].filter((s) => snippet.includes(s)) }))];

  /** What is wrong with a sample's redacted output: a piece of a secret left, or a line around it touched. */
  const fault = (k: { kind: string; secrets: string[] }, output: string): string | null => {
    if (k.secrets.some((s) => leaks(output, s))) return `${k.kind}: leaks`;
    return output.startsWith(`${BEFORE}\n`) && output.endsWith(`\n${AFTER}`) ? null : `${k.kind}: ${JSON.stringify(output)}`;
  };

  it('the table (the synchronous path) hides each sample and keeps the lines around it', () => {
    const wrong = kinds.map((k) => fault(k, unwrap(redactSecrets(wrap(outputOf(k.snippet)))))).filter((f) => f !== null);
    expect(wrong).toEqual([]);
  });

  it('the full redactor (table and secretlint) hides each sample, keeps the lines around it, and redacts as the output alone', async () => {
    const redactor = createRedactor();
    const outputs = kinds.map((k) => outputOf(k.snippet));
    const [wrapped, plain] = await Promise.all([redactor.redactMany(outputs.map(wrap)), redactor.redactMany(outputs)]);
    const wrong = kinds.map((k, i) => {
      const output = unwrap(wrapped[i]!);
      return fault(k, output) ?? (output === plain[i] ? null : `${k.kind}: ${JSON.stringify(output)} ≠ ${JSON.stringify(plain[i])}`);
    });
    expect(wrong.filter((f) => f !== null)).toEqual([]);
  });

  it('the QA case: the URL goes, the next line stays; the key goes whole, its neighbours stay', async () => {
    const redactor = createRedactor();
    expect(unwrap(await redactor.redact(wrap(`${QA[0]}\n${AFTER}`)))).toBe(`conn [REDACTED]\n${AFTER}`);
    const second = unwrap(await redactor.redact(wrap(`${QA[1]}\ndeploy finished`)));
    expect(second).toMatch(/^DATABASE_URL=\[REDACTED\]\n[^\n]*\[REDACTED\][^\n]*\ndeploy finished$/);
    expect(second).not.toContain(KEY_BODY);
  });

  it('where the secrets are (secretsMany) is said in the stored text', async () => {
    const text = wrap(`${QA[0]}\n${AFTER}`);
    const [spans] = await createRedactor().secretsMany([text]);
    expect(spans!.map(([a, b]) => text.slice(a, b))).toEqual(['postgres://admin:S3cr3tPassw0rd@db.internal:5432/app']);
  });

  it('a text that is not JSON, or a piece cut from inside one, is read as written: `C:\\new` keeps its backslash', () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    for (const text of [`Save it under C:\\new folder, token ${token}`, '[note] C:\\new\\table', 'ready\\nbuild finished","metadata":{}}']) {
      expect(jsonReading(text)).toEqual({ text, at: null, json: false });
    }
    expect(redactSecrets(`Save it under C:\\new folder, token ${token}`)).toBe('Save it under C:\\new folder, token [REDACTED]');
  });

  it('a piece cut from inside a JSON text is read as that text (json: true), one that begins as JSON but came from another as written (json: false)', async () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    const piece = `alpha done\\nconn ${QA[0]!.slice(5)}\\nbuild finished\\n${token}\\nall good","metadata":{}}`;
    const redactor = createRedactor();
    expect(await redactor.redactMany([piece], { json: true })).toEqual(['alpha done\\nconn [REDACTED]\\nbuild finished\\n[REDACTED]\\nall good","metadata":{}}']);
    const written = '{"note": "C:\\new folder"}';
    expect(await redactor.redactMany([written], { json: false })).toEqual([written]);
    expect(jsonReading(written, false)).toEqual({ text: written, at: null, json: false });
  });

  it('a JSON text is read with its letter and \\u escapes as the characters they spell, other escapes as written', () => {
    // x, a line break, y, an escaped quote, z, a line break escaped twice (a JSON file's, one level down), é, a tab, w, and a backslash the text was cut after.
    const raw = '{"a":"x\\ny\\"z\\\\n\\u00e9\\tw\\';
    const reading = jsonReading(raw);
    expect(reading.text).toBe('{"a":"x\ny\\"z\n\u00e9\tw\\');
    // x; y and the quote after it, whose backslash alone the span held.
    expect(storedSpans(raw, reading, [[6, 7], [8, 10]]).map(([a, b]) => raw.slice(a, b))).toEqual(['x', 'y\\"']);
  });

  it('a span that starts or ends inside an escape kept as written takes it whole: the stored text stays JSON', () => {
    const raw = '{"a":"x\\ny\\"z\\\\x\\u005c\\tw"}';
    const reading = jsonReading(raw);
    const at = (s: string) => reading.text.indexOf(s);
    // From the quote (after its backslash) to the middle of the \u escape of a backslash, and from the escaped backslash's second half to the tab.
    const spans = storedSpans(raw, reading, [[at('"z'), at('005c')], [at('\\x') + 1, at('\tw') + 1]]);
    expect(spans.map(([a, b]) => raw.slice(a, b))).toEqual(['\\"z\\\\x\\u005c\\t']);
    expect(() => JSON.parse(`${raw.slice(0, spans[0]![0])}[REDACTED]${raw.slice(spans[0]![1])}`)).not.toThrow();
  });
});
