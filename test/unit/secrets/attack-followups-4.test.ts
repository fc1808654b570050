import { describe, expect, it } from 'vitest';
import { allWays, innermost, linted, nested, wrongAtDepths } from './depth-harness.js';

/**
 * What a fourth look at secrets in JSON strings found: secretlint's range in quotes is cut at the closing
 * quote (redact.ts withoutClosingQuote), but the quote before the range was looked for 8 characters back
 * only, so four or more levels deep (the quote escaped by 15, 31, … backslashes) it was not found and the
 * range ran over the strings' ends. And token-shaped values (vendor keys, AWS keys, a bearer token) nested
 * 1–6 levels deep must be hidden with each level still JSON, holding what it held but the secret.
 */

const DEPTHS = [0, 1, 2, 3, 4, 5, 6];

/**
 * For `text` (its secret written `{s}`) at each depth, every way whose redaction is not, read back to the
 * innermost text, the text with each secret replaced by REDACTED and all else as written: with what came back.
 */
async function wrong(text: string, secrets: readonly string[], ways = allWays, depths: readonly number[] = DEPTHS): Promise<string[]> {
  let i = 0;
  const written = text.replace(/\{s\}/g, () => secrets[i++]!);
  return wrongAtDepths(written, text.replaceAll('{s}', '[REDACTED]'), depths, ways);
}

// Made-up values of each vendor's shape.
const ANTHROPIC = `sk-ant-api03-${'Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jKl0nOp3rSt6vWx9zA2cDe5gHi8kLm1oPq4sTu7wXy0aBc3eFg6iJk9mNo2q'}AA`;
const GITHUB = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const AWS_ID = 'AKIAQ3EGUJZX5MNB7RTW';
const AWS_SECRET = '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';
const BEARER = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbmEifQ.Xk9qZ2mQ7pLw3RtY8uV1bN4cD6eF0gH2jK5lM';
const SLACK = `xoxb-${'1234567890'}-${'1234567890123'}-${'Ab3dEf6hIj9lMn2pQr5tUv8x'}`;
const OPENAI = `sk-proj-${'Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jKl0nOp3rSt6vWx9zA2cDe5gHi8kLm1oPq4'}`;
const GITHUB_PAT = 'github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijk';
const OPAQUE = 'Xk9qZ2mQ7pLw3RtY8uV1bN4cD6eF0gH2';
const STRIPE = 'sk_live_51Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7';
const NPM = 'npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1b2c3d4e5f6g7h8i9j0kAbCdEfGhIjKlMnOpQrStUvWxYz0123\nq9w8e7r6t5y4u3i2o1pAbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghi\n-----END RSA PRIVATE KEY-----';

describe("secretlint's range in quotes is cut at the closing quote at any depth", () => {
  it.each([
    `psql "{s}" -c 1`,
    `psql '{s}' -c 'select 1'`,
    `psql "{s}"`,
    `{"url": "{s}", "pool": 5}`,
    `DATABASE_URL="{s}" ./start`,
  ])('%s', async (text) => {
    expect(await wrong(text, ['postgresql://ana:pw@db/prod'], linted)).toEqual([]);
  });

  it('a mongodb URI in quotes, four to six levels deep, leaves every level JSON', async () => {
    expect(await wrong(`mongosh "{s}" --quiet`, ['mongodb://admin:Xk9qZ2mQ@db.example.com:27017/shop'], linted, [4, 5, 6])).toEqual([]);
  });
});

describe('token-shaped values nested 1–6 levels deep are hidden and every level stays JSON', () => {
  it.each([
    ['"api_key": "sk-ant-…"', `{"api_key": "{s}", "model": "claude"}`, [ANTHROPIC]],
    ['"token":"ghp_…"', `{"token":"{s}","user":"ana"}`, [GITHUB]],
    ['a bare ghp_ in a command', `git clone https://x-access-token:{s}@github.com/ana/app.git`, [GITHUB]],
    ['AWS key id and secret', `{"aws_access_key_id": "{s}", "aws_secret_access_key": "{s}"}`, [AWS_ID, AWS_SECRET]],
    ['AWS in an env file', `AWS_ACCESS_KEY_ID={s}\nAWS_SECRET_ACCESS_KEY={s}\n`, [AWS_ID, AWS_SECRET]],
    ['Authorization: Bearer in a header line', `curl -H "Authorization: Bearer {s}" https://api.example.com`, [BEARER]],
    ['Authorization: Bearer in a JSON header', `{"headers": {"Authorization": "Bearer {s}"}}`, [BEARER]],
    ['a slack token', `{"slack": "{s}"}`, [SLACK]],
    ['an OpenAI key', `{"OPENAI_API_KEY": "{s}"}`, [OPENAI]],
    ['two tokens in one string', `export GITHUB_TOKEN="{s}" ANTHROPIC_API_KEY="{s}"`, [GITHUB, ANTHROPIC]],
    ['"api_key":"sk-ant-…" with no space', `{"api_key":"{s}"}`, [ANTHROPIC]],
    ['an x-api-key header', `{"x-api-key": "{s}"}`, [ANTHROPIC]],
    ['a key alone ending the string', `{s}`, [ANTHROPIC]],
    ['a key in single quotes', `echo '{s}'`, [ANTHROPIC]],
    ['a fine-grained GitHub token', `{"token": "{s}"}`, [GITHUB_PAT]],
    ['a token before an escaped line break', `token: {s}\nnext`, [GITHUB]],
    ['tokens in an array', `{"k":["{s}","{s}"]}`, [GITHUB, AWS_ID]],
    ['an AWS credentials file', `[default]\naws_access_key_id = {s}\naws_secret_access_key = {s}\n`, [AWS_ID, AWS_SECRET]],
    ['Authorization: Bearer, an opaque token', `Authorization: Bearer {s}`, [OPAQUE]],
    ['Authorization: Bearer, JSON with no space', `{"Authorization":"Bearer {s}"}`, [OPAQUE]],
    ["curl -H 'Authorization: Bearer …'", `curl -H 'Authorization: Bearer {s}' x`, [OPAQUE]],
    ['Authorization: token ghp_…', `Authorization: token {s}`, [GITHUB]],
    ['Authorization: Basic', `Authorization: Basic {s}`, ['YW5hOlhrOXFaMm1RN3BMdzM=']],
    ['a Stripe key', `{"stripe":"{s}"}`, [STRIPE]],
    ['an npm token', `//registry.npmjs.org/:_authToken={s}`, [NPM]],
    ['a private key in a JSON string', `{"key":"{s}"}`, [PEM]],
  ])('%s', async (_name, text, secrets) => {
    expect(await wrong(text, secrets)).toEqual([]);
  });

  it('the innermost JSON parses to the same structure with only the secret replaced', async () => {
    const inner = { api_key: ANTHROPIC, headers: { Authorization: `Bearer ${BEARER}` }, list: [GITHUB, 'plain', 3], note: 'a "quoted" word' };
    const want = { api_key: '[REDACTED]', headers: { Authorization: 'Bearer [REDACTED]' }, list: ['[REDACTED]', 'plain', 3], note: 'a "quoted" word' };
    for (const level of DEPTHS)
      for (const out of await allWays(nested(JSON.stringify(inner), level))) expect(JSON.parse(innermost(out, level))).toEqual(want);
  });
});
