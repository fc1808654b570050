import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../core/log/index.js';
import { createRepositoryCache, Maintenance, ragStage, syncStage, type PlanFacts } from '../../../core/maintenance/index.js';
import { mergeStage } from '../../../core/maintenance/identity.js';
import { DEFAULT_CONFIG_SNAPSHOT, emptyStage } from '../../../core/maintenance/schema.js';
import { FakeForge } from '../../support/fake-forge.js';
import { TestRepo } from '../../support/git-repo.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

const FAST = { retries: 1, retryBaseMs: 5, inlineWaitMs: 0, timeoutMs: 10_000 };
const LIMITED = { status: 429, headers: { 'retry-after': '3600' }, body: 'Too Many Requests' };

/** A machine whose owner runs and whose forge token is stored; nothing else is asked of it. */
const FACTS: PlanFacts = {
  service: { ownerRunning: true, startAtLogin: () => ({ enabled: true, supported: true }), installStartAtLogin: () => undefined },
  profiles: {
    profiles: () => ({ default: DEFAULT_CONFIG_SNAPSHOT }),
    boundary: () => ({ boundary: 'local_process', host: null }),
    model: async () => ({ present: true, revision: 'hash@1' }),
    download: async () => undefined,
    smoke: async () => ({ dimensions: 8 }),
  },
  tokenPresent: () => true,
};

describe('what a forge rate limit holds, and what it does not', () => {
  it('keeps a pending rate-limit wait when records of one registration are merged; a later success still supersedes a failure', () => {
    const wait = { ...emptyStage(), lastSuccessAt: 1_000, nextAttemptAt: 9_000 };
    expect(mergeStage(wait, emptyStage()).nextAttemptAt).toBe(9_000);
    expect(mergeStage(emptyStage(), wait).nextAttemptAt).toBe(9_000);
    const failed = { errorClass: 'forge_unavailable', failures: 2, lastFailureAt: 500, lastSuccessAt: null, nextAttemptAt: 7_000 };
    expect(mergeStage(failed, { ...emptyStage(), lastSuccessAt: 2_000 })).toMatchObject({ errorClass: null, failures: 0, nextAttemptAt: null });
    expect(mergeStage(failed, wait)).toMatchObject({ errorClass: null, nextAttemptAt: 9_000 });
  });

  let home: TempHome | undefined;
  let m: Maintenance | undefined;
  let forge: FakeForge | undefined;
  afterEach(async () => {
    await m?.stop();
    await forge?.stop();
    home?.cleanup();
    home = m = forge = undefined;
  });

  function open(dir: string, clock: () => number, rag = false): Maintenance {
    return new Maintenance({
      home: dir,
      logger: createMemoryLogger(),
      clock,
      planFacts: FACTS,
      runners: {
        sync: syncStage({ home: dir, token: (name) => (name.endsWith('_TOKEN') ? TOKEN : undefined), transport: FAST, clock }),
        ...(rag ? { rag: ragStage({ home: dir, clock }) } : {}),
      },
    });
  }

  it('indexes local documents while the forge collections wait for the rate limit to lift', async () => {
    home = tempHome('steward-hold-docs-');
    forge = new FakeForge({ shape: 'gitea', token: TOKEN });
    await forge.start();
    forge.add('issue', { title: 'on the forge' });
    forge.scripts.push(() => LIMITED);
    const repo = new TestRepo(join(home.dir, 'project'));
    repo.write('README.md', '# Project').commit('start');
    const repoId = `${new URL(forge.base).host}/acme/widgets`;
    const cache = join(home.dir, 'hold.db');
    createRepositoryCache(cache, [{ repoId, aliases: ['acme/widgets'], forge: { forge: 'gitea', apiBase: forge.apiBase } }]);
    let offset = 0;
    const clock = () => Date.now() + offset;
    m = open(home.dir, clock);
    m.enroll({ cachePath: cache, repo: 'acme/widgets', policy: { sync: 'head-and-backfill', collections: ['issues'] }, sources: [{ kind: 'worktree', ref: 'main', root: repo.dir }], idempotencyKey: 'hold' });
    const live = (collection: string) => {
      const db = new Database(cache, { readonly: true });
      try {
        return (db.prepare('SELECT external_id AS id FROM items WHERE collection = ? AND tombstoned_at IS NULL ORDER BY external_id').all(collection) as Array<{ id: string }>).map((r) => r.id.replace(/^src_[0-9a-f]+:/, ''));
      } finally {
        db.close();
      }
    };

    await m.reconcileNow();
    const waiting = m.list().registrations[0]!;
    expect(waiting.waiting).toMatchObject({ reason: 'rate_limited' });
    const until = waiting.stages.sync.nextAttemptAt!;
    expect(until).toBeGreaterThan(clock() + 3_000_000);
    expect(live('documents')).toEqual(['README.md']);
    expect(live('issues')).toEqual([]);

    // During the wait the worktree keeps being read on the head's interval; the forge is not asked.
    repo.write('docs/new.md', 'New page.');
    const asked = forge.requests.length;
    offset += 600_000;
    await m.reconcile();
    expect(live('documents')).toEqual(['README.md', 'docs/new.md']);
    expect(forge.requests.length).toBe(asked);
    const still = m.list().registrations[0]!;
    expect(still.stages.sync.nextAttemptAt).toBe(until);
    expect(still.waiting).toMatchObject({ reason: 'rate_limited', until });

    // Once the limit lifts, the forge collections catch up.
    forge.scripts = [];
    offset += 3_600_000;
    await m.reconcileNow();
    expect(live('issues')).toHaveLength(1);
    expect(m.list().registrations[0]!.waiting).toBeNull();
  });

  it('keeps a pending rate-limit wait when a confirmed plan changes what is synced', async () => {
    home = tempHome('steward-hold-plan-');
    forge = new FakeForge({ shape: 'gitea', token: TOKEN });
    await forge.start();
    seed(forge, 3);
    const clock = () => Date.now();
    m = open(home.dir, clock);
    const { registrationId } = m.add({ repo: 'acme/widgets', forge: 'gitea', baseUrl: forge.apiBase, policy: { collections: ['issues'] }, idempotencyKey: 'add' });
    forge.scripts.push(() => LIMITED);
    await m.reconcileNow();
    const until = m.list().registrations[0]!.stages.sync.nextAttemptAt!;
    expect(until).toBeGreaterThan(clock() + 3_000_000);

    const request = { registrationId, policy: { sync: 'head' as const, collections: ['issues' as const] }, serviceInstall: false };
    const plan = await m.planSetup(request);
    await m.applySetup({ ...request, planId: plan.planId, idempotencyKey: 'change', confirmedBy: 'person' });
    const changed = m.list().registrations[0]!;
    expect(changed.policy.sync).toBe('head');
    expect(changed.stages.sync.nextAttemptAt).toBe(until);
    const asked = forge.requests.length;
    expect((await m.reconcileNow()).skipped).toContainEqual(expect.objectContaining({ stage: 'sync', reason: 'rate_limited', nextAttemptAt: until }));
    expect(forge.requests.length).toBe(asked);
  });

  it('records an index run only when it did work, and keeps the index stage\'s last run honest', async () => {
    home = tempHome('steward-hold-rag-');
    forge = new FakeForge({ shape: 'gitea', token: TOKEN });
    await forge.start();
    seed(forge, 4);
    let offset = 0;
    const clock = () => Date.now() + offset;
    m = open(home.dir, clock, true);
    m.add({ repo: 'acme/widgets', forge: 'gitea', baseUrl: forge.apiBase, policy: { collections: ['issues'], rag: 'maintain' }, idempotencyKey: 'rag' });
    const first = await m.reconcileNow();
    expect(first.jobs.map((j) => `${j.stage}/${j.lane}`)).toContain('rag/index');
    const indexed = m.list().registrations[0]!.stages.rag.lastSuccessAt;
    expect(indexed).not.toBeNull();

    // Nothing changed on the forge: a person's pass, and the owner's passes after it, record no index run.
    for (let pass = 0; pass < 3; pass += 1) {
      offset += 301_000;
      const idle = pass === 0 ? await m.reconcileNow() : await m.reconcile();
      expect(idle.jobs.map((j) => `${j.stage}/${j.lane}`)).not.toContain('rag/index');
      expect(idle.skipped).toContainEqual(expect.objectContaining({ stage: 'rag', lane: 'index' }));
    }
    const status = m.list().registrations[0]!;
    expect(status.stages.rag.lastSuccessAt).toBe(indexed);
    expect(status.jobs.filter((j) => j.stage === 'rag')).toHaveLength(1);
    expect(status.state).toBe('ready');

    // A change on the forge is indexed, and recorded.
    forge.edit(1, { body: 'A body the index has not seen.' });
    offset += 301_000;
    const changed = await m.reconcileNow();
    expect(changed.jobs.map((j) => `${j.stage}/${j.lane}/${j.state}`)).toContain('rag/index/succeeded');
    expect(m.list().registrations[0]!.stages.rag.lastSuccessAt).toBeGreaterThan(indexed!);
  });
});
