import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { createRepositoryCache, Maintenance, syncStage } from '../../../core/maintenance/index.js';
import { captureIo, type CapturedIo } from '../../support/cli.js';
import { FakeForge } from '../../support/fake-forge.js';
import { TestRepo } from '../../support/git-repo.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

async function cli(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<CapturedIo & { code: number }> {
  const io = captureIo(env);
  const code = await runCli(argv, io);
  return Object.assign(io, { code });
}

function failure(work: () => unknown): StewardError {
  try {
    work();
  } catch (error) {
    if (error instanceof StewardError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

type Status = { registrations: Array<{ registrationId: string; enabled: boolean }>; conflicts?: unknown[] };

describe('a repository that is already maintained', () => {
  let home: TempHome | undefined;
  let forge: FakeForge | undefined;
  afterEach(async () => {
    await forge?.stop();
    home?.cleanup();
    home = forge = undefined;
  });

  it('is never given a second cache and registration by `maintenance add` with a new idempotency key', async () => {
    home = tempHome('steward-add-again-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 3);
    const env = { ...home.env, GITHUB_TOKEN: TOKEN };
    const caches = () => readdirSync(join(home!.dir, 'caches')).filter((f) => f.endsWith('.db'));

    const first = await cli(env, 'maintenance', 'add', '--repo', 'acme/widgets', '--base-url', base, '--idempotency-key', 'add-1', '--json');
    expect(first.code).toBe(0);
    const { registrationId } = JSON.parse(first.out) as { registrationId: string };

    for (const flags of [[], ['--sync', 'head']]) {
      const again = await cli(env, 'maintenance', 'add', '--repo', 'acme/widgets', '--base-url', base, ...flags, '--idempotency-key', `add-2${flags.join('')}`, '--json');
      expect(again.code).toBe(1);
      const error = (JSON.parse(again.out) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('identity_conflict');
      // The refusal names the registration and the verb that changes it in place.
      expect(error.message).toContain(registrationId);
      expect(error.message).toContain('steward maintenance enable --registration');
      expect(again.out).not.toContain(home.dir);
    }
    // The same request under its own key still replays its first result.
    const replay = await cli(env, 'maintenance', 'add', '--repo', 'acme/widgets', '--base-url', base, '--idempotency-key', 'add-1', '--json');
    expect(JSON.parse(replay.out)).toMatchObject({ registrationId, replayed: true });

    expect(caches()).toHaveLength(1);
    const status = JSON.parse((await cli(env, 'service', 'maintenance', '--json')).out) as Status;
    expect(status.registrations.map((r) => [r.registrationId, r.enabled])).toEqual([[registrationId, true]]);
  });

  it('stays maintained when Maintenance.Enroll asks for other document sources, until a person picks a candidate', async () => {
    home = tempHome('steward-enroll-again-');
    const cache = join(home.dir, 'docs.db');
    createRepositoryCache(cache, [{ repoId: 'local/acme/project', aliases: ['acme/project'] }]);
    const repo = new TestRepo(join(home.dir, 'project'));
    repo.write('README.md', '# Project').commit('start');
    const tree = repo.dir;
    const open = () => new Maintenance({ home: home!.dir, logger: createMemoryLogger(), runners: { sync: syncStage({ home: home!.dir, token: () => undefined }) } });
    const m = open();
    const policy = { sync: 'head-and-backfill' as const, collections: [] };
    const enrolled = m.enroll({ cachePath: cache, repo: 'acme/project', policy, sources: [{ kind: 'git', ref: 'main', root: tree }], idempotencyKey: 'e1' });
    const maintained = (view: Maintenance) => view.list().registrations.map((r) => [r.registrationId, r.enabled, r.state === 'disabled']);

    const other = { cachePath: cache, repo: 'acme/project', policy, sources: [{ kind: 'git' as const, ref: 'release', root: tree }], idempotencyKey: 'e2' };
    const refused = failure(() => m.enroll(other));
    expect(refused.code).toBe('identity_conflict');
    // Nothing was held or disabled: the registration is still maintained as it was.
    expect(maintained(m)).toEqual([[enrolled.registrationId, true, false]]);
    expect(refused.message).toContain(enrolled.registrationId);
    expect(refused.details).toMatchObject({ registrationId: enrolled.registrationId, conflictId: expect.any(String) });
    // The same key replays the refusal; a compatible enrollment (another alias) is still the same registration.
    expect(failure(() => m.enroll(other)).code).toBe('identity_conflict');
    expect(m.enroll({ cachePath: cache, repo: 'Acme/Project', policy, sources: [{ kind: 'git', ref: 'main', root: tree }], idempotencyKey: 'e3' }).registrationId).toBe(enrolled.registrationId);

    for (const view of [m, open()]) {
      expect(maintained(view)).toEqual([[enrolled.registrationId, true, false]]);
      expect(view.store.current().registrations[0]!.sources.map((s) => s.authority.ref)).toEqual(['main']);
      expect(view.conflicts()).toHaveLength(1);
      expect(view.conflicts()[0]!.candidates).toHaveLength(2);
    }
    // It is still scheduled: its documents sync while the conflict waits.
    const pass = await m.reconcileNow(enrolled.registrationId);
    expect(pass.jobs.length).toBeGreaterThan(0);
    expect(pass.jobs.every((j) => j.state === 'succeeded')).toBe(true);

    // A plan for it waits for the choice, and says so in words of settings, not of copies.
    const planned = await m.planSetup({ registrationId: enrolled.registrationId, policy: { sync: 'head' } });
    expect(planned.blocker).toMatchObject({ code: 'identity_conflict' });
    expect(planned.blocker!.message).toContain('stays maintained as it is');
    expect(planned.blocker!.message).not.toContain('copy');
    const progress = (view: Maintenance) => {
      const r = view.store.current().registrations[0]!;
      return { frontiers: r.frontiers, sync: r.stages.sync.lastSuccessAt };
    };
    const before = progress(m);
    expect(before.sync).toEqual(expect.any(Number));

    // Picking the request's candidate changes that one registration in place.
    const [conflict] = m.conflicts();
    const private_ = m.store.current().conflicts[0]!;
    const chosen = private_.candidates.find((c) => c.bundles[0]!.registration!.sources[0]!.authority.ref === 'release')!;
    const plan = m.plan(conflict!.conflictId, chosen.candidateId);
    expect(plan.effects.find((e) => e.effect === 'restore')!.description).toMatch(/^Keeps maintaining local\/acme\/project as the same registration/);
    const applied = await m.apply(plan.planId, 'pick-1');
    expect(applied.restored).toEqual([enrolled.registrationId]);
    expect(m.conflicts()).toEqual([]);
    expect(maintained(m)).toEqual([[enrolled.registrationId, true, false]]);
    expect(m.list().registrations[0]!.aliases).toEqual(['Acme/Project', 'acme/project']);
    expect(m.store.current().registrations[0]!.sources.map((s) => s.authority.ref)).toEqual(['release']);
    // Its sync progress is kept: the pick changed its settings, not what it had fetched.
    expect(progress(m)).toEqual(before);
  });
});
