import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';
import { allWays, nested, wrongAtDepths } from './depth-harness.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * The gaps the last attack round (attack-s49) left: a Markdown table whose header alone names the secret column,
 * a bold label closed before its colon (`**Token**: …`), an assignment list that opens with a working directory,
 * and a letters-only password in an explicit assignment. Each leak case here fails on the code before this file;
 * each "stays" case guards ordinary text next to the rule it checks.
 */

const DEPTHS = [0, 1, 2, 3];

/** `text` with `{s1}`, `{s2}`, … as `secrets`, at JSON depths 0 to 3, every way: what is not the text with them as REDACTED. */
async function wrong(text: string, ...secrets: string[]): Promise<string[]> {
  const fill = (value: (i: number) => string) => secrets.reduce((t, _s, i) => t.replaceAll(`{s${i + 1}}`, value(i)), text);
  return wrongAtDepths(
    fill((i) => secrets[i]!),
    fill(() => '[REDACTED]'),
    DEPTHS,
  );
}

/** `text` at JSON depths 0 to 3, every way: what does not come back unchanged. */
async function changed(text: string): Promise<string[]> {
  return wrongAtDepths(text, text, DEPTHS);
}

describe("leak: a Markdown table whose header row alone names the secret column", () => {
  it.each([
    ['| password |\n|---|\n| {s1} |', 'Xk9mQ2zLw9'],
    ['| Password |\n| --- |\n| {s1} |\n| {s2} |', 'Xk9mQ2zLw9', 'Tr0ub4dor&3'],
    ['| User | Password |\n|---|---|\n| ana | {s1} |\n| bob | {s2} |', 'Xk9mQ2zLw9', 'hunter2'],
    ['| User | Password | Role |\n|:--|:--:|--:|\n| ana | {s1} | admin |', 'Xk9mQ2zLw9'],
    ['User | Password\n--- | ---\nana | {s1}\nbob | {s2}', 'Xk9mQ2zLw9', 'Tr0ub4dor&3'],
    ['| User | **Password** |\n|---|---|\n| ana | `{s1}` |', 'Xk9mQ2zLw9'],
    ['| Host | DB password |\n|---|---|\n| db1 | {s1} |', 'Xk9mQ2zLw9'],
    ['| Service | API key |\n|---|---|\n| billing | {s1} |', 'Xk9mQ2zLw9aaBB'],
    ['| Service | Token |\n|------|------|\n| github | {s1} |', 'Xk9mQ2zLw9aaBB'],
    ['| Name | Secret | Notes |\n|---|---|---|\n| prod | {s1} | rotate monthly |', 'Xk9mQ2zLw9'],
    ['| Name | client_secret |\n|---|---|\n| web | {s1} |', 'Xk9mQ2zLw9'],
    ['| Env | Access token | Owner |\n|---|---|---|\n| prod | {s1} | ana |\n| dev | {s2} | bob |', 'Xk9mQ2zLw9aaBB', 'Qz8wLm3nKp7vRt'],
    ['| secret |\n|---|\n| {s1} |', 'xKqmPzRtWv'],
    // The header's colon is the label's; a value's own is the password's.
    ['| User | **Password:** |\n|---|---|\n| ana | {s1} |', 'Xk9mQ2zLw9:'],
    ['Accounts:\n\n| user | password |\n|---|---|\n| ana | {s1} |\n\nDone.', 'Tr0ub4dor&3'],
  ])('%j', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });

  it.each([
    // A description table names the column and its type, a rule, a length or an algorithm, as the two-cell rows do.
    '| Field | Type |\n|---|---|\n| password | string |',
    '| Name | Password |\n|---|---|\n| ana | |',
    '| Field | Password |\n|---|---|\n| type | string |\n| min | 8-64 |\n| algorithm | bcrypt |',
    // Letters alone in a password's column are a status as often as a password (attack-s49, the lead's decision).
    '| User | Password |\n|---|---|\n| ana | letmein |\n| bob | pending |\n| carol | rotated |',
    '| Service | Password | Token |\n|---|---|---|\n| db | yes | no |\n| api | ✅ | ❌ |',
    // A secret's column that names secrets rather than gives them: an environment variable's or a resource's name.
    '| Secret | Description |\n|---|---|\n| `DOCKERHUB_TOKEN` | Docker Hub token |\n| `NPM_TOKEN` | npm publish token |',
    '| Secret | Used by |\n|---|---|\n| npm_token | release |\n| my-app-secret | api |',
    '| Token | Scope |\n|---|---|\n| `${{ secrets.GITHUB_TOKEN }}` | repo |',
    // A token's column holds what a token looks like or nothing: sentences, counts, words.
    '| Token | Meaning |\n|---|---|\n| LPAREN | an opening bracket |\n| IDENT | a name |',
    '| Model | Tokens |\n|---|---|\n| small | 128000 |\n| large | 1,000,000 |',
    '| Model | Max tokens |\n|---|---|\n| small | 4096x2 |',
    '| Step | Token |\n|---|---|\n| 1 | sent to the server |',
    // A header that names no secret; a column past the name's; a header with no delimiter row under it.
    '| Setting | Status |\n|---|---|\n| Password | Fixed |',
    '| User | Password | Note |\n|---|---|---|\n| ana | | v2-rollout |',
    '| User | Password |\n| ana | x |',
    '| Password policy | Value |\n|---|---|\n| min length | 12 |\n| rotation | 90d |',
    // A header in a string in code, its line breaks written out: the row shape took the written `\n` for a value.
    'const t = "| User | Password |\\n|---|---|\\n| ana | |";',
    // A table of commands, or a code block's pipes: no header row names a secret there.
    '```\nps aux | grep password | head\n```',
  ])('stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('a secret column read from a header alone: ordinary documentation values stay shown (review of 6a7a444)', () => {
  it.each([
    // A secret's or a version's name (kebab or dotted, lower case, a version's or an ordinal's digits), a date's format.
    '| Secret | Used by |\n|---|---|\n| db-creds-v2 | api |\n| tls-cert-01 | ingress |\n',
    '| Component | Version | Secret |\n|---|---|---|\n| vault | 1.15.2 | kv-v2 |\n',
    '| Field | Token |\n|---|---|\n| iso | YYYY-MM-DDTHH:mm:ssZ |\n',
    // Where a key or a credential is kept, not it: a URI, an ARN, a path.
    '| Env | Signing key |\n|---|---|\n| prod | kms://alias/prod-signing-2 |\n| ci | arn:aws:kms:us-east-1:123456789012:key/abcd |\n',
    '| Service | Credential |\n|---|---|\n| GCS | workload-identity-v1 |\n| DB | vault:db/creds/app |\n',
    '| Host | Private key |\n|---|---|\n| web1 | ~/.ssh/id_ed25519 |\n| web2 | /etc/ssl/private/web2.key |\n',
    // A header alone is weaker than a row naming its own secret: a word with a year is no token.
    '| Release | Token |\n|---|---|\n| spring | release2024 |\n',
  ])('stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });

  it.each([
    // Beside the names above, a value in the same column is still hidden.
    ['| Secret | Used by |\n|---|---|\n| db-creds-v2 | api |\n| {s1} | web |', 'Xk9mQ2zLw9'],
    ['| User | Password |\n|---|---|\n| ana | {s1} |\n| bob | {s2} |', 'hunter2', 'Tr0ub4dor-3X'],
    // One word and a number is how a person makes a password, not a name.
    ['| User | Password |\n|---|---|\n| ana | {s1} |\n| bob | {s2} |', 'pass-1234', 'summer-2024'],
    ['| Host | Private key |\n|---|---|\n| web1 | {s1} |', '/Xk9mQ2zL/w9aaBBc'],
    ['| Name | Token |\n|---|---|\n| ci | {s1} |', '3f9a8c7d2e1b4a5c6d7e8f9a0b1c2d3e'],
    ['| Env | Signing key |\n|---|---|\n| prod | {s1} |', 'Xk9m/Qz+Lw2aBc=='],
    ['| Service | Credential |\n|---|---|\n| GCS | workload-identity-v1 |\n| api | {s1} |', 'Qz8wLm3nKp7vRt'],
    ['| Field | Token |\n|---|---|\n| bot | {s1} |', 'Xk9mQ2zLw9aaBB'],
  ])('hidden: %j', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });

  it('a URI is left to the URL shapes, which hide the password in it', async () => {
    const text = '| Service | Credential |\n|---|---|\n| db | postgres://ana:Xk9mQ2zLw9@db:5432/app |';
    for (const level of DEPTHS) for (const out of await allWays(nested(text, level))) expect(out).not.toContain('Xk9mQ2zLw9');
    expect(redactSecrets(text)).toContain('postgres://ana:[REDACTED]@db:5432/app');
  });
});

describe('leak: a secret column\'s value shaped as a name, a path or a URL (review of ae7eaa4)', () => {
  it.each([
    // Words and a number are how a person makes a password: under a password's header only letters alone name one.
    ['| User | Password |\n|---|---|\n| ana | {s1} |\n| bob | {s2} |', 'blue-dog-42', 'qwerty-asdf-12'],
    ['| User | Password |\n|---|---|\n| ana | {s1} |\n| bob | {s2} |', 'letmein-now-2024', 'admin-pass-v1'],
    ['| User | Password |\n|---|---|\n| ana | {s1} |', 'prod.db.pass.7x'],
    // Elsewhere a joined name's number is a version, an ordinal or a dotted number, or it is a password.
    ['| Service | Secret |\n|---|---|\n| api | {s1} |\n| db | {s2} |', 'winter-is-coming-99', 'prod.db.pass.7x'],
    ['| Name | Token |\n|---|---|\n| ci | {s1} |', 'blue-dog-42'],
    ['| Env | API key |\n|---|---|\n| prod | {s1} |', 'pass-1234'],
    ['| Name | Token |\n|---|---|\n| ci | {s1} |', 'pass-1234'],
    ['| Service | Credential |\n|---|---|\n| db | {s1} |', 'pass-1234'],
    ['| Env | Access token |\n|---|---|\n| prod | {s1} |', 'pass-1234'],
    // A design token's name under a token's header reads as a password now (`monkey.banana.7`): hidden, shown before.
    ['| Token | Value |\n|---|---|\n| {s1} | #1a73e8 |', 'color.blue.500'],
    // A path, a store's reference or a URL whose parts look random holds the secret; under a password's header, any.
    ['| Service | Secret |\n|---|---|\n| hook | {s1} |', 'https://example.com/k9mq2zlw9a8b7c6d5e4f3g2h1'],
    ['| Name | Token |\n|---|---|\n| hook | {s1} |', 'https://example.com/k9mq2zlw9a8b7c6d5e4f3g2h1'],
    ['| Host | Password |\n|---|---|\n| db | {s1} |', '/k9mq2zlw9/a8b7c6d5e4'],
    ['| Env | API key |\n|---|---|\n| prod | {s1} |', '/k9mq2zlw9/a8b7c6d5e4'],
    ['| Service | Credential |\n|---|---|\n| db | {s1} |', 'vault:k9mq2zlw9/a8b7c6d5'],
    ['| Service | Secret |\n|---|---|\n| db | {s1} |', 'tok:a8b7c6d5e4/f3g2'],
    // A word joined by an underscore to a bare number under a password's header (review of 906fb10); `pw_2x` stays a name.
    ['| User | Password |\n|---|---|\n| ana | {s1} |\n| bob | {s2} |', 'summer_2024', 'admin_123'],
    ['| User | Password |\n|---|---|\n| ana | {s1} |\n| bob | {s2} |', 'ADMIN_2024', 'blue_dog_42'],
  ])('hidden: %j', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });
});

describe('leak: a quote in a table header cell shifted the columns', () => {
  it.each([
    ['| "User" | Password |\n|---|---|\n| ana | {s1} |', 'Xk9mQ2zLw9'],
    ['| "Host" | Env | Token |\n|---|---|---|\n| db1 | prod | {s1} |', 'Xk9mQ2zLw9aaBB'],
    ["| 'User' | Password |\n|---|---|\n| ana | {s1} |", 'Xk9mQ2zLw9'],
    ['| User "a" | Note | Password |\n|---|---|---|\n| ana | "x" | {s1} |', 'Xk9mQ2zLw9'],
    ['| "Host:" | Password |\n|---|---|\n| db1 | {s1} |', 'Xk9mQ2zLw9'],
  ])('%j', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });

  it.each([
    // The column the quote would have shifted a secret's name onto stays shown.
    '| "Password" | Env |\n|---|---|\n| set | prod |',
    '| "Host" | Token | Env |\n|---|---|---|\n| db1 | | prod-2x9 |',
  ])('stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('a bold label is judged as the assignment of its name is', () => {
  // The assignment shapes hide these (`private_key: ~/.ssh/id_ed25519`, `client_key: web-client-prod-2`,
  // `token: see_below_v2`): a bold label says the same name, so it hides the same values.
  it.each([
    ['**Private key**: {s1}', 'private_key: {s1}', '~/.ssh/id_ed25519'],
    ['**Client key**: {s1}', 'client_key: {s1}', 'web-client-prod-2'],
    ['**Token**: {s1}', 'token: {s1}', 'see_below_v2'],
    ['**Token**: {s1}', 'token: {s1}', 'required'],
    ['**API key:** {s1}', 'api_key: {s1}', '`OPENAI_API_KEY`'],
  ])('%j as %j with %s', (bold, assigned, value) => {
    const hidden = (text: string) => redactSecrets(text.replace('{s1}', value)) !== text.replace('{s1}', value);
    expect(hidden(bold)).toBe(hidden(assigned));
  });
});

describe('leak: a secret in quotes or on a diff line after its name', () => {
  it.each([
    ['+PASSWORD="{s1}"', 'Xk9mQ2zLw9'],
    ['-  api_key: \'{s1}\'', 'Xk9mQ2zLw9aaBB'],
    ['+  password: "{s1}"', 'hunter-2X9!'],
    ["-DB_PASSWORD='{s1}'", 'hunter-2X9!'],
    ['@@ -1,2 +1,2 @@\n-PASSWORD="{s1}"\n+PASSWORD="{s2}"', 'Xk9mQ2zLw9', 'Tr0ub4dor&3'],
  ])('already hidden: %j', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });
});

describe('leak: a credential after a bold label closed before its colon', () => {
  it.each([
    ['**Token**: {s1}', 'Xk9mQ2zLw9aaBB'],
    ['**Token**: {s1}', 'hunter-2X9!'],
    ['**Secret**: {s1}', 'Xk9mQ2zLw9aaBB'],
    ['- **API_KEY**: {s1}', 'Xk9mQ2zLw9aaBB'],
    ['__Access token__: {s1}', 'Xk9mQ2zLw9aaBB'],
    ['**Token**: `{s1}`', 'hunter-2X9!'],
    ['**Password:** {s1}', 'hunter-2X9!'],
    ['**Password**: {s1}', 'hunter-2X9!'],
    ['**Token:** {s1}', 'Xk9mQ2zLw9aaBB'],
    ['**API key:** {s1}', 'Xk9mQ2zLw9aaBB'],
    ['**API key**: {s1}', 'Xk9mQ2zLw9aaBB'],
    ['- **Secret key:** `{s1}`', 'hunter-2X9!'],
  ])('%j with %s', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });

  it.each([
    '**Token**: see the vault',
    '**Token**: required',
    '**Token**: `GITHUB_TOKEN`',
    '**Tokens**: 4096',
    '**Max tokens**: 4096',
    '**Secret**: stored in 1Password',
    '**Token**: ${{ secrets.NPM_TOKEN }}',
    '**Token**: expired',
    '**API key:** see the vault',
    '**API key**: `OPENAI_API_KEY`',
    '**API key:** required for the paid tier',
  ])('stays: %j', async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('leak: a secret assignment after a working directory on the same line', () => {
  it.each([
    // A working directory of one folder is read as a password (isDirectory: `Pwd=/Xk9mQ2a;`), and hidden too.
    ['PWD={s1}; SECRET={s2}', '/x', 'Xk9mQ2zLw9aa'],
    ['PWD=/home/ana; SECRET={s1}', 'Xk9mQ2zLw9aa'],
    ['PWD=/home/ana/src; DB_PASSWORD={s1}', 'hunter-2X9!'],
    ['OLDPWD=/home/ana/src; API_KEY={s1}', 'Xk9mQ2zLw9aaBB'],
    ['PWD=/home/ana;SECRET={s1};', 'Xk9mQ2zLw9aa'],
    ['PWD=/home/ana;PASSWORD={s1};', 'hunter-2X9!'],
    ['PWD=/home/ana OLDPWD=/home/ana/src TOKEN={s1}', 'Xk9mQ2zLw9aaBB'],
    ['PWD=~/src; export PASSWORD={s1}', 'Tr0ub4dor&3'],
  ])('already hidden: %j', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });

  it.each(['PWD=/home/ana; OLDPWD=/home/ana/src', 'PWD=/home/ana/src;SERVER=x;'])("the working directory stays: %j", async (text) => {
    expect(await changed(text)).toEqual([]);
  });
});

describe('a letters-only password in an explicit assignment', () => {
  it.each([
    ['password={s1}', 'correcthorsebatterystaple'],
    ['export PASSWORD={s1}', 'correcthorsebatterystaple'],
    ['DB_PASSWORD={s1}', 'correcthorsebatterystaple'],
    ['  password: {s1}', 'correcthorsebatterystaple'],
    ['{"password": "{s1}"}', 'correcthorsebatterystaple'],
    ['password: "{s1}"', 'correcthorsebatterystaple'],
  ])('already hidden: %j', async (text, ...secrets) => {
    expect(await wrong(text, ...secrets)).toEqual([]);
  });
});

describe('speed: the rules added here stay linear', () => {
  /** `unit` repeated to `n` characters. */
  const fill = (unit: string) => (n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

  it.each([
    ['tables under a password header', fill('| User | Password |\n|---|---|\n| ana | Xk9mQ2zLw9 |\n\n')],
    ['one long table', (n: number) => `| User | Password |\n|---|---|\n${fill('| ana | Xk9mQ2zLw9 |\n')(n)}`],
    ['a wide header row', (n: number) => `| Password ${fill('| a ')(n)}\n|---|---|\n| x | y |`],
    ['a header and a long delimiter row', (n: number) => `| Password |\n${fill('|---')(n)}`],
    ['header rows with no delimiter row', fill('| Token | Password |\n')],
    ['a long row under a header', (n: number) => `| Password |\n|---|\n| ${'a'.repeat(n)}`],
    ['written-out breaks', fill('| Token |\\n|---|\\n| Xk9mQ2zLw9aaBB |\\n')],
    ['bold labels closed before the colon', fill('**Token**: Xk9mQ2zLw9aaBB\n')],
    ['bold marks and spaces', (n: number) => `**Token**${' '.repeat(n)}`],
    ['header rows holding quotes', fill('| "User" | Password |\n|---|---|\n| ana | Xk9mQ2zLw9 |\n\n')],
    ['a long line of JSON strings', fill('"k":"| Token | a ",')],
    ['quotes before one header', (n: number) => `${fill('"a", ')(n)}| Token |\n|---|\n| Xk9mQ2zLw9aaBB |`],
    ['tables after a JSON text\'s start', fill('{"output":"| User | Password |\n|---|---|\n| ana | Xk9mQ2zLw9 |\n"}\n')],
    ['a long cell under a token header', (n: number) => `| Token |\n|---|\n| ${fill('%Y')(n)}! |`],
    ['paths and names under a token header', (n: number) => `| Token |\n|---|\n${fill('| ~/.ssh/id_ed25519 |\n| db-creds-v2 |\n| YYYY-MM-DD |\n')(n)}`],
    ['one long path-like cell under a secret header', (n: number) => `| Secret |\n|---|\n| https://a@b${fill('/a.b-c_d@e1')(n)}/k9m |`],
    ['one long joined name under a token header', (n: number) => `| Token |\n|---|\n| a${fill('-v1.2.3-01')(n)}-42 |`],
  ] as const)('%s', (_name, make) => {
    expect(redactionGrowth(make, 400_000)).toBeLessThan(LINEAR_GROWTH);
  }, 120_000);
});
