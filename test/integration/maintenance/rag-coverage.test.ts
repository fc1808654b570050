import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import type { StageRunner } from '../../../core/maintenance/jobs.js';
import { resolveProfile } from '../../../core/maintenance/rag/profiles.js';
import { DEFAULT_CONFIG_SNAPSHOT } from '../../../core/maintenance/schema.js';
import { FakeOllama } from '../../support/fake-embedders.js';
import { ollamaConfig, ragRig, REPO, type RagRig } from './rag-rig.js';

const NEW_ISSUE = {
  id: 2199999999,
  number: 999,
  title: 'Checksum mismatch warning flickers in the status bar',
  body: 'After enabling the integrity checker, a yellow checksum mismatch warning flickers every few seconds even though no file changed.',
  state: 'open',
  labels: [{ name: 'bug' }],
  user: { login: 'zoe-q' },
  comments: 0,
  created_at: '2024-06-01T10:00:00Z',
  updated_at: '2024-06-01T10:00:00Z',
  closed_at: null,
  html_url: 'https://github.com/inkwell-app/inkwell/issues/999',
};

describe('RAG coverage: each run covers its own namespace, captured inside the writer admission', () => {
  let rig: RagRig;
  let fake: FakeOllama | undefined;
  afterEach(async () => {
    await fake?.stop();
    fake = undefined;
    rig?.cleanup();
  });

  it('records covered_generation for the registration namespace from a generation read after sync, not before the lock', async () => {
    // The sync stage of the same pass adds content: a coverage read before the writer lock (the old
    // code) would publish a generation older than what the RAG stage indexed.
    const sync: StageRunner = async () => {
      const w = rig.writer();
      w.issue(NEW_ISSUE);
      const generation = w.generation();
      w.close();
      return { contentGeneration: generation };
    };
    rig = ragRig({ issues: 10, wiki: false, sync });
    const before = rig.peek((s) => s.generation(REPO));
    const pass = await rig.maintenance.reconcile();
    expect(pass.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['sync/succeeded', 'rag/succeeded']);
    const status = rig.maintenance.list().registrations[0]!;
    const after = rig.peek((s) => s.generation(REPO));
    expect(after).toBeGreaterThan(before);
    expect(status.generations).toEqual({ content: after, covered: after });
    const selected = rig.peek((s) => s.namespace(s.selection(REPO)!.namespaceId!)!);
    expect(selected.coveredGeneration).toBe(after);
    const { hits, degraded } = await rig.search('checksum mismatch warning flickers');
    expect(degraded).toBeUndefined();
    expect(hits[0]).toMatchObject({ collection: 'issues', number: 999, matchedBy: ['words', 'meaning'] });
  });

  it('leaves content changed during a run uncovered, searches by words meanwhile, and the next reconcile covers it', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:1111' }).start();
    rig = ragRig({ issues: 12, wiki: false, config: ollamaConfig(fake.url) });
    let edited = false;
    fake.beforeReply = () => {
      if (edited) return;
      edited = true;
      // Another writer (outside this process's admission) changes the cache while the embedder works.
      const w = rig.writer();
      w.issue(NEW_ISSUE);
      w.close();
    };
    const first = await rig.maintenance.reconcile();
    expect(first.jobs.map((j) => j.state)).toEqual(['succeeded']);
    const status = rig.maintenance.list().registrations[0]!;
    expect(status.generations.covered).not.toBeNull();
    expect(status.generations.covered!).toBeLessThan(status.generations.content!);
    expect(rig.rag.reports.get(rig.registrationId)!.changedDuringRun).toBe(true);
    const meanwhile = await rig.search('checksum mismatch warning');
    expect(meanwhile.degraded).toBe('not_covered');
    expect(meanwhile.hits.every((h) => !h.matchedBy.includes('meaning'))).toBe(true);

    const second = await rig.maintenance.reconcile();
    expect(second.jobs.map((j) => j.state)).toEqual(['succeeded']);
    const repaired = rig.maintenance.list().registrations[0]!;
    expect(repaired.generations.covered).toBe(repaired.generations.content);
    const now = await rig.search('checksum mismatch warning');
    expect(now.degraded).toBeUndefined();
    expect(now.hits[0]).toMatchObject({ number: 999, matchedBy: ['words', 'meaning'] });
  });

  it('re-resolves the profile even when coverage is current: a new model revision creates and selects a new namespace', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:1111' }).start();
    let now = 1_700_000_000_000;
    rig = ragRig({ issues: 8, wiki: false, config: ollamaConfig(fake.url), stage: { resolveIntervalMs: 60_000, clock: () => now } });
    await rig.maintenance.reconcile();
    const firstNs = rig.peek((s) => s.selection(REPO)!.namespaceId!);
    const chunks = rig.peek((s) => s.db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number);
    const embeddedOnce = fake.inputsEmbedded;

    fake.options.revision = 'sha256:2222';
    // Within the resolution interval nothing is asked of the provider again…
    await rig.maintenance.reconcile();
    expect(rig.peek((s) => s.selection(REPO)!.namespaceId)).toBe(firstNs);
    // …once it has passed, the new revision is noticed although no content changed.
    now += 61_000;
    await rig.maintenance.reconcile();
    const selection = rig.peek((s) => s.selection(REPO)!);
    expect(selection.namespaceId).not.toBe(firstNs);
    const ns = rig.peek((s) => s.namespace(selection.namespaceId!)!);
    expect(ns.revision).toBe('2222');
    expect(ns.coveredGeneration).toBe(rig.peek((s) => s.generation(REPO)));
    // Every chunk was embedded again with the new revision (plus the resolution's one dimension
    // probe); none was cut again; the old namespace is gone.
    expect(fake.inputsEmbedded - embeddedOnce).toBe(chunks + 1);
    expect(rig.rag.reports.get(rig.registrationId)!.sourcesChunked).toBe(0);
    expect(rig.peek((s) => s.namespace(firstNs))).toBeNull();
    expect((await rig.search('sync conflicted copies')).degraded).toBeUndefined();
  });

  it('clears the previous selection at once on an explicit profile change, before the new profile can even be reached', async () => {
    rig = ragRig({ issues: 8, wiki: false });
    await rig.maintenance.reconcile();
    expect((await rig.search('conflicted copy')).degraded).toBeUndefined();
    const oldNs = rig.peek((s) => s.selection(REPO)!.namespaceId!);

    // A profile whose server is down: the change is applied, nothing has run yet.
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:1111' }).start();
    const url = fake.url;
    await fake.stop();
    rig.reconfigure(ollamaConfig(url, 'precise'));
    const immediately = await rig.search('conflicted copy');
    expect(immediately.degraded).toBe('profile_changed');
    expect(immediately.hits.length).toBeGreaterThan(0);
    expect(immediately.hits.every((h) => h.matchedBy.join() === 'words')).toBe(true);

    const failed = await rig.maintenance.reconcile();
    expect(failed.jobs.map((j) => `${j.state}/${j.errorClass}`)).toEqual(['failed/embedder_unavailable']);
    expect(rig.peek((s) => s.selection(REPO))).toMatchObject({ profile: 'precise', namespaceId: null, clearedReason: 'profile_changed' });
    expect(rig.peek((s) => s.namespace(oldNs))).not.toBeNull();

    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:1111' }).start();
    rig.reconfigure(ollamaConfig(fake.url, 'precise'));
    rig.maintenance.store.commit((draft) => {
      draft.registrations[0]!.stages.rag.nextAttemptAt = null;
    });
    await rig.maintenance.reconcile();
    const selection = rig.peek((s) => s.selection(REPO)!);
    expect(selection).toMatchObject({ profile: 'precise', clearedReason: null });
    expect(selection.namespaceId).not.toBe(oldNs);
    expect(rig.peek((s) => s.namespace(oldNs))).toBeNull();
    expect((await rig.search('conflicted copy')).degraded).toBeUndefined();
  });

  it('refuses a remote profile the confirmed policy does not allow, naming the boundary, and sends it nothing', async () => {
    const remote = { profile: 'openai', embedding: { provider: 'openai-compatible' as const, model: 'text-embedding-3-small', endpoint: 'https://api.openai.com/v1' }, chunk: { max_chars: 2000, overlap: 200 } };
    rig = ragRig({ issues: 4, wiki: false, config: remote });
    const pass = await rig.maintenance.reconcile();
    expect(pass.jobs.map((j) => `${j.state}/${j.errorClass}`)).toEqual(['failed/boundary_refused']);
    const status = rig.maintenance.list().registrations[0]!;
    expect(status.degraded).toContain('index_failed');
    expect(status.stages.rag.nextAttemptAt).not.toBeNull();
    expect(rig.peek((s) => s.selection(REPO))).toMatchObject({ namespaceId: null, clearedReason: 'boundary_refused' });
    const words = await rig.search('sync conflicted');
    expect(words.degraded).toBe('boundary_refused');

    const refused = await resolveProfile(remote, {}, rig.rag.deps).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StewardError);
    expect((refused as StewardError).code).toBe('boundary_refused');
    expect((refused as StewardError).message).toMatch(/across the remote data boundary .*allows only local_network/);
    expect((refused as StewardError).details).toEqual({ boundary: 'remote', allowed: 'local_network' });
    // A narrower consent refuses even a loopback server.
    const loopback = await resolveProfile(ollamaConfig('http://127.0.0.1:9'), { embeddingBoundary: 'local_process' }, rig.rag.deps).catch((e: unknown) => e);
    expect((loopback as StewardError).message).toContain('local_network data boundary');
  });

  it('runs sync and RAG independently: a failing sync backs off alone, a refused RAG profile does not hold sync back', async () => {
    let failSync = true;
    const sync: StageRunner = async () => {
      if (failSync) throw Object.assign(new Error('forge down'), { errorClass: 'forge_unavailable' });
      return {};
    };
    rig = ragRig({ issues: 4, wiki: false, sync });
    const first = await rig.maintenance.reconcile();
    expect(first.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['sync/failed', 'rag/succeeded']);
    // Content changes while sync backs off: the index still takes it in (a run with nothing new records no job).
    const w = rig.writer();
    w.issue({ ...rig.corpus.issues[0]!, body: 'Edited while the forge is down.' });
    w.close();
    const second = await rig.maintenance.reconcile();
    expect(second.skipped.map((s) => `${s.stage}/${s.reason}`)).toEqual(['sync/backoff']);
    expect(second.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['rag/succeeded']);

    failSync = false;
    rig.reconfigure({ ...DEFAULT_CONFIG_SNAPSHOT, profile: 'remote', embedding: { provider: 'openai-compatible', model: 'm', endpoint: 'https://embeddings.example.com/v1' } });
    rig.maintenance.store.commit((draft) => {
      draft.registrations[0]!.stages.sync.nextAttemptAt = null;
    });
    const third = await rig.maintenance.reconcile();
    expect(third.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['sync/succeeded', 'rag/failed']);
    const fourth = await rig.maintenance.reconcile();
    expect(fourth.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['sync/succeeded']);
    expect(fourth.skipped.map((s) => `${s.stage}/${s.reason}`)).toEqual(['rag/backoff']);
  });
});
