import { secretLintProfiler } from '@secretlint/profiler';
import { describe, expect, it } from 'vitest';
import { createRedactor, secretValuesFromEnv } from '../../../core/secrets/index.js';
import { REDACTED } from '../../../core/secrets/patterns.js';

const samples: Record<string, string> = {
  anthropic: `sk-ant-api03-${'Ab1'.repeat(31)}AA`,
  openaiShortish: 'sk-proj-abcdefghijklmnopqrstuvwx',
  github: `ghp_${'a1B2'.repeat(9)}`,
  aws: 'AKIAIOSFODNN7EXAMPLE',
  slack: 'xoxb-123456789012-abcdefghij',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  google: `AIza${'x'.repeat(35)}`,
};

describe('redaction', () => {
  const redactor = createRedactor(['my-own-configured-key-123']);

  for (const [name, secret] of Object.entries(samples)) {
    it(`removes a ${name} token`, async () => {
      const out = await redactor.redact(`before ${secret} after`);
      expect(out).not.toContain(secret);
      expect(out).toContain(REDACTED);
      expect(out).toMatch(/^before .* after$/);
    });
  }

  it('removes PEM blocks, URL credentials, bearer headers, assignments and known values', async () => {
    const text = [
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----',
      'postgres://admin:hunter2hunter2@db.local/app',
      'Authorization: Bearer abcdefghijklmnop123456',
      'DB_PASSWORD=correcthorsebattery',
      'configured my-own-configured-key-123',
    ].join('\n');
    const out = await redactor.redact(text);
    for (const leak of ['MIIEow', 'hunter2hunter2', 'abcdefghijklmnop123456', 'correcthorsebattery', 'my-own-configured-key-123']) expect(out).not.toContain(leak);
  });

  it('keeps ordinary prose, hashes and paths', async () => {
    const text = 'Commit 3f1c9a7b2e4d6f80 changed src/frost.ts; tokens are counted per sweep.';
    expect(await redactor.redact(text)).toBe(text);
  });

  it('takes secret-looking environment values only', () => {
    expect(secretValuesFromEnv({ GITHUB_TOKEN: 'abcdefghijk', PATH: '/usr/bin:/bin/long', SHORT_KEY: 'abc' })).toEqual(['abcdefghijk']);
  });

  it("leaves no mark in secretlint's profiler or the process's performance timeline (a long-running owner)", async () => {
    // The profiler's observer is called back on a later turn of the event loop, as between sweeps.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const marks = performance.getEntriesByType('mark').length;
    for (let i = 0; i < 20; i += 1) {
      expect(await redactor.redact(`text number ${i} with ${samples.github}`)).toBe(`text number ${i} with ${REDACTED}`);
      await turn();
    }
    expect(await secretLintProfiler.getEntries()).toHaveLength(0);
    expect(performance.getEntriesByType('mark')).toHaveLength(marks);
  });
});
