import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOwner } from '../../../core/index.js';
import { fixture, WIDGETS, type Fixture } from '../../unit/maintenance/support.js';

describe('the owner reconcile timer', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('reconciles enrolled registrations on its own when the Core schedules, and not when it does not', async () => {
    f = fixture();
    writeFileSync(join(f.home.dir, 'config.json'), JSON.stringify({ maintenance: { reconcile_interval_ms: 1_000 } }));
    const cache = f.cache('a.db', [WIDGETS]);
    const quiet = await startOwner({ home: { dir: f.home.dir, kind: 'env' }, env: f.home.env, port: 0, schedule: false });
    try {
      await quiet.core.call('Maintenance.Enroll', { cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' });
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await quiet.core.call('Maintenance.List', {})).registrations[0]!.jobs).toEqual([]);
    } finally {
      await quiet.stop();
    }
    const owner = await startOwner({ home: { dir: f.home.dir, kind: 'env' }, env: f.home.env, port: 0, schedule: true });
    try {
      const deadline = Date.now() + 15_000;
      let jobs: unknown[] = [];
      while (jobs.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        jobs = (await owner.core.call('Maintenance.List', {})).registrations[0]!.jobs;
      }
      expect(jobs.length).toBeGreaterThan(0);
      expect(jobs).toContainEqual(expect.objectContaining({ stage: 'sync', lane: 'head', state: 'succeeded' }));
    } finally {
      await owner.stop();
    }
  });
});
