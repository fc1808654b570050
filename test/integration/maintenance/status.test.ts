import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startOwner } from '../../../core/index.js';
import { fixture, WIDGETS, type Fixture } from '../../unit/maintenance/support.js';
import { rig, seed, untilComplete, type Rig } from './sync-rig.js';

describe('truthful maintenance status', () => {
  let f: Fixture | undefined;
  let r: Rig | undefined;
  afterEach(async () => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
    await r?.close();
    f = r = undefined;
  });

  it('never calls a registration ready (or healthy) before its sync has run', async () => {
    f = fixture();
    const cache = f.cache('a.db', [WIDGETS]);
    const owner = await startOwner({ home: { dir: f.home.dir, kind: 'env' }, env: f.home.env, port: 0, schedule: false });
    try {
      await owner.core.call('Maintenance.Enroll', { cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' });
      const enrolled = (await owner.core.call('Maintenance.List', {})).registrations[0]!;
      expect(enrolled.state).not.toBe('ready');
      expect(enrolled.stages.sync.lastSuccessAt).toBeNull();
      // A pass that could not sync (no token here) records no job and claims nothing.
      await owner.core.call('Maintenance.Reconcile', {});
      const after = (await owner.core.call('Maintenance.List', {})).registrations[0]!;
      expect(after.state).not.toBe('ready');
      expect(after.jobs).toEqual([]);
      expect(after.stages.sync.lastSuccessAt).toBeNull();
      expect(after.degraded).toEqual([]);
    } finally {
      await owner.stop();
    }
  });

  it('keeps a registration that asks for RAG out of `ready` while nothing indexes it, even with sync complete', async () => {
    r = await rig('github', { policy: { collections: ['issues'], rag: 'maintain' } });
    seed(r.forge, 8);
    await untilComplete(r);
    const pass = await r.reconcile();
    expect(pass.skipped).toContainEqual(expect.objectContaining({ stage: 'rag', reason: 'rag_unavailable' }));
    expect(pass.jobs.every((j) => j.stage === 'sync')).toBe(true);
    const status = r.m.list().registrations[0]!;
    expect(status.collections[0]).toMatchObject({ head: { state: 'fresh' }, tail: { state: 'complete' } });
    expect(status.stages.rag.lastSuccessAt).toBeNull();
    expect(status.state).toBe('pending');
  });
});
