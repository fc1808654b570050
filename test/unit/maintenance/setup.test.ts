import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError, type SetupRequest } from '../../../core/api/index.js';
import type { PlanFacts } from '../../../core/maintenance/index.js';
import { DEFAULT_CONFIG_SNAPSHOT, type ConfigSnapshot } from '../../../core/maintenance/schema.js';
import { fixture, GADGETS, WIDGETS, type Fixture } from './support.js';

async function failure(work: () => unknown): Promise<StewardError | string> {
  try {
    await work();
  } catch (error) {
    return error instanceof StewardError ? error : `untyped:${String(error)}`;
  }
  return 'no error';
}

const codeOf = async (work: () => unknown) => {
  const e = await failure(work);
  return typeof e === 'string' ? e : e.code;
};

/**
 * Facts of a machine a test controls: the coordinator's own parts run for real, while whether an
 * owner runs, start at login and the configured profiles are what the test says. Providers are
 * exercised for real against loopback servers in the integration tests.
 */
function machine() {
  const state = {
    ownerRunning: true,
    login: { enabled: false, supported: true },
    installs: 0,
    tokens: new Set(['GITHUB_TOKEN']),
    profiles: { default: DEFAULT_CONFIG_SNAPSHOT } as Record<string, ConfigSnapshot>,
    smokes: 0,
  };
  const facts: PlanFacts = {
    service: {
      get ownerRunning() {
        return state.ownerRunning;
      },
      startAtLogin: () => state.login,
      installStartAtLogin: () => {
        state.installs += 1;
        state.login = { enabled: true, supported: true };
      },
    },
    profiles: {
      profiles: () => state.profiles,
      boundary: (s) =>
        s.embedding.endpoint === undefined ? { boundary: 'local_process', host: null } : { boundary: s.embedding.endpoint.startsWith('https:') ? 'remote' : 'local_network', host: new URL(s.embedding.endpoint).hostname },
      model: async (s) => ({ present: true, revision: `${s.embedding.model}@1` }),
      download: async () => undefined,
      smoke: async () => {
        state.smokes += 1;
        return { dimensions: 8 };
      },
    },
    tokenPresent: (name) => state.tokens.has(name),
  };
  return { state, facts };
}

const REMOTE_PROFILE: ConfigSnapshot = { profile: 'cloud', embedding: { provider: 'openai-compatible', model: 'text-embedding-3-small', endpoint: 'https://api.example.com/v1' }, chunk: { max_chars: 2_000, overlap: 200 } };
const LOCAL_PROFILE: ConfigSnapshot = { profile: 'local', embedding: { provider: 'ollama', model: 'nomic-embed-text', endpoint: 'http://127.0.0.1:11434' }, chunk: { max_chars: 2_000, overlap: 200 } };

describe('maintenance setup: plan -> confirm -> apply', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  const request: SetupRequest = { repo: 'acme/widgets' };

  it('plans read-only and deterministically, with effects by class, the config hash and the data boundary', async () => {
    f = fixture();
    const { facts } = machine();
    const m = f.open({ planFacts: facts });
    const plan = await m.planSetup(request);
    expect(await m.planSetup(request)).toEqual(plan);
    expect(existsSync(join(f.home.dir, 'managed-caches.json'))).toBe(false);
    expect(existsSync(join(f.home.dir, 'caches'))).toBe(false);
    expect(plan).toMatchObject({ status: 'confirmation_required', action: 'create', registrationId: null, repo: 'github.com/acme/widgets', dataBoundary: 'local_process', blocker: null });
    expect(plan.configHash).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.effects.map((e) => e.class)).toEqual(['inspect', 'local_config_write', 'local_service_change', 'job_enqueue', 'job_enqueue']);
    expect(plan.effects.find((e) => e.class === 'local_service_change')).toMatchObject({ needsPerson: true, description: expect.stringContaining('start at login') });
    expect(plan.handoff).toBe(
      `steward maintenance enable --repo acme/widgets --sync head-and-backfill --collections issues,issue-comments,pulls,pr-comments,wiki --rag off --profile default --yes --idempotency-key ${plan.handoff.split(' ').at(-1)}`,
    );
    expect((await m.planSetup({ ...request, serviceInstall: false })).effects.map((e) => e.class)).not.toContain('local_service_change');
    expect((await m.planSetup({ ...request, serviceInstall: false })).planId).not.toBe(plan.planId);
  });

  it('applies the confirmed plan once: a replayed key resumes, also after a restart, and never repeats the mutation', async () => {
    f = fixture();
    const { state, facts } = machine();
    const m = f.open({ planFacts: facts });
    const plan = await m.planSetup(request);
    const applied = await m.applySetup({ ...request, planId: plan.planId, idempotencyKey: 'setup-1', confirmedBy: 'person' });
    expect(applied.enrollment).toEqual({ completed: true, created: true, cacheCreated: true, updated: false, replayed: false });
    expect(applied.serviceInstalled).toBe(true);
    expect(state.installs).toBe(1);
    expect(applied.jobs.map((j) => `${j.stage}/${j.lane}`)).toEqual(['sync/head', 'sync/tail']);
    expect(applied.history).not.toBe('complete');
    const caches = readdirSync(join(f.home.dir, 'caches')).filter((n) => n.endsWith('.db'));
    expect(caches).toHaveLength(1);
    const enrolledAt = m.store.current().registrations[0]!.enrolledAt;

    // The plan is stale now (the registration exists), but the key is recognised first: a replay, not a second cache.
    const again = await m.applySetup({ ...request, planId: plan.planId, idempotencyKey: 'setup-1', confirmedBy: 'person' });
    expect(again).toMatchObject({ registrationId: applied.registrationId, enrollment: { replayed: true, created: true, cacheCreated: false } });
    await m.stop();
    const restarted = f.open({ planFacts: facts });
    const afterRestart = await restarted.applySetup({ ...request, planId: 'plan_whatever', idempotencyKey: 'setup-1', confirmedBy: 'person' });
    expect(afterRestart.enrollment.replayed).toBe(true);
    expect(afterRestart.registrationId).toBe(applied.registrationId);
    expect(readdirSync(join(f.home.dir, 'caches')).filter((n) => n.endsWith('.db'))).toEqual(caches);
    expect(restarted.store.current().registrations).toHaveLength(1);
    expect(restarted.store.current().registrations[0]!.enrolledAt).toBe(enrolledAt);
    expect(state.installs).toBe(1);

    // The same key with another policy is refused, and changes nothing.
    const before = readFileSync(join(f.home.dir, 'managed-caches.json'), 'utf8');
    expect(await codeOf(() => restarted.applySetup({ ...request, policy: { sync: 'head' }, planId: plan.planId, idempotencyKey: 'setup-1', confirmedBy: 'person' }))).toBe('idempotency_conflict');
    expect(readFileSync(join(f.home.dir, 'managed-caches.json'), 'utf8')).toBe(before);
  });

  it('refuses a plan made before the configuration changed as stale_plan, changing nothing', async () => {
    f = fixture();
    const { state, facts } = machine();
    state.profiles = { default: DEFAULT_CONFIG_SNAPSHOT, local: LOCAL_PROFILE };
    const m = f.open({ planFacts: facts });
    const plan = await m.planSetup({ ...request, policy: { rag: 'maintain', profile: 'local' } });
    expect(plan.dataBoundary).toBe('local_network');
    expect(plan.effects.filter((e) => e.class === 'provider_data_transfer')).toHaveLength(1);
    state.profiles = { ...state.profiles, local: { ...LOCAL_PROFILE, embedding: { ...LOCAL_PROFILE.embedding, dimensions: 256 } } };
    const stale = await failure(() => m.applySetup({ ...request, policy: { rag: 'maintain', profile: 'local' }, planId: plan.planId, idempotencyKey: 'k', confirmedBy: 'person' }));
    expect(stale).toBeInstanceOf(StewardError);
    expect((stale as StewardError).code).toBe('stale_plan');
    expect(existsSync(join(f.home.dir, 'managed-caches.json'))).toBe(false);
    expect(state.smokes).toBe(0);
    // Planned again, the same request applies; the smoke request ran before enrollment.
    const fresh = await m.planSetup({ ...request, policy: { rag: 'maintain', profile: 'local' } });
    expect(fresh.planId).not.toBe(plan.planId);
    const applied = await m.applySetup({ ...request, policy: { rag: 'maintain', profile: 'local' }, planId: fresh.planId, idempotencyKey: 'k', confirmedBy: 'person' });
    expect(applied.smoke).toEqual({ provider: 'ollama', dimensions: 8 });
    expect(state.smokes).toBe(1);
  });

  it('plans a policy change of an existing registration as an update that keeps it active: one record, never a conflict', async () => {
    f = fixture();
    const { state, facts } = machine();
    state.profiles = { default: DEFAULT_CONFIG_SNAPSHOT, local: LOCAL_PROFILE };
    const m = f.open({ planFacts: facts });
    const first = await m.applySetup({ ...request, planId: (await m.planSetup(request)).planId, idempotencyKey: 'k1', confirmedBy: 'person' });
    const change = { ...request, policy: { sync: 'head' as const, collections: ['issues' as const], rag: 'maintain' as const, profile: 'local' } };
    const plan = await m.planSetup(change);
    expect(plan).toMatchObject({ action: 'update', registrationId: first.registrationId, status: 'confirmation_required' });
    const words = plan.effects.filter((e) => e.class === 'local_config_write').map((e) => e.description);
    expect(words).toEqual([
      'Changes what is synced for github.com/acme/widgets from recent changes and all history to recent changes only.',
      'Stops syncing issue comments, pull requests, pull request comments and the wiki for github.com/acme/widgets; what is already cached stays in the cache.',
      'Turns on search indexing for github.com/acme/widgets with profile local.',
    ]);
    const applied = await m.applySetup({ ...change, planId: plan.planId, idempotencyKey: 'k2', confirmedBy: 'person' });
    expect(applied.registrationId).toBe(first.registrationId);
    expect(applied.enrollment).toMatchObject({ created: false, updated: true, replayed: false });
    const listed = m.list();
    expect(listed.registrations).toHaveLength(1);
    expect(listed.conflicts).toHaveLength(0);
    expect(listed.registrations[0]).toMatchObject({ enabled: true, policy: { sync: 'head', collections: ['issues'], rag: 'maintain', profile: 'local' } });
    expect(m.store.current().registrations[0]!.configSnapshot).toEqual(LOCAL_PROFILE);
    // Planning the same policy again changes nothing; a paused registration is resumed by a plan.
    expect((await m.planSetup(change)).action).toBe('none');
    m.disable(first.registrationId);
    const resume = await m.planSetup({ registrationId: first.registrationId });
    expect(resume.action).toBe('resume');
    await m.applySetup({ registrationId: first.registrationId, planId: resume.planId, idempotencyKey: 'k3', confirmedBy: 'person' });
    expect(m.list().registrations[0]!.enabled).toBe(true);
  });

  it('sends text to a remote embedder only under a policy a person confirmed: an agent is refused, and the apply of a person records the remote boundary', async () => {
    f = fixture();
    const { state, facts } = machine();
    state.profiles = { default: DEFAULT_CONFIG_SNAPSHOT, cloud: REMOTE_PROFILE };
    const m = f.open({ planFacts: facts });
    const cloud = { ...request, policy: { rag: 'maintain' as const, profile: 'cloud' }, serviceInstall: false };
    const plan = await m.planSetup(cloud);
    expect(plan.dataBoundary).toBe('remote');
    expect(plan.effects.find((e) => e.class === 'provider_data_transfer')).toMatchObject({ needsPerson: true, description: expect.stringContaining('at api.example.com (a remote service)') });
    expect(await codeOf(() => m.applySetup({ ...cloud, planId: plan.planId, idempotencyKey: 'agent', confirmedBy: 'agent' }))).toBe('confirmation_required');
    expect(existsSync(join(f.home.dir, 'managed-caches.json'))).toBe(false);
    await m.applySetup({ ...cloud, planId: plan.planId, idempotencyKey: 'person', confirmedBy: 'person' });
    expect(m.store.current().registrations[0]!.policy).toMatchObject({ rag: 'maintain', profile: 'cloud', embeddingBoundary: 'remote' });
    // Back to the built-in profile: the remote allowance goes with it.
    const local = { ...request, policy: { rag: 'maintain' as const, profile: 'default' }, serviceInstall: false };
    await m.applySetup({ ...local, planId: (await m.planSetup(local)).planId, idempotencyKey: 'back', confirmedBy: 'person' });
    expect(m.store.current().registrations[0]!.policy.embeddingBoundary).toBeUndefined();
  });

  it('lets two applies of one plan with different keys take turns: the second finds the registration the first made and is stale', async () => {
    f = fixture();
    const { facts } = machine();
    const m = f.open({ planFacts: facts });
    const plan = await m.planSetup(request);
    const results = await Promise.allSettled([
      m.applySetup({ ...request, planId: plan.planId, idempotencyKey: 'a', confirmedBy: 'person' }),
      m.applySetup({ ...request, planId: plan.planId, idempotencyKey: 'b', confirmedBy: 'person' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(((results[1] as PromiseRejectedResult).reason as StewardError).code).toBe('stale_plan');
    expect(readdirSync(join(f.home.dir, 'caches')).filter((n) => n.endsWith('.db'))).toHaveLength(1);
    expect(m.list().registrations).toHaveLength(1);
  });

  it('lets an agent enroll nothing a person must confirm: confirmation_required with the exact command, and the plan waits for a person', async () => {
    f = fixture();
    const { state, facts } = machine();
    let told = 0;
    const m = f.open({ planFacts: facts, onWaiting: () => (told += 1) });
    const plan = await m.planSetup(request);
    const refused = await failure(() => m.applySetup({ ...request, planId: plan.planId, idempotencyKey: 'agent-1', confirmedBy: 'agent' }));
    expect((refused as StewardError).code).toBe('confirmation_required');
    expect((refused as StewardError).details).toMatchObject({
      handoff: 'steward maintenance enable --repo acme/widgets --sync head-and-backfill --collections issues,issue-comments,pulls,pr-comments,wiki --rag off --profile default --yes --idempotency-key agent-1',
    });
    expect(existsSync(join(f.home.dir, 'managed-caches.json'))).toBe(false);
    expect(state.installs).toBe(0);
    expect(m.waitingPlans()).toMatchObject([{ repo: 'github.com/acme/widgets', request: { repo: 'acme/widgets' } }]);
    expect(told).toBe(1);
    // Without person-only effects an agent may enroll; the person's plan settles the waiting request.
    const quiet = await m.planSetup({ ...request, serviceInstall: false });
    const applied = await m.applySetup({ ...request, serviceInstall: false, planId: quiet.planId, idempotencyKey: 'agent-2', confirmedBy: 'agent' });
    expect(applied.enrollment.created).toBe(true);
    expect(m.waitingPlans()).toEqual([]);
  });

  it('blocks with a typed class, a diagnostic and a remedy, and holds work when no owner would keep the cache current', async () => {
    f = fixture();
    const { state, facts } = machine();
    state.tokens.clear();
    const m = f.open({ planFacts: facts });
    const blocked = await m.planSetup(request);
    expect(blocked.status).toBe('blocked');
    expect(blocked.blocker).toEqual({
      code: 'token_missing',
      message: 'No GITHUB_TOKEN is stored, so nothing can be read from github.com.',
      remediation: "Store the token with `printenv GITHUB_TOKEN | steward secrets set GITHUB_TOKEN` (or set GITHUB_TOKEN in Steward's environment), then plan again.",
    });
    const refused = await failure(() => m.applySetup({ ...request, planId: blocked.planId, idempotencyKey: 'b', confirmedBy: 'person' }));
    expect((refused as StewardError).code).toBe('token_missing');
    expect((refused as StewardError).details).toEqual({ remediation: blocked.blocker!.remediation });
    // With sync off nothing is read from the forge, so no token is needed.
    expect((await m.planSetup({ ...request, policy: { sync: 'off' } })).blocker).toBeNull();

    state.tokens.add('GITHUB_TOKEN');
    state.ownerRunning = false;
    const plan = await m.planSetup(request);
    expect(plan.effects.filter((e) => e.class === 'local_service_change').map((e) => e.description)[0]).toContain('steward serve');
    expect(await codeOf(() => m.applySetup({ ...request, planId: plan.planId, idempotencyKey: 'c', confirmedBy: 'person' }))).toBe('confirmation_required');
    expect(existsSync(join(f.home.dir, 'managed-caches.json'))).toBe(false);
  });

  it('blocks a repository an open conflict holds, and a cache that is no longer where it was registered', async () => {
    f = fixture();
    const { facts } = machine();
    const m = f.open({ planFacts: facts });
    const file = f.cache('a.db', [WIDGETS]);
    m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'e1' });
    expect(await codeOf(() => m.enroll({ cachePath: file, repo: 'acme/widgets', policy: { rag: 'maintain' }, idempotencyKey: 'e2' }))).toBe('identity_conflict');
    expect(await m.planSetup(request)).toMatchObject({ status: 'blocked', blocker: { code: 'identity_conflict', remediation: expect.stringContaining('Conflicts') } });

    const other = f.cache('b.db', [GADGETS]);
    const { registrationId } = m.enroll({ cachePath: other, repo: 'acme/gadgets', idempotencyKey: 'e3' });
    rmSync(other);
    expect((await m.planSetup({ registrationId })).blocker?.code).toBe('cache_invalid');
    expect(await codeOf(() => m.planSetup({ repo: 'acme/gadgets', registrationId }))).toBe('invalid_params');
    expect(await codeOf(() => m.planSetup({ repo: 'acme/widgets', policy: { profile: 'nowhere' } }))).toBe('invalid_params');
  });
});
