import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';
import { allWays, wrongAtDepths } from './depth-harness.js';

/**
 * What a fifth look at core/secrets found: passwords missed in an ODBC string (`Pwd=…;`) and an env line
 * (`DB_PASS=…;`), after PowerShell's single-dash `-Password` and `az login -p`, and in Markdown's bold labels
 * (`**Password:** …`); and prose destroyed: a word ending a JSON string ("password is incorrect") or a
 * flag's name in prose ("the --password flag is deprecated") hidden as a password.
 */

const DEPTHS = [0, 1, 2, 3];
const S = 'Hx7mQ2zLw9';

/**
 * For `text` (its secret written `{s}`, S each time) at each depth, every way whose redaction is not, read back
 * to the innermost text, the text with each secret replaced by REDACTED and all else as written.
 */
async function wrong(text: string): Promise<string[]> {
  return wrongAtDepths(text.replaceAll('{s}', S), text.replaceAll('{s}', '[REDACTED]'), DEPTHS);
}

describe('a password shaped like an identifier before `;` in a connection string or env line is hidden', () => {
  it.each([
    'Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd={s};',
    'Server=db;Database=shop;User Id=sa;Password={s};',
    'DB_PASS={s};',
    'export DB_PASS={s}; ./start',
    'Data Source=db;User ID=sa;PWD={s};Encrypt=yes',
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});

describe("PowerShell's single-dash -Password and az login -p are read", () => {
  it.each([
    'Invoke-Sqlcmd -ServerInstance db -Username sa -Password {s} -Query "select 1"',
    'Connect-VIServer -Server vc -User admin -Password {s}',
    "Connect-VIServer -Server vc -User admin -Password '{s}'",
    'az login -u ana -p {s}',
    'az login --username ana -p {s} --tenant t1',
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});

describe("Markdown's bold password label is read", () => {
  it.each(['* **Password:** {s}', '**Password**: `{s}`', '- **Password**: {s}', '| **Password:** | {s} |'.replace(' | {s} |', ' {s}')])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});

describe('a prose word ending a JSON string is kept as at depth 0', () => {
  it.each([
    'Error: password is incorrect',
    'the password is wrong',
    'password is missing',
    'the pin is 4 digits',
    'Error: password is incorrect.',
    'the password is wrong.',
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  it('{"output":"Error: password is incorrect"} stays whole', async () => {
    for (const out of await allWays('{"output":"Error: password is incorrect"}')) expect(out).toBe('{"output":"Error: password is incorrect"}');
  });

  it('a password ending a JSON string is still hidden', async () => {
    expect(await wrong('the password is {s}')).toEqual([]);
  });
});

describe("a flag's name in prose is no password", () => {
  it.each([
    'The --password flag is deprecated',
    'the --token flag overrides the config file',
    'set --api-key once and forget it',
    'sshpass -p flag is insecure',
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  it('--password with a value is still hidden', async () => {
    expect(await wrong('deploy --password {s} --env prod')).toEqual([]);
  });
});

describe('more password prompts and settings', () => {
  it.each([
    'Password for root: {s}',
    '[sudo] password for ana: {s}',
    'requirepass {s}',
    'masterauth {s}',
    'ssh-keygen -t ed25519 -N {s} -f key',
    'ssh-keygen -p -P {s} -N {s} -f key',
    'setx DB_PASSWORD {s}',
    'SETX /M DB_PASS "{s}"',
    '<add key="SmtpPassword" value="{s}" />',
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  // A YAML block scalar: the value on the lines after `|` or `>`, indented under its key (attack-followups-6 has more).
  it.each(['password: |\n  {s}\nuser: ana', 'db:\n  password: >-\n    {s}\n  user: ana'])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});

describe('prompts and words that stay', () => {
  it.each(['Password for root: incorrect', 'Password for ana: see below', 'requirepass yes', "ssh-keygen -N '' -f key", 'setx PATH C:\\tools', '<add key="MaxTokens" value="4096" />', '<add key="SecretName" value="smtp-creds" />', 'The -Password parameter takes a SecureString'])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});

// A reviewer's look at the shapes above: a prompt's colon with a line break after it, and a bold label with a
// prose word after it, took the next line's or the sentence's word; setx and .NET keys about passwords were hidden.
describe('prompts, bold labels and settings about passwords that stay', () => {
  it.each([
    '[sudo] password for ana: \nSorry, try again.',
    '[sudo] password for ana: \n\nReading package lists...',
    'password for root: Authentication failure',
    'Enter password for alice: Permission denied',
    'Forgot password for john: click here',
    '**Password:** See below',
    '**Password:** is stored in vault',
    '**Password:** Use the one from 1Password',
    '<add key="PasswordMinLength" value="8" />',
    '<membership PasswordFormat="Hashed" />',
    'setx PASSWORD_LENGTH 12',
    'setx PASSWORD_POLICY strict',
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});

describe('prompts and bold labels answered, and short passwords in connection strings, are hidden', () => {
  it.each([
    '[sudo] password for ana: {s}',
    '[sudo] password for ana:\t{s}',
    '* **Password:** {s}',
    '**Password**: `{s}`',
    'Server=x;Uid=sa;Password=hunter2;'.replace('hunter2', '{s}'),
  ])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });

  it.each(['Server=x;Uid=sa;Password=hunter2;', 'Server=x;Uid=sa;Pwd=abcdefgh;', 'Data Source=db;User ID=sa;Password=hunter2;Encrypt=yes'])('%s hides its short password', (text) => {
    const out = redactSecrets(text);
    expect(out).not.toMatch(/hunter2|abcdefgh/);
    expect(out).toMatch(/(?:Password|Pwd)=\[REDACTED\];/);
  });
});

describe('a setting named for a password whose last word only looks like a rule is still hidden', () => {
  it.each(['setx PASSWORD_ADMIN {s}', '<add key="AdminPassword" value="{s}" />', '<add key="PASSWORDADMIN" value="{s}" />'])('%s', async (text) => {
    expect(await wrong(text)).toEqual([]);
  });
});
