import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';
import { leaks } from './corpus.js';

/**
 * Leaks left after the JSON reading: a password's tail shown after a quote inside it, a quoted
 * `mysql -p'…'` (whose `&` or `|` a shell reads as the password's own), and a nested value's own quote
 * three JSON levels down. Each fix has a sentence beside it that keeps its words.
 */

const wrapper = (output: string) => JSON.stringify({ output, metadata: { exit_code: 0 } });

/** Every way the app redacts a whole text: the table alone (redactSync), and table + secretlint. */
async function bothWays(text: string): Promise<string[]> {
  return [redactSecrets(text), await createRedactor().redact(text)];
}

/** Each text redacted both ways, as written and in a JSON wrapper: what of `secret` it still shows. */
async function shown(texts: readonly string[], secret: string): Promise<string[]> {
  const out: string[] = [];
  for (const text of texts) for (const redacted of [...(await bothWays(text)), ...(await bothWays(wrapper(text)))]) if (leaks(redacted, secret)) out.push(redacted);
  return out;
}

describe('a quoted password holding the other kind of quote', () => {
  it('is hidden to its own closing quote, whatever punctuation follows the quote inside it', async () => {
    expect(await shown([`export PGPASSWORD='s3cr"et9Zq'; psql`, `export PGPASSWORD='s3cr",et9Zq'; psql`, `run --password='s3cr":et9Zq' x`, `DB_PASSWORD="s3cr';et9Zq" ./start`], 'et9Zq')).toEqual([]);
  });

  it('in a JSON value, a single quote is the value’s own', async () => {
    for (const out of await bothWays(JSON.stringify({ password: "ab'cd9Zq!x", user: 'ana' }))) {
      expect(out).not.toContain('cd9Zq');
      expect(JSON.parse(out)).toEqual({ password: '[REDACTED]', user: 'ana' });
    }
  });

  it('after a flag and a space, and in curl -u quoted', async () => {
    expect(await shown([`run --password 's3cr",et9Zq' x`, `curl -u 'admin:s3cr"et9Zq' https://api.example.com`, `curl -u "admin:s3cr',et9Zq" https://api.example.com`], 'et9Zq')).toEqual([]);
  });

  it('a sentence with the same quotes and punctuation keeps its words', async () => {
    for (const text of [`The docs say 'use "quotes", then a semicolon'; done.`, `He wrote "it's late", then: 'ok "fine"; go'.`, `curl -u 'admin' "it's", then --verbose 'a "b", c'`]) {
      for (const out of await bothWays(text)) expect(out).toBe(text);
    }
  });
});

describe("mysql -p'…': a quoted password, whose & | ; the shell reads as its own", () => {
  it('is hidden whole', async () => {
    expect(await shown([`mysqldump -u root -p'pa&ss' shop > shop.sql`, `mysql -u root -p"pa&ss" shop`], 'pa&ss')).toEqual([]);
    expect(await shown([`mysql -u root -p'Xk9|mQ2;zT' shop`, `mariadb -p's3cr"et9Zq' -e 'select 1'`], 'mQ2;zT')).toEqual([]);
  });

  it('a sentence with a quoted -p and an & keeps its words', async () => {
    for (const text of [`In mysql, -p'' asks for it & that's fine.`, `mysql -p'&&' then 'a & b'`]) {
      for (const out of await bothWays(text)) expect(out).toBe(text);
    }
  });
});

describe('a JSON file three levels down: a password whose quote is followed by punctuation', () => {
  const threeDeep = (file: object) => JSON.stringify({ content: JSON.stringify({ file: JSON.stringify(file) }) });
  const unwrap = (text: string) => JSON.parse(JSON.parse(JSON.parse(text).content).file);

  it('is hidden whole, and all three levels still parse', async () => {
    for (const password of ['ab",cd9Zq!x', 'ab";cd9Zq!x', 'ab":cd9Zq!x', 'ab" cd9Zq!x']) {
      for (const out of await bothWays(threeDeep({ password, user: 'ana' }))) {
        expect(out).not.toContain('cd9Zq');
        expect(unwrap(out)).toEqual({ password: '[REDACTED]', user: 'ana' });
      }
    }
  });

  it('a sentence with the same quotes three levels down keeps its words', async () => {
    const text = threeDeep({ note: 'she said "no", then: "fine"; ok', user: 'ana' });
    for (const out of await bothWays(text)) expect(out).toBe(text);
  });
});
