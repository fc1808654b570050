import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';

/**
 * A placeholder is a document's words for a credential (`your_password`, `YOUR_TOKEN_HERE`), not any
 * value that starts with "your" or ends in "here": `DB_PASSWORD=Yourpass2024` is a password.
 */

/** Each text as the sync and async redaction return it. */
async function redacted(texts: readonly string[]): Promise<string[]> {
  const r = createRedactor();
  const out: string[] = [];
  for (const t of texts) out.push(redactSecrets(t), await r.redact(t));
  return out;
}

describe('placeholder shapes', () => {
  it('values that merely start with "your" or end in "here" are hidden', async () => {
    const values = ['Yourpass2024', 'yourself123!', 'Your-Secret-Here2', 'Gx7q_here', 'blue-sky-here', 'YOUR_PASSWORD_HERE_9x'];
    for (const value of values)
      for (const text of [`DB_PASSWORD=${value}`, `mysql -u root -p${value}`, `redis-cli -a ${value} ping`])
        for (const res of await redacted([text])) expect(res, text).not.toContain(value);
  });

  it("a document's words for a credential stay", async () => {
    const texts = [
      'DB_PASSWORD=your_password',
      'DB_PASSWORD=YOUR_PASSWORD_HERE',
      'API_KEY=your-api-key',
      'API_KEY=YourApiKey',
      'GITHUB_TOKEN=your_github_token_here',
      'SECRET=your-secret-goes-here',
      'CLIENT_SECRET=YOUR_CLIENT_SECRET_HERE',
      'DB_PASSWORD=<password>',
      'DB_PASSWORD=xxxx',
      'DB_PASSWORD=****',
      'redis-cli -a yourpassword ping',
    ];
    const out = await redacted(texts);
    expect(out).toEqual(texts.flatMap((t) => [t, t]));
  });
});
