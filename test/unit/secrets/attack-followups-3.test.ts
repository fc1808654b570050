import { describe, expect, it } from 'vitest';
import { allWays, wrongAtDepths } from './depth-harness.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * What a third look at passwords in JSON strings found: a line break escaped three or more levels deep
 * (`\\\\n`) right after a bare password was read as part of it, and the span took the backslashes of the
 * levels above, which left no JSON; a quoted password four or more levels deep (its quote escaped
 * `\\\\\\\\\\\\\\\"`) was not found at all. And a second password after a command that takes one, read
 * forward from the command, must be hidden as the first is.
 */

const DEPTHS = [0, 1, 2, 3, 4, 5, 6];

/**
 * For `text` (its password written `{pw}`) at each depth, every way whose redaction is not, read back to the
 * command, the text with each password replaced by REDACTED and all else as written: with what came back.
 */
async function wrong(text: string, passwords: readonly string[], depths: readonly number[] = DEPTHS): Promise<string[]> {
  let i = 0;
  const written = text.replace(/\{pw\}/g, () => passwords[i++]!);
  return wrongAtDepths(written, text.replaceAll('{pw}', '[REDACTED]'), depths);
}

describe('a line break written as an escape right after a bare password ends it, at any depth', () => {
  it('{"command":"mysql -u root -pS3cr3t!\\nexit"} hides S3cr3t! and keeps \\nexit', async () => {
    const stored = '{"command":"mysql -u root -pS3cr3t!\\nexit"}';
    for (const out of await allWays(stored)) expect(out).toBe('{"command":"mysql -u root -p[REDACTED]\\nexit"}');
  });

  it.each([
    'mysql -u root -p{pw}\nexit',
    'mysql -u root -p{pw}\r\nexit',
    'mysql -u root -p{pw}\texit',
    'deploy --password {pw}\nexit',
    'PGPASSWORD={pw}\npsql -h db',
    'docker login -u ana -p {pw}\nexit',
    'sshpass -p {pw}\nssh ana@host',
    'redis-cli -a {pw}\nping',
    'curl -u admin:{pw}\nexit',
  ])('%s', async (text) => {
    expect(await wrong(text, ['S3cr3t!9Zq'])).toEqual([]);
  });
});

describe('quoted passwords and command flags in JSON strings 4 or more levels deep', () => {
  it.each([
    'mysql -u root -p"{pw}" shop',
    "mysql -u root -p'{pw}' shop",
    'export PGPASSWORD="{pw}"; psql -h db',
    "DB_PASSWORD='{pw}' ./start",
    'run --password "{pw}" --yes',
    'sshpass -p "{pw}" ssh ana@host',
    'docker login -u ana -p "{pw}" registry.io',
    'curl -u "admin:{pw}" https://x',
    'redis-cli -a "{pw}" ping',
    '{"password": "{pw}", "user": "ana"}',
  ])('%s', async (text) => {
    expect(await wrong(text, ['S3cr3t!9Zq'])).toEqual([]);
  });

  it('a password holding the other kind of quote, or a space, is hidden whole', async () => {
    expect(await wrong('export PGPASSWORD="{pw}"; psql', ["s3cr';et9Zq"])).toEqual([]);
    expect(await wrong(`sshpass -p "{pw}" ssh ana@host`, ['Ss9 Zq1xyz'])).toEqual([]);
    expect(await wrong(`export PGPASSWORD='{pw}'; psql`, [`s3cr'\\''et9Zq`], [4, 5, 6])).toEqual([]);
  });

  it('a bare password ending the innermost string leaves the quotes that close every level', async () => {
    for (const text of ['mysql -u root -p{pw}', 'redis-cli -a {pw}', 'PGPASSWORD={pw}']) expect(await wrong(text, ['Xray9Zq1'])).toEqual([]);
  });
});

describe('a second password after the same command is hidden too', () => {
  it.each([
    ['sshpass', 'sshpass -p {pw} ssh host && sshpass -p {pw} ssh host2'],
    ['docker login', 'docker login -u a -p {pw} r1; docker login -u b -p {pw} r2'],
    ['mysql after -e "…"', 'mysql -p{pw} -e "select 1" ; mysql -p{pw}'],
    ['mysql on the next line', "mysql -p{pw} -e 'select 1'\nmysql -p{pw} shop"],
    ['redis-cli', 'redis-cli -a {pw} ping; redis-cli -a {pw} ping'],
    ['curl', 'curl -u a:{pw} https://x && curl -u b:{pw} https://y'],
    ['sqlcmd', 'sqlcmd -P {pw} -Q "select 1"; sqlcmd -P {pw}'],
    ['ldapsearch', 'ldapsearch -x -w {pw} -b dc=x | ldapsearch -x -w {pw}'],
    ['quoted, then bare', `sshpass -p '{pw}' ssh host && sshpass -p {pw} ssh host2`],
    ['double quotes both', 'docker login -u a -p "{pw}" r1; docker login -u b -p "{pw}" r2'],
    ['mysql quoted both', `mysql -p'{pw}' -e "select 1" ; mysql -p"{pw}"`],
    ['three mysql', 'mysql -p{pw} a; mysql -p{pw} b; mysql -p{pw} c'],
  ])('%s', async (_name, text) => {
    expect(await wrong(text, ['one1Xq9Z', 'two2Xq9Z', 'tri3Xq9Z'])).toEqual([]);
  });

  it('after a first value that is a reference, the second command still hides its password', async () => {
    expect(await wrong('docker login -u a -p $PW r1; docker login -u b -p {pw} r2', ['two2Xq9Z'])).toEqual([]);
    expect(await wrong('sshpass -p "$PASS" ssh h && sshpass -p {pw} ssh h2', ['two2Xq9Z'])).toEqual([]);
  });
});

// How much longer four times the text takes, not how many ms: a slower machine passed the old bound of 200 ms.
describe('1 MB adversarial lines of the new shapes read in a moment', () => {
  const N = 1024 * 1024;
  const fill = (head: string, unit: string) => (chars: number) => (head + unit.repeat(Math.ceil(chars / unit.length))).slice(0, chars);
  /** A JSON text whose one string holds `body` as stored. */
  const json = (body: (chars: number) => string) => (chars: number) => `{"output":"${body(chars)}"}`;
  it.each([
    ['backslashes then n after -p', json(fill('mysql -pX', '\\'.repeat(16) + 'n'))],
    ['a run of backslashes after -p', json(fill('mysql -pX', '\\\\'))],
    ['deep quotes after -p', json(fill('mysql -p', '\\'.repeat(15) + '"'))],
    ['deep quotes after --password', json(fill('x --password ', '\\'.repeat(31) + '"a'))],
    ['deep quotes after PASSWORD=', json(fill('PASSWORD=', '\\'.repeat(15) + '"a '))],
    ['sshpass -p "$P" repeated, four levels deep', json(fill('', `sshpass -p ${'\\'.repeat(15)}"$P${'\\'.repeat(15)}" `))],
    ['docker login -p $P repeated', fill('', 'docker login -p $P; ')],
    ['mysql -p repeated after one mysql', fill('mysql', ' -p\\\\\\\\\\\\\\"')],
    ['escaped line breaks after a password', json(fill('mysql -pX', '\\\\\\\\nX'))],
  ])('%s', (name, make) => {
    expect(redactionGrowth(make, N), name).toBeLessThan(LINEAR_GROWTH);
  });
});
