import { describe, expect, it } from 'vitest';
import { scrubLogValue } from '../../../core/log/index.js';
import { validateSnapshot } from '../../../core/maintenance/policy.js';
import { assignsCredential, hasSecret, namesCredential, redactSecrets } from '../../../core/secrets/index.js';
import { REDACTED, SECRET_SHAPES } from '../../../core/secrets/patterns.js';
import { rejectFact } from '../../../core/sweeper/writer.js';

/** One real-shaped sample per shape in the table; a shape added without a sample fails the first test. */
const SAMPLES: Record<string, { text: string; secret: string }> = {
  'pem-private-key': { text: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----', secret: 'MIIEowIBAAKCAQEA' },
  'pem-block': { text: '-----BEGIN OPENSSH PRIVATE BLOB-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE BLOB-----', secret: 'b3BlbnNzaC1rZXk' },
  'aws-access-key-id': { text: 'key id AKIAIOSFODNN7EXAMPLE here', secret: 'AKIAIOSFODNN7EXAMPLE' },
  'anthropic-key': { text: `export ANTHROPIC=sk-ant-api03-${'Ab1'.repeat(20)}`, secret: `sk-ant-api03-${'Ab1'.repeat(20)}` },
  'openai-key': { text: 'use sk-proj-abcdefghijklmnopqrstuvwx please', secret: 'sk-proj-abcdefghijklmnopqrstuvwx' },
  'stripe-key': { text: `stripe.api_key = sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`, secret: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' },
  'github-token': { text: `git push https://ghp_${'a1B2'.repeat(9)}`, secret: `ghp_${'a1B2'.repeat(9)}` },
  'github-fine-grained-pat': { text: `GH=github_pat_11ABCDEFG0${'x'.repeat(70)}`, secret: `github_pat_11ABCDEFG0${'x'.repeat(70)}` },
  'gitlab-pat': { text: 'glpat-xxxxxxxxxxxxxxxxxxxx in the remote', secret: 'glpat-xxxxxxxxxxxxxxxxxxxx' },
  'slack-token': { text: 'xoxb-123456789012-abcdefghij posted', secret: 'xoxb-123456789012-abcdefghij' },
  'google-api-key': { text: `maps key AIza${'x'.repeat(35)}`, secret: `AIza${'x'.repeat(35)}` },
  'huggingface-token': { text: `hf_${'A'.repeat(34)} for the hub`, secret: `hf_${'A'.repeat(34)}` },
  'npm-token': { text: `//registry.npmjs.org/:_authToken=npm_${'a'.repeat(36)}`, secret: `npm_${'a'.repeat(36)}` },
  jwt: { text: 'Cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', secret: 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U' },
  'url-credentials': { text: 'postgres://admin:hunter2hunter2@db.local/app', secret: 'hunter2hunter2' },
  'authorization-header': { text: 'Authorization: Basic QWxhZGRpbjpvcGVu', secret: 'QWxhZGRpbjpvcGVu' },
  'bearer-token': { text: 'curl -H "x: bearer abcdefghijklmnop123456"', secret: 'abcdefghijklmnop123456' },
  'secret-assignment': { text: 'DB_PASSWORD=correcthorsebattery', secret: 'correcthorsebattery' },
};

const ORDINARY = [
  'Commit 3f1c9a7b2e4d6f80 changed src/frost.ts; tokens are counted per sweep.',
  'const taskList = items.filter((item) => item.done);',
  'See https://example.com/docs/getting-started for the setup.',
  'the sk-learn model and the gh CLI are installed',
];

describe('the secret shape table', () => {
  it('has a sample for every shape, and every sample is found by its own shape', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(SECRET_SHAPES.map((s) => s.id).sort());
    for (const shape of SECRET_SHAPES) {
      const sample = SAMPLES[shape.id]!;
      expect(sample.text.replace(shape.pattern, REDACTED), shape.id).not.toContain(sample.secret);
    }
  });

  for (const [id, { text, secret }] of Object.entries(SAMPLES)) {
    it(`${id}: redacted, found, and scrubbed from log lines`, () => {
      expect(redactSecrets(text)).not.toContain(secret);
      expect(hasSecret(text)).toBe(true);
      expect(scrubLogValue(text)).not.toContain(secret);
    });
  }

  it('redacts before cutting: a log value cut at 500 characters never keeps the head of a secret', () => {
    const secret = `github_pat_11ABCDEFG0${'y'.repeat(70)}`;
    const value = `${'x'.repeat(480)} ${secret}`;
    expect(scrubLogValue(value)).not.toMatch(/github_pat|yyyy/);
  });

  it('leaves ordinary code and prose alone', () => {
    for (const text of ORDINARY) {
      expect(redactSecrets(text)).toBe(text);
      expect(hasSecret(text)).toBe(false);
    }
  });

  it('serves the writer, the snapshot check and status ids from the same words', () => {
    expect(namesCredential('The API key lives in the keychain')).toBe(true);
    expect(namesCredential(`the value was ${REDACTED}`)).toBe(true);
    expect(rejectFact('The deploy token is rotated monthly.')).toBe('secret');
    expect(assignsCredential('cookie=abc')).toBe(true);
    expect(() => validateSnapshot({ profile: 'default', embedding: { provider: 'none', model: `glpat-${'z'.repeat(20)}` }, chunk: { max_chars: 2_000, overlap: 200 } })).toThrow(/credential/);
  });
});
