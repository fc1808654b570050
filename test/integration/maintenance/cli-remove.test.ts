import { existsSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo, type CapturedIo } from '../../support/cli.js';
import { fixture, WIDGETS, type Fixture } from '../../unit/maintenance/support.js';

async function cli(env: NodeJS.ProcessEnv, answer: boolean | null, ...argv: string[]): Promise<CapturedIo & { code: number }> {
  const io = captureIo(env);
  if (answer !== null) Object.assign(io, { interactive: () => true, confirm: async () => answer });
  const code = await runCli(argv, io);
  return Object.assign(io, { code });
}

describe('steward maintenance remove', () => {
  let f: Fixture | undefined;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
    f = undefined;
  });

  it('asks or needs --yes, keeps a user cache, refuses to delete it, and leaves the other registration listed', async () => {
    f = fixture();
    const env = f.home.env;
    const typoCache = f.cache('typo.db', [{ repoId: 'github.com/acme/typo', aliases: ['acme/typo'] }]);
    expect((await cli(env, null, 'maintenance', 'enroll', '--cache', f.cache('w.db', [WIDGETS]), '--repo', 'acme/widgets', '--idempotency-key', 'w')).code).toBe(0);
    expect((await cli(env, null, 'maintenance', 'enroll', '--cache', typoCache, '--repo', 'acme/typo', '--idempotency-key', 't')).code).toBe(0);

    const unattended = await cli(env, null, 'maintenance', 'remove', '--registration', 'acme/typo', '--json');
    expect(unattended.code).toBe(1);
    expect(JSON.parse(unattended.out).error.code).toBe('confirmation_required');
    const declined = await cli(env, false, 'maintenance', 'remove', '--registration', 'acme/typo');
    expect(declined.err).toMatch(/Stop maintaining github.com\/acme\/typo .*its cache file is kept/);
    expect(declined.out).toBe('Nothing was changed.\n');
    const refused = await cli(env, null, 'maintenance', 'remove', '--registration', 'acme/typo', '--delete-cache', '--yes', '--json');
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.out).error).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('not created by Steward') });
    const unknown = await cli(env, null, 'maintenance', 'remove', '--registration', 'acme/nothing', '--yes', '--json');
    expect(JSON.parse(unknown.out).error.code).toBe('not_found');
    expect(JSON.parse((await cli(env, null, 'service', 'maintenance', '--json')).out).registrations).toHaveLength(2);

    const removed = await cli(env, null, 'maintenance', 'remove', '--registration', 'acme/typo', '--yes', '--json');
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.out).removed).toMatchObject({ canonicalRepoId: 'github.com/acme/typo', removed: true, cache: 'kept' });
    const status = JSON.parse((await cli(env, null, 'service', 'maintenance', '--json')).out) as { registrations: Array<{ canonicalRepoId: string }>; retired: number };
    expect(status.registrations.map((r) => r.canonicalRepoId)).toEqual(['github.com/acme/widgets']);
    expect(status.retired).toBe(1);
    expect(existsSync(typoCache)).toBe(true);
    for (const output of [unattended, declined, refused, removed]) expect(output.out + output.err).not.toContain(f.caches);
  });
});
