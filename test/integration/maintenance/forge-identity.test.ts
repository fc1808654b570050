import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../core/log/index.js';
import { createRepositoryCache, Maintenance, syncStage } from '../../../core/maintenance/index.js';
import { canonicalRepoIdOf, hostOf } from '../../../core/maintenance/forges/index.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { TOKEN } from './sync-rig.js';

function titles(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT title FROM items WHERE collection = 'issues' ORDER BY title").all() as Array<{ title: string }>).map((r) => r.title);
  } finally {
    db.close();
  }
}

describe('a forge host names its port in repository identity', () => {
  it('keeps a default port out of the id, so ids stored before stay the same', () => {
    expect(hostOf('github', 'https://api.github.com')).toBe('github.com');
    expect(hostOf('github', 'https://api.github.com:443')).toBe('github.com');
    expect(hostOf('gitea', 'https://git.local:443/api/v1')).toBe('git.local');
    expect(hostOf('gitea', 'http://127.0.0.1:80/api/v1')).toBe('127.0.0.1');
    expect(hostOf('gitea', 'https://git.local:3000/api/v1')).toBe('git.local:3000');
    expect(hostOf('gitea', 'http://[::1]/api/v1')).toBe('::1');
    expect(hostOf('gitea', 'http://[::1]:3000/api/v1')).toBe('[::1]:3000');
    expect(canonicalRepoIdOf(hostOf('gitea', 'https://git.local:3001/api/v1'), 'Acme/Widgets')).toBe('git.local:3001/acme/widgets');
  });
});

describe('two forges on one host with different ports', () => {
  let home: TempHome | undefined;
  let m: Maintenance | undefined;
  const forges: FakeForge[] = [];
  afterEach(async () => {
    await m?.stop();
    for (const f of forges.splice(0)) await f.stop();
    home?.cleanup();
    home = m = undefined;
  });

  const open = (dir: string) =>
    new Maintenance({
      home: dir,
      logger: createMemoryLogger(),
      runners: { sync: syncStage({ home: dir, token: (name) => (name.endsWith('_TOKEN') ? TOKEN : undefined), transport: { retries: 1, retryBaseMs: 5, inlineWaitMs: 0, timeoutMs: 10_000 } }) },
    });

  it('adds the same OWNER/NAME from both and keeps them distinct', async () => {
    home = tempHome('steward-ports-');
    for (const label of ['one', 'two']) {
      const forge = new FakeForge({ shape: 'gitea', token: TOKEN });
      await forge.start();
      forge.add('issue', { title: `from ${label}` });
      forges.push(forge);
    }
    m = open(home.dir);
    const added = forges.map((f, i) => m!.add({ repo: 'acme/widgets', forge: 'gitea', baseUrl: f.apiBase, policy: { collections: ['issues'] }, idempotencyKey: `port-${i}` }));
    const ports = forges.map((f) => new URL(f.base).port);
    expect(added.map((a) => a.canonicalRepoId)).toEqual(ports.map((p) => `127.0.0.1:${p}/acme/widgets`));
    expect(new Set(added.map((a) => a.registrationId)).size).toBe(2);
    await m.reconcileNow();
    const registrations = m.list().registrations;
    expect(registrations).toHaveLength(2);
    for (const [i, a] of added.entries()) {
      const status = registrations.find((r) => r.registrationId === a.registrationId)!;
      expect(status.forge).toEqual({ kind: 'gitea', host: `127.0.0.1:${ports[i]}` });
      const stored = m.store.current().registrations.find((r) => r.registrationId === a.registrationId)!;
      expect(titles(stored.cachePath)).toEqual([`from ${i === 0 ? 'one' : 'two'}`]);
    }
  });

  it('still finds a registration stored under the old port-less id for a forge on another port', async () => {
    home = tempHome('steward-ports-legacy-');
    const forge = new FakeForge({ shape: 'gitea', token: TOKEN });
    await forge.start();
    forge.add('issue', { title: 'legacy' });
    forges.push(forge);
    // What an older Steward created: the id names the host without its port.
    const cache = join(home.dir, 'legacy.db');
    createRepositoryCache(cache, [{ repoId: '127.0.0.1/acme/widgets', aliases: ['acme/widgets'], forge: { forge: 'gitea', apiBase: forge.apiBase } }]);
    m = open(home.dir);
    const enrolled = m.enroll({ cachePath: cache, repo: 'acme/widgets', policy: { sync: 'head-and-backfill', collections: ['issues'] }, idempotencyKey: 'legacy' });
    expect(enrolled.canonicalRepoId).toBe('127.0.0.1/acme/widgets');
    await m.reconcileNow();
    expect(titles(cache)).toEqual(['legacy']);
    // The same forge asked for again is the registration already maintained: no second cache.
    expect(() => m!.add({ repo: 'acme/widgets', forge: 'gitea', baseUrl: forge.apiBase, policy: { collections: ['issues'] }, idempotencyKey: 'again' })).toThrow(
      expect.objectContaining({ code: 'identity_conflict' }),
    );
    // A plan for it names the maintained registration instead of planning a second cache.
    const plan = await m.planSetup({ repo: 'acme/widgets', forge: 'gitea', baseUrl: forge.apiBase, policy: { collections: ['issues'] }, serviceInstall: false });
    expect(plan).toMatchObject({ registrationId: enrolled.registrationId, repo: '127.0.0.1/acme/widgets' });
    const caches = join(home.dir, 'caches');
    expect(existsSync(caches) ? readdirSync(caches).filter((f) => f.endsWith('.db')) : []).toEqual([]);
    rmSync(cache, { force: true });
  });
});
