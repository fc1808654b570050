import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOME_FILES } from '../../../core/config/index.js';
import type { Maintenance } from '../../../core/maintenance/index.js';
import { fixture, GADGETS, WIDGETS, type Fixture } from './support.js';

const TYPO = { repoId: 'github.com/acme/typo', aliases: ['acme/typo'] };

describe('Maintenance.Remove', () => {
  let f: Fixture | undefined;
  let m: Maintenance | undefined;
  afterEach(async () => {
    await m?.stop();
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
    f = m = undefined;
  });

  it('retires one of two registrations: status lists the other, retired counts it, its cache stays, and no id of it schedules work', async () => {
    f = fixture();
    m = f.open();
    const widgets = m.enroll({ cachePath: f.cache('widgets.db', [WIDGETS]), repo: 'acme/widgets', idempotencyKey: 'w' });
    const typoCache = f.cache('typo.db', [TYPO]);
    const typo = m.enroll({ cachePath: typoCache, repo: 'acme/typo', idempotencyKey: 't' });
    // A legacy id that redirects to the registration, as a migrated registry holds one.
    m.store.commit((draft) => void (draft.redirects['legacy-typo'] = typo.registrationId));

    const removed = await m.remove({ registrationId: 'acme/typo', idempotencyKey: 'rm-1' });
    expect(removed).toMatchObject({ registrationId: typo.registrationId, removed: true, cache: 'kept', cacheCreatedBySteward: false, replayed: false });

    const list = m.list();
    expect(list.registrations.map((r) => r.registrationId)).toEqual([widgets.registrationId]);
    expect(list.retired).toBe(1);
    expect(existsSync(typoCache)).toBe(true);
    // The retired record keeps the registration (receipts and jobs still resolve to it), never deletes the row.
    expect(JSON.parse(readFileSync(m.store.file, 'utf8')).retired[0]).toMatchObject({ reason: 'removed', conflictId: null, registration: { registrationId: typo.registrationId } });

    const pass = await m.reconcileNow();
    expect(pass.visited).toBe(1);
    expect([...pass.jobs, ...pass.skipped].every((j) => j.registrationId === widgets.registrationId)).toBe(true);
    for (const id of [typo.registrationId, 'legacy-typo', 'acme/typo']) await expect(m.reconcileNow(id)).rejects.toMatchObject({ code: 'not_found' });

    // The same key replays; the enrollment receipt no longer answers with a stale success.
    expect(await m.remove({ registrationId: 'acme/typo', idempotencyKey: 'rm-1' })).toMatchObject({ registrationId: typo.registrationId, replayed: true });
    expect(() => m!.enroll({ cachePath: typoCache, repo: 'acme/typo', idempotencyKey: 't' })).toThrow(expect.objectContaining({ code: 'not_found' }));
    // Removed by mistake: enrolling the kept cache again with a new key maintains it again.
    expect(m.enroll({ cachePath: typoCache, repo: 'acme/typo', idempotencyKey: 't2' })).toMatchObject({ created: true });
    expect(m.list().registrations).toHaveLength(2);
    // Status never carries a cache path.
    expect(JSON.stringify(removed)).not.toContain(f.caches);
  });

  it('never removes under a running job: refused with cache_writer_busy and nothing changes, then removed once it has unwound', async () => {
    f = fixture();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    m = f.open({ runners: { sync: () => gate } });
    const w = m.enroll({ cachePath: f.cache('w.db', [WIDGETS]), repo: 'acme/widgets', idempotencyKey: 'w' });
    const running = m.reconcileNow(w.registrationId);
    await new Promise((r) => setTimeout(r, 20));
    expect(m.admission.isActive(w.cacheUuid)).toBe(true);
    await expect(m.remove({ registrationId: w.registrationId })).rejects.toMatchObject({ code: 'cache_writer_busy', message: expect.stringContaining('Steward is syncing this cache with its forge right now') });
    expect(m.list()).toMatchObject({ retired: 0, registrations: [{ registrationId: w.registrationId }] });
    release();
    await running;
    expect(await m.remove({ registrationId: w.registrationId })).toMatchObject({ removed: true });
    expect(m.list()).toMatchObject({ retired: 1, registrations: [] });
  });

  it('deletes a cache Steward created only with deleteCache, and refuses a user cache or a shared one without changing anything', async () => {
    f = fixture();
    m = f.open();
    const added = m.add({ repo: 'acme/typo', idempotencyKey: 'add-typo' });
    expect(added.cacheCreated).toBe(true);
    const own = f.cache('both.db', [WIDGETS, GADGETS]);
    const w = m.enroll({ cachePath: own, repo: 'acme/widgets', idempotencyKey: 'w' });
    const g = m.enroll({ cachePath: own, repo: 'acme/gadgets', idempotencyKey: 'g' });
    const before = readFileSync(m.store.file, 'utf8');

    await expect(m.remove({ registrationId: w.registrationId, deleteCache: true })).rejects.toMatchObject({ code: 'invalid_params', details: { reason: 'cache_not_created_by_steward' } });
    await expect(m.remove({ registrationId: 'reg_nothing' })).rejects.toMatchObject({ code: 'not_found' });
    expect(readFileSync(m.store.file, 'utf8')).toBe(before);
    expect(existsSync(own)).toBe(true);

    const plan = await m.remove({ registrationId: added.registrationId, deleteCache: true, dryRun: true });
    expect(plan).toMatchObject({ removed: false, cache: 'deleted', cacheCreatedBySteward: true, cacheSharedWith: 0 });
    expect(m.list().registrations).toHaveLength(3);

    const file = JSON.parse(readFileSync(m.store.file, 'utf8')).registrations.find((r: { registrationId: string }) => r.registrationId === added.registrationId).cachePath as string;
    expect(existsSync(file)).toBe(true);
    expect(await m.remove({ registrationId: added.registrationId, deleteCache: true })).toMatchObject({ removed: true, cache: 'deleted' });
    expect(existsSync(file)).toBe(false);

    // A cache file in Steward's own folder that two registrations use is never deleted under either.
    const sharedFile = join(f.home.dir, HOME_FILES.caches, 'two-repos.db');
    copyFileSync(f.cache('two.db', [{ repoId: 'github.com/acme/one', aliases: ['acme/one'] }, { repoId: 'github.com/acme/two', aliases: ['acme/two'] }]), sharedFile);
    const one = m.enroll({ cachePath: sharedFile, repo: 'acme/one', idempotencyKey: 'one' });
    const two = m.enroll({ cachePath: sharedFile, repo: 'acme/two', idempotencyKey: 'two' });
    const beforeShared = readFileSync(m.store.file, 'utf8');
    await expect(m.remove({ registrationId: one.registrationId, deleteCache: true })).rejects.toMatchObject({ code: 'invalid_params', details: { reason: 'cache_shared' } });
    expect(readFileSync(m.store.file, 'utf8')).toBe(beforeShared);
    expect(existsSync(sharedFile)).toBe(true);
    // Once the other registration is gone, the file is Steward's alone to delete.
    expect(await m.remove({ registrationId: two.registrationId })).toMatchObject({ removed: true, cache: 'kept' });
    expect(await m.remove({ registrationId: one.registrationId, deleteCache: true })).toMatchObject({ removed: true, cache: 'deleted', cacheCreatedBySteward: true });
    expect(existsSync(sharedFile)).toBe(false);

    // Removing one of two registrations on one user cache keeps it for the other.
    await m.remove({ registrationId: g.registrationId });
    expect(existsSync(own)).toBe(true);
    expect(m.list()).toMatchObject({ retired: 4, registrations: [{ registrationId: w.registrationId }] });
  });
});
