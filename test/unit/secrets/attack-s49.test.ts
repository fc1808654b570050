import { describe, expect, it } from 'vitest';
import { wrongAtDepths } from './depth-harness.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * Attack on 7ad0c5b (gaps-s49: braced passwords, connection-string paths, letters-only table and bold values,
 * fenced passphrases, `{0:…}` values). Each case fails on that commit's code. Over-redaction cases are ordinary
 * transcript text the change began to hide (they came back unchanged before it); leak cases are variants of the
 * shapes it reworked that still show a password.
 */

const DEPTHS = [0, 1, 2, 3];

/** `text` with `{s}` as `secret`, at JSON depths 0 to 3, every way: what is not the text with `{s}` as REDACTED. */
async function wrong(text: string, secret: string): Promise<string[]> {
  return wrongAtDepths(text.replaceAll('{s}', secret), text.replaceAll('{s}', '[REDACTED]'), DEPTHS);
}

/** `text` at JSON depths 0 to 3, every way: what does not come back unchanged. */
async function changed(text: string): Promise<string[]> {
  return wrongAtDepths(text, text, DEPTHS);
}

describe('over-redaction: a fence after a password label that holds a command or output, not a passphrase', () => {
  it.each([
    'Wrong password:\n```\nSorry, try again.\n```',
    'Output with a bad password:\n```text\nInvalid credentials\n```',
    'To rotate the password:\n```\nterraform apply\n```',
    'Reset the password:\n```\nbrew services restart postgresql\n```',
    'Reset the password:\n```\nuv run reset.py\n```',
    'Reset the password:\n```\ndjango-admin changepassword admin\n```',
    '**Password:**\n```\nStored in Vault\n```',
    '**Password:**\n```\nyour password here\n```',
    '**Password:**\n```\nleave it empty\n```',
  ])('stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('over-redaction: a status or description word alone after a bold password label or in a two-cell row', () => {
  it.each([
    '**Password:** Fixed',
    '- **Password:** Passed',
    '- [ ] **Password:** pending',
    '**Admin password:** Done',
    '| Setting | Status |\n|---|---|\n| Password | Fixed |',
    '| Finding | Severity |\n|---|---|\n| Password | High |',
    '| password | deprecated |',
    '| password | SecureString |',
    '| password | Basic |',
    '| password | #123 |',
    '| password | #1 |',
    '| password | omitted |',
    '| Password | Bearer |',
    '| Password | OAuth |',
    '| Password | 1Password |',
    '**Password:** 1Password',
    '| password | 8-64 |',
    '| password | >=8 |',
    '| password | 100% |',
  ])('stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('over-redaction: a format field or a code variable in braces', () => {
  it.each([
    'msg = "token={0.access_token}".format(resp)',
    'secret={0.client_secret}',
    'token={0:yyyy-MM-dd\'T\'HH:mm:ss}',
    '<PasswordStrength password={draft} />',
    '<ConfirmField password={confirm} />',
    'print(f"password={salt}")',
    'password={temp}',
    'password={tmp}',
    'password={hidden}',
    'password={mask}',
    'password={self}',
    'password={payload}',
    'password={row}',
    'password={ draft }',
  ])('stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('leak: a fenced password whose fence the label shape does not reach', () => {
  it.each([
    ['**Password:**\n\n```\n{s}\n```', 'Tr0ub4dor&3'],
    ['**Password:**\n~~~\n{s}\n~~~', 'Tr0ub4dor&3'],
    ['**Password:**\n````\n{s}\n````', 'Tr0ub4dor&3'],
    ['**Password:**\n```\n{s}\n\n```', 'Tr0ub4dor&3'],
  ])('%j with %s', async (text, secret) => {
    expect(await wrong(text, secret)).toEqual([]);
  });

  it.each([
    'Reset the password:\n\n```\nterraform apply\n```',
    'Reset the password:\n~~~\n./scripts/reset.sh\n~~~',
    'Wrong password:\n````\nSorry, try again.\n````',
  ])('a command or its output stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe("leak: a Markdown table's password whose name cell the row shape does not read", () => {
  it.each([
    ['| DB password | {s} |', 'Xk9mQ2zLw9'],
    ['| `password` | {s} |', 'Xk9mQ2zLw9'],
    ['| Password: | {s} |', 'Xk9mQ2zLw9'],
    ['| *Password* | {s} |', 'Xk9mQ2zLw9'],
  ])('%j with %s', async (text, secret) => {
    expect(await wrong(text, secret)).toEqual([]);
  });
});

describe('leak: variants of a braced or connection-string password', () => {
  it.each([
    ['password={s}', '{ hunter2 }'],
    ['Server=db;Uid=sa;Pwd={s};', 'Xk9\\mQ2zLw'],
    ['Server=db;Uid=sa;Pwd={s};', 'C:\\correct\\horse'],
    ['**Password** - {s}', 'Xk9mQ2zLw9'],
  ])('%j with %s', async (text, secret) => {
    expect(await wrong(text, secret)).toEqual([]);
  });

  it.each([
    '**Password** - see below',
    '**Password** - 8 characters minimum',
    '**Password** - required',
    'password={ getPassword() }',
    'PWD=C:\\Users\\ana;SERVER=x;',
    '| Reset password | Done |',
  ])('ordinary text stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('speed: the shapes changed after this attack stay linear', () => {
  /** `unit` repeated to `n` characters. */
  const fill = (unit: string) => (n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

  it.each([
    ['connection strings with backslashes', fill('Server=db;Uid=sa;Pwd=C:\\correct\\horse;\n')],
    ['a run of backslashes after Pwd=', (n: number) => `Server=db;Uid=sa;Pwd=a${'\\'.repeat(n)}`],
    ['table rows with a word before the name', fill('| DB password | Xk9mQ2zLw9 |\n| `password` | x |\n')],
    ['a long marked name cell', (n: number) => `| *${'a '.repeat(Math.ceil(n / 2))}`],
    ['fences with blank lines and tildes', fill('**Password:**\n\n~~~\nTr0ub4dor&3\n\n~~~\n')],
    ['line breaks after a label', (n: number) => `**Password:**${'\n'.repeat(n)}`],
    ['spaced braces', fill('password={ hunter2 } ')],
    ['an open spaced brace', (n: number) => `password={${' '.repeat(n)}`],
    ['bold labels and dashes', fill('**Password** - Xk9mQ2zLw9\n')],
    ['dashes after a bold label', (n: number) => `**Password**${' -'.repeat(Math.ceil(n / 2))}`],
    ['quoted format literals', fill("token={0:yyyy-MM-dd'T'HH:mm:ss} secret={0.client_secret} ")],
    ['an open quoted format literal', (n: number) => `token={0:${"'".repeat(n)}`],
    ['backslashes after a braced value', (n: number) => `password={salt}${'\\'.repeat(n)}`],
  ] as const)('%s', (_name, make) => {
    expect(redactionGrowth(make, 400_000)).toBeLessThan(LINEAR_GROWTH);
  }, 120_000);
});
