import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';
import { nested, wrongAtDepths } from './depth-harness.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * What an eighth look at core/secrets found after 744449f (Markdown labels, PWD= paths, braced values,
 * prose `password: |`, withinString): each case here fails on that commit's code.
 */

/** `text` with `{s}` as `secret`, at JSON depths 0 to 3, every way: what is not the text with `{s}` as REDACTED. */
async function wrong(text: string, secret: string): Promise<string[]> {
  return wrongAtDepths(text.replaceAll('{s}', secret), text.replaceAll('{s}', '[REDACTED]'), [0, 1, 2, 3]);
}

describe("regression: a connection string's password that starts with a path of two folders is shown (isDirectory)", () => {
  it.each([
    ['Server=db;Uid=sa;Pwd={s};', '/a/Xk9mQ2zLw'],
    ['Pwd={s};Server=db;Uid=sa;', '/a/Xk9mQ2zLw'],
    // base64 output (`openssl rand -base64`) holds `/` and `+`
    ['Server=db;Uid=sa;Pwd={s};', '/kT9x/Qm2+Lw'],
    ['Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;Uid=sa;Pwd={s};Encrypt=yes;', '/Xk9/mQ2z'],
    ['Server=db;Uid=sa;Pwd={s};', '~/hunter2'],
  ])('leak: %s with %s', async (text, secret) => {
    expect(await wrong(text, secret)).toEqual([]);
  });
});

describe('regression: a braced password shaped like an identifier, with digits, is shown (BRACED_NAME)', () => {
  it.each([
    ['Driver={ODBC Driver 18 for SQL Server};Server=db;Uid=sa;Pwd={s};', '{hunter2x}'],
    ['Server=db;Uid=sa;Password={s};Encrypt=yes', '{hunter2}'],
    ['Server=db;Uid=sa;Pwd={s};', '{s3cr3t_pw}'],
    ['password={s}', '{x9k2m7q4}'],
    ['password={s}', '{admin123}'],
    ['DB_PASSWORD={s}', '{hunter2}'],
  ])('leak: %s with %s', async (text, secret) => {
    expect(await wrong(text, secret)).toEqual([]);
  });
});

describe("regression: a YAML block in a file read with line numbers (Claude Code's Read, cat -n) is shown", () => {
  it.each([
    '     1\u2192db:\n     2\u2192  password: |\n     3\u2192    {s}\n',
    '     1\u2192password: |\n     2\u2192  {s}\n',
    '     1\tdb:\n     2\t  password: |\n     3\t    {s}\n',
  ])('leak: %j', async (text) => {
    // The line number before the value may go with it (the old code hid `3→    Xk9…` whole): only the secret is asked for.
    for (const level of [0, 1, 2, 3]) expect(redactSecrets(nested(text.replace('{s}', 'Xk9mQ2zLw9'), level))).not.toContain('Xk9mQ2zLw9');
  });
});

describe('leak (before 744449f too): Markdown around a password that the new label rule does not read', () => {
  it.each(['***Password:*** {s}', '**_Password:_** {s}', '_**Password:**_ {s}'])('leak: bold and italics together, %s', async (text) => {
    expect(await wrong(text, 'hunter2x')).toEqual([]);
  });

  it.each([
    '| Field | Value |\n|---|---|\n| Username | admin |\n| Password | {s} |',
    '| Field | Value |\n|---|---|\n| **Password** | `{s}` |',
    '| DB_PASSWORD | {s} |',
  ])('leak: a Markdown table row, %j', async (text) => {
    expect(await wrong(text, 'Xk9mQ2zLw9')).toEqual([]);
  });

  it.each(['**Password:**\n```\n{s}\n```', '**Password:** See below\n```\n{s}\n```'])('leak: a label, then the password in a fenced block, %j', async (text) => {
    expect(await wrong(text, 'Xk9mQ2zLw9')).toEqual([]);
  });

  it('leak: a diff adding a YAML block password', async () => {
    const text = '@@ -1,2 +1,4 @@\n db:\n+  password: |\n+    Xk9mQ2zLw9\n';
    for (const level of [0, 1, 2, 3]) expect(redactSecrets(nested(text, level))).not.toContain('Xk9mQ2zLw9');
  });
});

describe("leak (before 744449f too): an ODBC braced password's escaped `}}` ends it early", () => {
  it('Pwd={P@ss}}w0rd}; leaves w0rd shown', async () => {
    expect(await wrong('Server=db;Uid=sa;Pwd={s};', '{P@ss}}w0rd}')).toEqual([]);
  });
});

describe('over-redaction: ordinary text hidden or marks eaten', () => {
  it.each([
    // the closing bold marks go with the value
    ['**Password:**hunter2x', '**Password:**[REDACTED]'],
    // YAML's indentation indicator is no password
    ['password: |2\n    Xk9mQ2zLw9\n', 'password: |2\n    [REDACTED]\n'],
    // a length after a bold label
    ['**Password:** 12 characters minimum', '**Password:** 12 characters minimum'],
    // a .NET format placeholder with a space in its format
    ['password={0:yyyy-MM-dd HH:mm}', 'password={0:yyyy-MM-dd HH:mm}'],
    // a quoted string that starts with `password: |` and goes on in prose; at depth 0 the closing quote was eaten too
    ["'password: |\n  must be indented'", "'password: |\n  must be indented'"],
  ])('%j', async (text, expected) => {
    expect(await wrongAtDepths(text, expected, [0, 1, 2, 3])).toEqual([]);
  });
});

/*
 * escapeAround (json-reading.ts) looks back with `raw.lastIndexOf('\\', at - 1)` for each hidden value's ends:
 * two levels deep, a long string's only backslashes are at its start, so each look reads back to it
 * (240 KB of `pwd=x ` took 3 s, 14.5 times as long as 60 KB; 1 MB 12 s). One level deep holds no backslash
 * (jsonReading returns no map), which is why the test of 744449f did not see it.
 */
describe('speed: many hidden values in a JSON string two levels deep', () => {
  it.each([
    ['pwd=x ', (chars: number) => nested('pwd=x '.repeat(Math.ceil(chars / 6)), 2)],
    ['password=hunter2x ', (chars: number) => nested('password=hunter2x '.repeat(Math.ceil(chars / 18)), 2)],
  ])('%s', (_name, make) => {
    expect(redactionGrowth(make, 240_000)).toBeLessThan(LINEAR_GROWTH);
  }, 180_000);
});
