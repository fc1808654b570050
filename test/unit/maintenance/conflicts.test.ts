import { readFileSync, rmSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { fixture, GADGETS, WIDGETS, type Fixture } from './support.js';

async function codeOf(work: () => unknown): Promise<string> {
  try {
    await work();
  } catch (error) {
    return error instanceof StewardError ? error.code : `untyped:${String(error)}`;
  }
  return 'no error';
}

describe('cache identity conflicts', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('reports a copied cache as exactly one cache_clone_conflict and resolving it keeps repositories distinct', async () => {
    f = fixture();
    const original = f.cache('repo.db', [WIDGETS, GADGETS]);
    const m = f.open();
    const widgets = m.enroll({ cachePath: original, repo: 'acme/widgets', idempotencyKey: 'k1' });
    const gadgets = m.enroll({ cachePath: original, repo: 'acme/gadgets', idempotencyKey: 'k2' });
    expect(widgets.registrationId).not.toBe(gadgets.registrationId);
    const copy = f.copy(original, 'repo-copy.db');
    expect(await codeOf(() => m.enroll({ cachePath: copy, repo: 'acme/gadgets', idempotencyKey: 'k3' }))).toBe('cache_clone_conflict');

    const conflicts = m.conflicts();
    expect(conflicts).toHaveLength(1);
    const [conflict] = conflicts;
    expect(conflict!.kind).toBe('cache_clone_conflict');
    expect(conflict!.cacheUuid).toBe(widgets.cacheUuid);
    expect(conflict!.candidates).toHaveLength(2);
    expect(m.list().registrations).toHaveLength(0);
    // Replaying the same enrollment key replays the same refusal instead of adding another candidate.
    expect(await codeOf(() => m.enroll({ cachePath: copy, repo: 'acme/gadgets', idempotencyKey: 'k3' }))).toBe('cache_clone_conflict');
    expect(m.conflicts()).toEqual(conflicts);

    const selected = conflict!.candidates.find((c) => c.pathFingerprint === widgets.pathFingerprint)!;
    expect(selected.members.map((x) => x.canonicalRepoId).sort()).toEqual(['github.com/acme/gadgets', 'github.com/acme/widgets']);
    const plan = m.plan(conflict!.conflictId, selected.candidateId);
    expect(plan.effects.filter((e) => e.effect === 'restore')).toHaveLength(2);
    expect(plan.effects.filter((e) => e.effect === 'retire').map((e) => e.pathFingerprint)).toEqual([conflict!.candidates.find((c) => c !== selected)!.pathFingerprint]);
    const applied = await m.apply(plan.planId, 'resolve-1');
    expect(applied.restored.sort()).toEqual([gadgets.registrationId, widgets.registrationId].sort());

    const after = m.list();
    expect(after.conflicts).toHaveLength(0);
    expect(after.registrations.map((r) => r.canonicalRepoId).sort()).toEqual(['github.com/acme/gadgets', 'github.com/acme/widgets']);
    expect(new Set(after.registrations.map((r) => r.pathFingerprint))).toEqual(new Set([widgets.pathFingerprint]));
    expect(after.registrations.every((r) => r.enabled)).toBe(true);
    expect(after.retired).toBe(1);
    // The same key replays; a different plan under it is refused.
    expect((await m.apply(plan.planId, 'resolve-1')).replayed).toBe(true);
    expect(await codeOf(() => m.apply('plan_other', 'resolve-1'))).toBe('idempotency_conflict');
  });

  it('needs an explicit candidate and turns a changed conflict into stale_plan', async () => {
    f = fixture();
    const original = f.cache('a.db', [WIDGETS]);
    const m = f.open();
    m.enroll({ cachePath: original, repo: 'acme/widgets', idempotencyKey: 'k1' });
    const copy = f.copy(original, 'b.db');
    await codeOf(() => m.enroll({ cachePath: copy, repo: 'acme/widgets', idempotencyKey: 'k2' }));
    const [conflict] = m.conflicts();
    expect(await codeOf(() => m.plan(conflict!.conflictId, 'cand_nonexistent'))).toBe('not_found');
    const plan = m.plan(conflict!.conflictId, conflict!.candidates[0]!.candidateId);
    const third = f.copy(original, 'c.db');
    await codeOf(() => m.enroll({ cachePath: third, repo: 'acme/widgets', idempotencyKey: 'k3' }));
    expect(m.conflicts()[0]!.candidates).toHaveLength(3);
    expect(await codeOf(() => m.apply(plan.planId, 'apply-1'))).toBe('stale_plan');
    expect(m.conflicts()).toHaveLength(1);
  });

  it('refuses apply while a writer of that cache is active (the cache-UUID writer fence)', async () => {
    f = fixture();
    const original = f.cache('a.db', [WIDGETS]);
    const m = f.open();
    const enrolled = m.enroll({ cachePath: original, repo: 'acme/widgets', idempotencyKey: 'k1' });
    const copy = f.copy(original, 'b.db');
    await codeOf(() => m.enroll({ cachePath: copy, repo: 'acme/widgets', idempotencyKey: 'k2' }));
    const [conflict] = m.conflicts();
    const plan = m.plan(conflict!.conflictId, conflict!.candidates[0]!.candidateId);
    let release!: () => void;
    // A direct writer naming only the path is resolved to the UUID first, so it holds the same lane.
    const writer = m.admitPath(copy, 'repository-documents-1', 'repository_documents', () => new Promise<void>((r) => (release = r)));
    expect(await codeOf(() => m.apply(plan.planId, 'apply-1'))).toBe('cache_writer_busy');
    release();
    await writer;
    expect((await m.apply(plan.planId, 'apply-1')).conflictId).toBe(conflict!.conflictId);
    expect(m.admission.isActive(enrolled.cacheUuid)).toBe(false);
  });

  it('holds a registration whose policy conflicts as one disabled identity_conflict', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const m = f.open();
    const first = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k1' });
    // Another alias of the same repository is the same registration, not a second schedule.
    const alias = m.enroll({ cachePath: file, repo: 'Acme/Widgets-Legacy', idempotencyKey: 'k2' });
    expect(alias.registrationId).toBe(first.registrationId);
    expect(m.list().registrations).toHaveLength(1);
    expect(m.list().registrations[0]!.aliases).toEqual(['Acme/Widgets-Legacy', 'acme/widgets']);
    expect(await codeOf(() => m.enroll({ cachePath: file, repo: 'acme/widgets', policy: { rag: 'maintain' }, idempotencyKey: 'k3' }))).toBe('identity_conflict');
    const [conflict] = m.conflicts();
    expect(conflict!.kind).toBe('identity_conflict');
    expect(conflict!.candidates).toHaveLength(2);
    // A copy enrolled while the original's registrations are held cannot slip in as a new cache.
    const copy = f.copy(file, 'copy.db');
    expect(await codeOf(() => m.enroll({ cachePath: copy, repo: 'acme/widgets', idempotencyKey: 'k4' }))).toBe('cache_clone_conflict');
    // The conflict does not stop the registration that was maintained: it stays, enabled, until a pick.
    expect(m.list().registrations.map((r) => [r.registrationId, r.enabled])).toEqual([[first.registrationId, true]]);
    expect(new Set(conflict!.candidates.map((c) => c.members[0]!.policyHash)).size).toBe(2);
    const chosen = conflict!.candidates.find((c) => c.members[0]!.policyHash !== conflict!.candidates[0]!.members[0]!.policyHash) ?? conflict!.candidates[1]!;
    await m.apply(m.plan(conflict!.conflictId, chosen.candidateId).planId, 'r1');
    const [registration] = m.list().registrations;
    expect(registration!.registrationId).toBe(first.registrationId);
    expect(registration!.aliases).toEqual(['Acme/Widgets-Legacy', 'acme/widgets']);
  });

  it('replays an enrollment key and refuses the same key with different content', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const m = f.open();
    const first = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'setup-1' });
    const again = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'setup-1' });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await codeOf(() => m.enroll({ cachePath: file, repo: 'acme/widgets', policy: { sync: 'off' }, idempotencyKey: 'setup-1' }))).toBe('idempotency_conflict');
    // The receipt is durable: a restarted coordinator replays it too.
    expect(f.open().enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'setup-1' }).replayed).toBe(true);
  });

  it('disables reversibly without touching the cache file', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const before = readFileSync(file);
    const m = f.open();
    const { registrationId } = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k' });
    expect(m.disable(registrationId).state).toBe('disabled');
    // Enrolling again (a new key, same content) is not a way around the operator's Disable.
    expect(m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k-again' }).created).toBe(false);
    expect(m.list().registrations[0]!.state).toBe('disabled');
    expect((await m.reconcile()).skipped).toEqual([{ registrationId, stage: null, lane: null, reason: 'operator', nextAttemptAt: null }]);
    expect(m.enable('ACME/widgets').registrationId).toBe(registrationId);
    expect(m.disable('acme/widgets').enabled).toBe(false);
    expect(m.enable(registrationId).enabled).toBe(true);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('disables a registration whose snapshot no longer matches its hash as config_snapshot_invalid until re-enrolled', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const m = f.open();
    const { registrationId } = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k' });
    const registryFile = m.store.file;
    const raw = JSON.parse(readFileSync(registryFile, 'utf8')) as { registrations: Array<{ configSnapshot: { chunk: { max_chars: number } } }> };
    raw.registrations[0]!.configSnapshot.chunk.max_chars = 999;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(registryFile, JSON.stringify(raw));
    const reopened = f.open();
    const [status] = reopened.list().registrations;
    expect(status).toMatchObject({ enabled: false, disabledReason: 'config_snapshot_invalid', state: 'blocked' });
    expect((await reopened.reconcile()).jobs).toHaveLength(0);
    expect(await codeOf(() => reopened.enable(registrationId))).toBe('config_snapshot_invalid');
    const resolved = reopened.resolveConfig({ profile: 'default', embedding: { provider: 'none', model: 'none' }, chunk: { max_chars: 2000, overlap: 200 } });
    expect(resolved.configHash).toMatch(/^[0-9a-f]{64}$/);
    reopened.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'repair-1' });
    expect(reopened.list().registrations[0]).toMatchObject({ enabled: true, disabledReason: null });
    expect((await reopened.reconcile()).jobs.map((j) => j.state)).toEqual(['succeeded']);
  });

  it('reports a clone even when the copy is enrolled for a different repository, and never relabels the rejected path\'s jobs', async () => {
    f = fixture();
    const original = f.cache('a.db', [WIDGETS, GADGETS]);
    const m = f.open();
    const widgets = m.enroll({ cachePath: original, repo: 'acme/widgets', idempotencyKey: 'k1' });
    await m.reconcile();
    const oldJobs = m.list().registrations[0]!.jobs.map((j) => j.jobId);
    expect(oldJobs).toHaveLength(1);
    const copy = f.copy(original, 'b.db');
    expect(await codeOf(() => m.enroll({ cachePath: copy, repo: 'acme/gadgets', idempotencyKey: 'k2' }))).toBe('cache_clone_conflict');
    const [conflict] = m.conflicts();
    expect(conflict!.kind).toBe('cache_clone_conflict');
    const copyCandidate = conflict!.candidates.find((c) => c.pathFingerprint !== widgets.pathFingerprint)!;
    expect(copyCandidate.members.map((x) => x.canonicalRepoId)).toEqual(['github.com/acme/gadgets']);
    const applied = await m.apply(m.plan(conflict!.conflictId, copyCandidate.candidateId).planId, 'r');
    expect(applied.retired).toEqual([widgets.pathFingerprint]);
    // The old path's enrollment receipt is not projected onto the live identity.
    expect(await codeOf(() => m.enroll({ cachePath: original, repo: 'acme/widgets', idempotencyKey: 'k1' }))).toBe('cache_clone_conflict');
    const [gadgets, ...others] = m.list().registrations;
    expect(others).toHaveLength(0);
    expect(gadgets!.canonicalRepoId).toBe('github.com/acme/gadgets');
    // Then enrolling widgets on the kept copy is a fresh registration: the old path's history stays its own.
    const again = m.enroll({ cachePath: copy, repo: 'acme/widgets', idempotencyKey: 'k3' });
    expect(again.registrationId).toBe(widgets.registrationId);
    expect(again.pathFingerprint).not.toBe(widgets.pathFingerprint);
    const status = m.list().registrations.find((r) => r.registrationId === widgets.registrationId)!;
    expect(status.jobs).toEqual([]);
    expect(m.store.current().jobs.filter((j) => oldJobs.includes(j.jobId)).map((j) => j.pathFingerprint)).toEqual([widgets.pathFingerprint]);
  });

  it('fails closed on distinct repository-document authorities and merges equivalent ones', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const { mkdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const tree = join(f.caches, 'worktree');
    mkdirSync(tree);
    const m = f.open();
    const first = m.enroll({ cachePath: file, repo: 'acme/widgets', sources: [{ kind: 'git', ref: 'refs/heads/main', root: tree }], idempotencyKey: 'k1' });
    // The same authority reached through another alias is the same registration.
    expect(m.enroll({ cachePath: file, repo: 'Acme/Widgets-Legacy', sources: [{ kind: 'git', ref: 'refs/heads/main', root: tree }], idempotencyKey: 'k2' }).registrationId).toBe(first.registrationId);
    expect(m.store.current().registrations[0]!.sources).toHaveLength(1);
    expect(await codeOf(() => m.enroll({ cachePath: file, repo: 'acme/widgets', sources: [{ kind: 'git', ref: 'refs/heads/release', root: tree }], idempotencyKey: 'k3' }))).toBe('identity_conflict');
    const [conflict] = m.conflicts();
    expect(conflict!.candidates.map((c) => c.members[0]!.sourceAuthorities)).toHaveLength(2);
    expect(new Set(conflict!.candidates.map((c) => c.members[0]!.sourceAuthorities.join()))).toHaveProperty('size', 2);
  });

  it('marks an unreadable or replaced cache as an explicit degraded state and recovers when it is back', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const { copyFileSync, renameSync } = await import('node:fs');
    const m = f.open();
    const { registrationId } = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k' });
    renameSync(file, `${file}.away`);
    expect((await m.reconcile()).skipped).toEqual([{ registrationId, stage: null, lane: null, reason: 'cache_unreadable', nextAttemptAt: null }]);
    expect(m.list().registrations[0]).toMatchObject({ state: 'degraded', degraded: ['cache_unreadable'] });
    const other = f.cache('other.db', [WIDGETS]);
    copyFileSync(other, file);
    expect((await m.reconcile()).skipped[0]!.reason).toBe('identity_replaced');
    expect(m.list().registrations[0]!.degraded).toEqual(['identity_replaced']);
    renameSync(`${file}.away`, file);
    expect((await m.reconcile()).jobs.map((j) => j.state)).toEqual(['succeeded']);
    // Recovered, but not `ready`: the stand-in sync proved no collection fresh.
    expect(m.list().registrations[0]).toMatchObject({ state: 'refreshing', degraded: [] });
  });

  it('disables a registration whose cache authority no longer matches (config_snapshot_invalid) without touching either file', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const other = f.copy(file, 'moved.db');
    const m = f.open();
    m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k' });
    const { writeFileSync } = await import('node:fs');
    const raw = JSON.parse(readFileSync(m.store.file, 'utf8')) as { registrations: Array<{ cachePath: string }> };
    raw.registrations[0]!.cachePath = other;
    writeFileSync(m.store.file, JSON.stringify(raw));
    const before = readFileSync(other);
    const reopened = f.open();
    expect(reopened.list().registrations[0]).toMatchObject({ enabled: false, disabledReason: 'config_snapshot_invalid', degraded: ['config_snapshot_invalid'] });
    expect((await reopened.reconcile()).skipped).toEqual([expect.objectContaining({ reason: 'config_snapshot_invalid' })]);
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it('lets a person tell the copies of a clone apart (items, size, last sync, last change) and says in words what happens to each', async () => {
    f = fixture();
    const original = f.cache('repo.db', [WIDGETS]);
    const m = f.open();
    const widgets = m.enroll({ cachePath: original, repo: 'acme/widgets', idempotencyKey: 'k1' });
    await m.reconcileNow();
    const copy = f.copy(original, 'repo-copy.db');
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(copy);
    const insert = db.prepare("INSERT INTO items (repo_id, collection, external_id, number, revision, stream) VALUES ('github.com/acme/widgets', 'issues', ?, ?, 'r1', 'issues')");
    for (let n = 1; n <= 3; n += 1) insert.run(String(n), n);
    db.close();
    expect(await codeOf(() => m.enroll({ cachePath: copy, repo: 'acme/widgets', idempotencyKey: 'k2' }))).toBe('cache_clone_conflict');
    const [conflict] = m.conflicts();
    const evidence = m.conflictEvidence(conflict!.conflictId);
    const byPath = new Map(conflict!.candidates.map((c) => [c.pathFingerprint, evidence.candidates.find((e) => e.candidateId === c.candidateId)!]));
    const kept = byPath.get(widgets.pathFingerprint)!;
    const other = [...byPath.entries()].find(([fp]) => fp !== widgets.pathFingerprint)![1];
    expect(kept).toMatchObject({ items: 0, sizeBytes: statSync(original).size, lastModifiedAt: Math.floor(statSync(original).mtimeMs), lastSyncAt: expect.any(Number) });
    expect(other).toMatchObject({ items: 3, sizeBytes: statSync(copy).size, lastSyncAt: null });
    expect(JSON.stringify(evidence)).not.toContain(f.caches);

    const selected = conflict!.candidates.find((c) => c.pathFingerprint === widgets.pathFingerprint)!;
    const plan = m.plan(conflict!.conflictId, selected.candidateId);
    expect(plan.effects.map((e) => e.description)).toEqual([
      ...conflict!.candidates.map((c) =>
        c === selected
          ? `Keeps github.com/acme/widgets (copy ${c.pathFingerprint}) and maintains it again.`
          : `Stops maintaining github.com/acme/widgets in the other copy (copy ${c.pathFingerprint}); that file stays on disk, untouched.`,
      ),
    ]);
  });
});
