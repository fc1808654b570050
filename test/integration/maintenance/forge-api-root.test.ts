import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { failureWords } from '../../../core/api/maintenance-words.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { createForge, hostOf, type ForgeError } from '../../../core/maintenance/forges/index.js';
import { Maintenance, syncStage } from '../../../core/maintenance/index.js';
import { FakeForge, type Shape } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { SMALL, TOKEN } from './sync-rig.js';

/**
 * A base URL that is the forge's web host rather than its API root answers 404 for every repository.
 * Steward checks the root once and says which address the forge needs, instead of "no such repository".
 */
interface Setup {
  home: TempHome;
  forge: FakeForge;
  m: Maintenance;
}

let s: Setup | null = null;

afterEach(async () => {
  if (!s) return;
  await s.m.stop();
  await s.forge.stop();
  rmSync(s.home.dir, { recursive: true, force: true });
  s = null;
});

async function setup(shape: Shape, base: (forge: FakeForge) => string, options: { owner?: string } = {}): Promise<Setup> {
  const home = tempHome('steward-api-root-');
  const forge = new FakeForge({ shape, token: TOKEN });
  await forge.start();
  const logger = createMemoryLogger();
  const m = new Maintenance({
    home: home.dir,
    logger,
    runners: {
      sync: syncStage({
        home: home.dir,
        token: (name) => (name.endsWith('_TOKEN') ? TOKEN : undefined),
        settings: SMALL,
        transport: { retries: 2, retryBaseMs: 5, inlineWaitMs: 0, timeoutMs: 10_000, perPage: 10 },
      }),
    },
  });
  m.add({ repo: `${options.owner ?? 'acme'}/widgets`, forge: shape, baseUrl: base(forge), policy: { collections: ['issues'] } as never, idempotencyKey: 'api-root' });
  return { home, forge, m };
}

const repoRequests = (forge: FakeForge) => forge.requests.filter((r) => r.path.includes('/repos/'));
const probes = (forge: FakeForge) => forge.requests.filter((r) => /\/(meta|version|user)$/.test(r.path));

describe('a base URL that is not the forge API root', () => {
  for (const shape of ['github', 'gitea'] as const) {
    it(`fails a ${shape} registration as forge_api_root after one check of the root, and says which root it needs`, async () => {
      s = await setup(shape, (forge) => forge.base);
      s.forge.add('issue');
      const pass = await s.m.reconcileNow();
      expect(pass.jobs.length).toBeGreaterThan(0);
      expect(pass.jobs.every((j) => j.state === 'failed' && j.errorClass === 'forge_api_root')).toBe(true);
      const status = s.m.list().registrations[0]!;
      expect(status.stages.sync).toMatchObject({ errorClass: 'forge_api_root', failures: 1 });
      expect(status.stages.sync.nextAttemptAt).not.toBeNull();
      // One repository request found the 404 and one cheap request checked the root: nothing was retried.
      expect(repoRequests(s.forge)).toHaveLength(1);
      expect(probes(s.forge)).toHaveLength(1);
      // The next pass is held by the backoff, not sent again.
      const again = await s.m.reconcileNow();
      expect(again.skipped).toContainEqual(expect.objectContaining({ stage: 'sync', reason: 'backoff' }));
      expect(repoRequests(s.forge)).toHaveLength(1);
      const host = new URL(s.forge.base).host;
      const root = shape === 'github' ? `GitHub Enterprise needs https://${host}/api/v3` : `Gitea needs https://${host}/api/v1`;
      expect(failureWords(status.stages.sync.errorClass!, status.forge)).toBe(`${host} is not the forge's API root: ${root}`);
    });
  }

  it('keeps a repository the forge does not know on a correct root as forge_not_found, with its words', async () => {
    s = await setup('gitea', (forge) => forge.apiBase, { owner: 'nobody' });
    const pass = await s.m.reconcileNow();
    expect(pass.jobs.every((j) => j.state === 'failed' && j.errorClass === 'forge_not_found')).toBe(true);
    const status = s.m.list().registrations[0]!;
    expect(status.stages.sync).toMatchObject({ errorClass: 'forge_not_found', failures: 1 });
    expect(probes(s.forge)).toHaveLength(1);
    expect(failureWords('forge_not_found', status.forge)).toContain('the forge has no such repository');
    expect(failureWords('forge_not_found', status.forge)).not.toContain('--base-url');
  });

  it('keeps forge_not_found on github and gitcode roots that answer', async () => {
    for (const shape of ['github', 'gitcode'] as const) {
      s = await setup(shape, (forge) => forge.apiBase, { owner: 'nobody' });
      const pass = await s.m.reconcileNow();
      expect(pass.jobs.every((j) => j.state === 'failed' && j.errorClass === 'forge_not_found')).toBe(true);
      await s.m.stop();
      await s.forge.stop();
      rmSync(s.home.dir, { recursive: true, force: true });
      s = null;
    }
  });
});

describe('the forge client on a 404', () => {
  let forge: FakeForge | null = null;
  afterEach(async () => {
    await forge?.stop();
    forge = null;
  });

  const client = (f: FakeForge, apiBase: string, owner = 'acme') =>
    createForge({ kind: f.shape, apiBase, host: hostOf(f.shape, apiBase), owner, name: 'widgets', tokenName: 'GITEA_TOKEN' }, TOKEN, { wikiMirror: '/nonexistent', retries: 0, retryBaseMs: 1 });
  const signal = new AbortController().signal;
  const classOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: ForgeError) => e.errorClass);

  it('never takes a wrong root for a deleted record, and asks the root once per client', async () => {
    forge = new FakeForge({ shape: 'gitea', token: TOKEN });
    await forge.start();
    const wrong = client(forge, forge.base);
    expect(await classOf(wrong.verify({ kind: 'issues', number: 1 }, signal))).toBe('forge_api_root');
    expect(await classOf(wrong.list({ stream: 'issues', order: 'recent', page: 1 }, signal))).toBe('forge_api_root');
    expect(probes(forge)).toHaveLength(1);
    expect(await client(forge, forge.apiBase).verify({ kind: 'issues', number: 1 }, signal)).toEqual({ gone: 'deleted' });
  });

  it('says the 404 is forge_not_found_unchecked when the root cannot be checked', async () => {
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    await forge.start();
    forge.scripts.push((req) => (req.path.endsWith('/meta') ? { status: 503, body: 'down' } : undefined));
    expect(await classOf(client(forge, forge.base).list({ stream: 'issues', order: 'recent', page: 1 }, signal))).toBe('forge_not_found_unchecked');
  });
});

describe('the words for forge_api_root', () => {
  it('name the root each forge kind needs', () => {
    expect(failureWords('forge_api_root', { kind: 'github', host: 'ghe.example.com' })).toBe("ghe.example.com is not the forge's API root: GitHub Enterprise needs https://ghe.example.com/api/v3");
    expect(failureWords('forge_api_root', { kind: 'gitea', host: 'git.example:3000' })).toBe("git.example:3000 is not the forge's API root: Gitea needs https://git.example:3000/api/v1");
    expect(failureWords('forge_api_root', { kind: 'github', host: 'github.com' })).toBe("github.com is not the forge's API root: GitHub needs https://api.github.com");
    expect(failureWords('forge_api_root', { kind: 'gitcode', host: 'gitcode.com' })).toBe("gitcode.com is not the forge's API root: GitCode needs https://api.gitcode.com/api/v5");
    expect(failureWords('forge_api_root', null)).toBe("the base URL is not the forge's API root: check the forge's API address (base URL)");
  });
});
