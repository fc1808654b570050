import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';
import { wrongAtDepths } from './depth-harness.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * What a seventh look at core/secrets found: a password after a Markdown label in underscores or italics, a
 * working directory in a `;`-separated line read as a connection string's password, a .NET format placeholder
 * cut in half, prose's `password: |` read as a YAML block, and a JSON string of thousands of hidden values
 * that took time growing with the square of its length.
 */

const S = 'hunter2x';

/**
 * For `text` (its secret written `{s}`, `secret` each time) at JSON depths 0 to 3, every way whose redaction is
 * not, read back to the innermost text, the text with each secret replaced by REDACTED and all else as written.
 */
async function wrong(text: string, secret = S): Promise<string[]> {
  return wrongAtDepths(text.replaceAll('{s}', secret), text.replaceAll('{s}', '[REDACTED]'), [0, 1, 2, 3]);
}

/** `unit` repeated to about `chars` characters, between `head` and `tail`. */
function fill(chars: number, unit: string, head = '', tail = ''): string {
  return head + unit.repeat(Math.max(1, Math.ceil((chars - head.length - tail.length) / unit.length))) + tail;
}

describe("a password after a Markdown label is hidden, the label's marks kept", () => {
  it.each([
    '**Password:** {s}',
    '**Password**: {s}',
    '- **password**: {s}',
    '* **Password:** {s}\n* **User:** ana',
    '__Password:__ {s}',
    '__Password__: {s}',
    '*Password:* {s}',
    '_Password:_ {s}',
    '- _password_: {s}',
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  it.each(['**Password:** See below', '__Password:__ stored in the vault', '*Password:* required'])('%s (words after the label) stays as written', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});

describe("a working directory in a `;`-separated line is no connection string's password", () => {
  it.each(['PWD=/home/ana;SERVER=x;', 'PWD=/home/ana/src;Server=db;Uid=sa;', 'OLDPWD=/srv/app;SERVER=x;'])('%s stays as written', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  it.each(['Server=db;Uid=sa;Pwd={s};', 'Pwd={s};Server=db;Uid=sa;', 'Server=x;Pwd={s};'])('%s hides its password', async (text) => {
    expect(await wrong(text, '/Xk9mQ2a')).toEqual([]);
    expect(await wrong(text, 'Hx7mQ2z')).toEqual([]);
  });
});

describe('a brace placeholder is left whole, a braced password hidden whole', () => {
  it.each([
    'Password={0};Server={1};',
    'Server={1};Password={0};',
    'Server={1};Uid={2};Pwd={3};',
    'Password={name};Server={1};',
    'Server={host};Password={dbPassword};',
    'password={0}',
    'password: {1}',
    'Password={0,-8};Server={1:x};',
  ])('%s stays as written', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  it.each(['Server=db;Uid=sa;Pwd={s};', 'Pwd={s};Server=db;Uid=sa;', 'password={s}'])('%s hides its braced password whole', async (text) => {
    expect(await wrongAtDepths(text.replace('{s}', '{Hx7mQ2z}'), text.replace('{s}', '[REDACTED]'), [0, 1, 2, 3])).toEqual([]);
  });

  it("an ODBC password braced round a `;` is hidden whole, none of it left after the `;`", () => {
    expect(redactSecrets('Server=db;Uid=sa;Pwd={Hx7;mQ2z};')).toBe('Server=db;Uid=sa;Pwd=[REDACTED];');
  });
});

describe("prose's `password: |` is no YAML block", () => {
  it.each([
    'the password: |\n  is a pipe\nfoo',
    'I wrote the password: |\n  is the separator here\n  and more words',
    'the password: | is a pipe',
    '| password: | hunter |\n| --- | --- |',
    '| user | password: |\n  | ana | x |',
  ])('%s stays as written', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  it.each([
    String.raw`const config = "password: |\n  Hx7mQ2zLw9\nuser: ana";`,
    String.raw`yaml = 'db:\n  password: >-\n    Hx7mQ2zLw9\n'`,
  ])("%s (a block's line breaks written out in code) keeps its marker and hides its value", (text) => {
    expect(redactSecrets(text)).toBe(text.replace('Hx7mQ2zLw9', '[REDACTED]'));
  });

  it.each([
    'password: |\n  {s}\n',
    'password: |\n  {s}\nuser: ana',
    'db:\n  password: >-\n    {s}\n  user: ana',
    'Yesterday I pasted password: |\n  {s}\nuser: app into the settings page.',
  ])('%s hides its value', async (text) => {
    expect(await wrong(text, 'Hx7mQ2zLw9')).toEqual([]);
  });
});

/*
 * Each hidden value's span was cut at its string's closing quote by a search from the span's start to the
 * text's next quote: in one JSON string of thousands of hidden values that is the string's end, so the time
 * grew with the square of the string's length (2 MB of `pwd=x ` took 14.5 times as long as 500 KB; 100 s in all).
 */
describe('a JSON string of many hidden values redacts in time growing with its length', () => {
  it('thousands of short passwords in one JSON string', () => {
    expect(redactionGrowth((chars) => fill(chars, 'pwd=x ', '{"output":"', '"}'), 2_000_000)).toBeLessThan(LINEAR_GROWTH);
  }, 180_000);

  it.each([
    ['YAML blocks JSON-escaped', (chars: number) => fill(chars, String.raw`password: |\n  x\n`, '{"output":"', '"}')],
    ['white space after a block marker', (chars: number) => fill(chars, ' ', 'password: |')],
    ['escaped line breaks after a block marker', (chars: number) => fill(chars, String.raw` \n`, '{"output":"password: |', '"}')],
  ])('%s', (_name, make) => {
    expect(redactionGrowth(make)).toBeLessThan(LINEAR_GROWTH);
  }, 60_000);
});
