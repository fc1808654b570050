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
      expect((await quiet.core.call('Maintenance.List', {})).registrations[0]).toMatchObject({ waiting: null, nextRunAt: null, state: 'pending' });
    } finally {
      await quiet.stop();
    }
    // No token is set: a pass shows itself by recording why sync waits and when it looks again.
    const owner = await startOwner({ home: { dir: f.home.dir, kind: 'env' }, env: f.home.env, port: 0, schedule: true });
    try {
      const deadline = Date.now() + 15_000;
      let status = (await owner.core.call('Maintenance.List', {})).registrations[0]!;
      while (status.waiting === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await owner.core.call('Maintenance.List', {})).registrations[0]!;
      }
      expect(status).toMatchObject({ state: 'waiting', waiting: { reason: 'token_missing', host: 'github.com' }, jobs: [] });
    } finally {
      await owner.stop();
    }
  });
});
