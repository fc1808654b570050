import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';
import { nested, wrongAtDepths } from './depth-harness.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * What a read-only review of core/secrets/patterns.ts at b2cb115 found (numbered and diff YAML blocks,
 * a diff's removed lines, the Markdown password shape, braced placeholders): each case fails on that commit's code.
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

/** Whether any of `parts` is still in the redacted text, at JSON depths 0 to 3. */
function shownAtDepths(text: string, parts: readonly string[]): string[] {
  const out: string[] = [];
  for (const level of DEPTHS) {
    const res = redactSecrets(nested(text, level));
    for (const part of parts) if (res.includes(part)) out.push(`[L${level}] ${part}`);
  }
  return out;
}

describe('leak: a token block of several lines in numbered or diff output (isBlockSecret joined the marks in)', () => {
  it.each([
    '     2\u2192token: |\n     3\u2192  abcdEF12ghij34KLmn\n     4\u2192  opqr56STuv78wxyz\n',
    '     2\ttoken: |\n     3\t  abcdEF12ghij34KLmn\n     4\t  opqr56STuv78wxyz\n',
    '+token: |\n+  abcdEF12ghij34KLmn\n+  opqr56STuv78wxyz\n',
    '@@ -1,1 +1,4 @@\n db:\n+  private_key: |\n+    abcdEF12ghij34KLmn\n+    opqr56STuv78wxyz\n',
  ])('%j', (text) => {
    expect(shownAtDepths(text, ['abcdEF12ghij34KLmn', 'opqr56STuv78wxyz'])).toEqual([]);
  });

  it('a numbered block of words under token: stays', async () => {
    expect(await changed('     2\u2192token: >\n     3\u2192  the token the service\n     4\u2192  hands back on login\n')).toEqual([]);
  });
});

describe("leak: a diff's removed lines of a YAML password block (LINE_MARK took no `-`)", () => {
  it.each([
    '-password: |\n-  OldXk9mQ2zLw9\n+password: |\n+  NewXk9mQ2zLw9\n',
    '@@ -1,3 +1,3 @@\n db:\n-  password: |\n-    OldXk9mQ2zLw9\n+  password: |\n+    NewXk9mQ2zLw9\n',
    ' password: |\n-  OldXk9mQ2zLw9\n+  NewXk9mQ2zLw9\n',
  ])('%j', (text) => {
    expect(shownAtDepths(text, ['OldXk9mQ2zLw9', 'NewXk9mQ2zLw9'])).toEqual([]);
  });

  it('a YAML list item `- key: |` is still read as one (its value hidden, the dash kept)', () => {
    const out = redactSecrets('users:\n  - password: |\n      Xk9mQ2zLw9\n');
    expect(out).not.toContain('Xk9mQ2zLw9');
    expect(out).toContain('  - password: |');
  });

  it('a diff removing lines of prose under a setting stays', async () => {
    expect(await changed('-description: |\n-  the old words\n+description: |\n+  the new words\n')).toEqual([]);
  });
});

describe('over-hiding: the markdown-password shape hid ordinary table cells and fenced commands', () => {
  it.each([
    '| Password | *string |',
    '| Password | string? |',
    '| password | &str |',
    '| password | Option<String> |',
    '| password | 8-64 |',
    '| Password | 12+ |',
    '| password | min:8 |',
    '| Password | N/A |',
    '| --password | -p |',
    '| password | 2.1.0 |',
    '| pwd | /home/ana/src |',
    'Reset the admin password:\n```bash\n./scripts/reset-password.sh\n```',
    'Output of pwd:\n```\n/home/ana/proj\n```',
  ])('%j stays', async (text) => {
    expect(await changed(text)).toEqual([]);
  });

  it.each([
    '| Password | {s} |',
    '| **Password** | `{s}` |',
    '| DB_PASSWORD | {s} |',
    '**Password:**\n```\n{s}\n```',
  ])('still hidden: %j', async (text) => {
    expect(await wrong(text, 'Xk9mQ2zLw9')).toEqual([]);
  });

  it('still hidden: a password of letters and a symbol', async () => {
    expect(await wrong('| DB_PASSWORD | {s} |', 'hunter2!')).toEqual([]);
    expect(await wrong('| Password | {s} |', 'hunter!x')).toEqual([]);
  });
});

describe('over-hiding: braced placeholders named pw, cred, arg, param (BRACED_CREDENTIAL)', () => {
  it.each(['password={pw1}', 'Server=db;Uid=sa;Pwd={arg2};', 'Password={p1};', 'password={cred1}', 'Pwd={param3};'])('%j stays', async (text) => {
    expect(await changed(text)).toEqual([]);
  });

  it.each([['password={s}', '{hunter2}'], ['Server=db;Uid=sa;Pwd={s};', '{x9k2m7q4}'], ['Server=db;Uid=sa;Pwd={s};', '{s3cr3t_pw}'], ['password={s}', '{cargo2x}']])('still hidden: %s with %s', async (text, secret) => {
    expect(await wrong(text, secret)).toEqual([]);
  });
});

describe('speed: the YAML block and Markdown shapes stay linear', () => {
  it.each([
    ['numbered token blocks', (n: number) => '     2\u2192token: |\n     3\u2192  abcdEF12ghij34KLmn\n     4\u2192  opqr56STuv78wxyz\n'.repeat(Math.ceil(n / 80)).slice(0, n)],
    ['removed diff lines', (n: number) => '-password: |\n-  OldXk9mQ2zLw9\n'.repeat(Math.ceil(n / 30)).slice(0, n)],
    ['a long removed block', (n: number) => `-password: |\n${'-  abc\n'.repeat(Math.ceil(n / 7))}`.slice(0, n)],
    ['table cells', (n: number) => '| Password | *string |\n'.repeat(Math.ceil(n / 23)).slice(0, n)],
  ] as const)('%s', (_name, make) => {
    expect(redactionGrowth(make, 400_000)).toBeLessThan(LINEAR_GROWTH);
  });
});
