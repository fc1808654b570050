import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';
import { jsonReading, storedSpans, withinString } from '../../../core/secrets/json-reading.js';
import { CONTEXTS, inContext, leaks, secretKinds } from './corpus.js';

/**
 * Attacks on the JSON reading (5e1c1c7, 9b4c335): a JSON text is redacted with its escapes decoded and
 * its spans mapped back. The first eight came from an attacker (attack-s44b); the corpus checks after
 * them hold each fix over every kind of secret.
 */

const PW = 'S3cr3tPassw0rd!x';
const GH = `ghp_${'a1B2'.repeat(9)}`;
const AWS_ID = 'AKIAQLR5X1WGOZOXW6M4';
const wrapper = (output: string) => JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.1 } });

/** Every way the app redacts a whole text: the table alone (redactSync), and table + secretlint. */
async function bothWays(text: string): Promise<string[]> {
  return [redactSecrets(text), await createRedactor().redact(text)];
}

describe('regressions: a shell line continuation (`\\` + line break) in a JSON tool input', () => {
  // Before 5e1c1c7 the raw `\\\n` was no line break to `[^\n]`, so the flag's look-behind reached over it.
  it('curl -u on a continued line stays hidden (redacted before the change)', async () => {
    const input = JSON.stringify({ command: `curl -sS https://api.example.com/v1/items \\\n  -u admin:${PW} \\\n  -H 'Accept: application/json'`, description: 'List items' });
    for (const out of await bothWays(input)) expect(out).not.toContain(PW);
  });

  it('mysql -p on a continued line stays hidden (redacted before the change)', async () => {
    const input = JSON.stringify({ command: `mysql -h db.internal \\\n  -u root \\\n  -p${PW} app < dump.sql`, description: 'Load dump' });
    for (const out of await bothWays(input)) expect(out).not.toContain(PW);
  });

  it('a continued command line in plain text is one command too', async () => {
    for (const text of [`curl -sS https://api.example.com \\\n  -u admin:${PW}`, `mysqldump -h db \\\r\n  -p${PW} shop > shop.sql`]) {
      for (const out of await bothWays(text)) expect(out).not.toContain(PW);
    }
  });
});

describe('leaks the JSON reading still lets through (the output alone is redacted)', () => {
  it('a token at a line start inside a JSON file an agent writes (`\\\\n` one level down)', async () => {
    const content = JSON.stringify({ note: `deploy with\n${GH}\nthen restart` }, null, 2);
    const input = JSON.stringify({ file_path: '/app/config.json', content });
    // The file's own text, redacted alone, hides it: its `\n` is read as a line break.
    expect(await createRedactor().redact(content)).not.toContain('a1B2a1B2');
    for (const out of await bothWays(input)) expect(leaks(out, GH)).toBe(false);
  });

  it('a token after a control character serde/JSON.stringify spell as \\u00XX (NUL-separated /proc/<pid>/cmdline)', async () => {
    const output = `aws\u0000--profile\u0000ci\u0000${AWS_ID}\u0000`;
    expect(await createRedactor().redact(output)).not.toContain(AWS_ID);
    for (const out of await bothWays(wrapper(output))) expect(out).not.toContain(AWS_ID);
  });

  it('a known value (environment secret) holding a quote or backslash, as JSON spells it', async () => {
    const known = 'Xk9"mQ2\\zT7pLw';
    const redactor = createRedactor([known]);
    const output = `connected with ${known} ok`;
    expect(await redactor.redact(output)).not.toContain('Xk9"mQ2');
    expect(leaks(await redactor.redact(wrapper(output)), 'Xk9\\"mQ2\\\\zT7pLw')).toBe(false);
  });
});

describe('a span that runs past its JSON string: the stored text is no longer JSON, its neighbours gone', () => {
  it("a database URL last in Codex's argv array keeps the arguments after it and the text JSON", async () => {
    const args = JSON.stringify({ command: ['psql', `postgres://app:${PW}@db.internal:5432/app`], workdir: '/srv/app', timeout_ms: 60000 });
    const out = await createRedactor().redact(args);
    expect(out).not.toContain(PW);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(JSON.parse(out)).toMatchObject({ workdir: '/srv/app', timeout_ms: 60000 });
  });

  it('a private key cut short (`head -3 key.pem`) in the wrapper keeps the wrapper JSON', async () => {
    const text = wrapper('-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZ\nAbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijklmn\n');
    for (const out of await bothWays(text)) {
      expect(out).not.toContain('MIIEowIBAAKCAQEA');
      expect(() => JSON.parse(out)).not.toThrow();
    }
  });

  it('a netrc password last in the output keeps the wrapper JSON', async () => {
    for (const out of await bothWays(wrapper(`machine api.example.net login ana password ${PW}`))) {
      expect(out).not.toContain(PW);
      expect(() => JSON.parse(out)).not.toThrow();
    }
  });
});

describe('the fixes over the whole corpus', () => {
  const kinds = secretKinds();
  /** The kinds whose secrets leak from any of `outputs` (one per kind), by name. */
  const leaking = (outputs: string[]) => kinds.filter((k, i) => k.secrets.some((s) => leaks(outputs[i]!, s))).map((k) => k.kind);

  it('a sample on its own line in a JSON file an agent writes (two levels of escaping) is hidden', async () => {
    const input = (snippet: string) =>
      JSON.stringify({ file_path: '/app/config.json', content: JSON.stringify({ note: `deploy with\n${snippet}\nthen restart` }, null, 2) });
    const texts = kinds.map((k) => input(k.snippet));
    expect(leaking(texts.map((t) => redactSecrets(t)))).toEqual([]);
    expect(leaking(await createRedactor().redactMany(texts))).toEqual([]);
  });

  it('a sample after a control character spelt \\u00XX is hidden', async () => {
    const texts = kinds.map((k) => wrapper(`pid\u00001234\u0000${k.snippet}\u0000`));
    expect(leaking(texts.map((t) => redactSecrets(t)))).toEqual([]);
    expect(leaking(await createRedactor().redactMany(texts))).toEqual([]);
  });

  it('a sample last in a JSON string stays inside it: the text is still JSON, its next value whole, the secret hidden', async () => {
    const texts = kinds.map((k) => `{"v":${JSON.stringify(k.snippet)},"next":"x"}`);
    const fullRedactor = await createRedactor().redactMany(texts);
    for (const outputs of [texts.map((t) => redactSecrets(t)), fullRedactor]) {
      const broken = outputs.filter((out) => {
        try {
          return (JSON.parse(out) as { next: unknown }).next !== 'x';
        } catch {
          return true;
        }
      });
      expect(broken).toEqual([]);
      expect(leaking(outputs)).toEqual([]);
    }
  });

  it('every sample in every context is still hidden whole (recall 100%)', async () => {
    const redactor = createRedactor();
    for (const context of CONTEXTS) {
      const texts = kinds.map((k) => inContext(k.snippet, context));
      expect(leaking(texts.map((t) => redactSecrets(t))), context).toEqual([]);
      expect(leaking(await redactor.redactMany(texts)), context).toEqual([]);
    }
  });
});

describe('withinString: a span kept inside the JSON string it starts in', () => {
  it('is cut at the first quote no backslash escapes; a span that starts at the structure (a rule given the whole text) is kept whole', () => {
    const text = '{"a":"x\\"y\\\\","b":"z"}';
    const slice = ([a, b]: [number, number]) => text.slice(a, b);
    // From x: past its escaped quote and escaped backslash, to its string's end.
    expect(slice(withinString(text, [text.indexOf('x'), text.length]))).toBe('x\\"y\\\\');
    expect(withinString(text, [0, text.length])).toEqual([0, text.length]);
  });
});

describe('the reading of \\u escapes', () => {
  it('reads \\uXXXX as its character, a surrogate pair as the pair, and keeps \\u0022 and \\u005c as written', () => {
    const raw = '{"a":"x\\u0000y\\ud83d\\ude00z\\u0022\\u005c"}';
    const reading = jsonReading(raw);
    expect(reading.text).toBe('{"a":"x\u0000y😀z\\u0022\\u005c"}');
    const at = (s: string) => reading.text.indexOf(s);
    // The emoji's two halves stand for their two escapes; a span over it takes both whole.
    expect(storedSpans(raw, reading, [[at('😀'), at('z')]]).map(([a, b]) => raw.slice(a, b))).toEqual(['\\ud83d\\ude00']);
  });
});

describe('a JSON file inside a JSON string: an escaped quote in a nested value', () => {
  // The nested value's own quote is `\\\"` stored and `\"` read, as its closing quote is: the rule ended the value there.
  it('a password holding an escaped quote is hidden whole, and both levels still parse', async () => {
    const file = JSON.stringify({ password: 'ab"cd9Zq!x', user: 'ana' });
    const input = JSON.stringify({ content: file });
    for (const out of await bothWays(input)) {
      expect(out).not.toContain('cd9Zq');
      expect(JSON.parse(JSON.parse(out).content)).toMatchObject({ password: '[REDACTED]', user: 'ana' });
    }
  });

  it('a nested value ends at its closing quote, whatever follows it', async () => {
    for (const file of [JSON.stringify({ password: 'hunter2abc', user: 'ana' }), JSON.stringify({ password: 'hunter2abc' }, null, 2), JSON.stringify([{ password: 'hunter2abc' }, 'keep'])]) {
      for (const out of await bothWays(JSON.stringify({ content: file }))) {
        expect(out).not.toContain('hunter2abc');
        expect(JSON.parse(JSON.parse(out).content)).toEqual(JSON.parse(file.replace('hunter2abc', '[REDACTED]')));
      }
    }
  });
});
