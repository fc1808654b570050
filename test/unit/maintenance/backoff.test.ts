import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffMs } from '../../../core/maintenance/policy.js';
import { type StageRunner } from '../../../core/maintenance/jobs.js';
import { fixture, WIDGETS, type Fixture } from './support.js';

const MINUTE = 60_000;

class ForgeDown extends Error {
  readonly errorClass = 'forge_unreachable';
}

describe('failed-stage backoff', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('computes 1, 2, 4 … 64 minutes and stays at 64', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffMs(n) / MINUTE)).toEqual([1, 2, 4, 8, 16, 32, 64, 64, 64]);
  });

  it('persists each failure with its sanitized class and next attempt across restarts; a backed-off sync never blocks RAG', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    let now = 1_000_000;
    let syncCalls = 0;
    let ragCalls = 0;
    let syncFails = true;
    const runners: Record<'sync' | 'rag', StageRunner> = {
      sync: async () => {
        syncCalls += 1;
        if (syncFails) throw new ForgeDown('GET https://user:hunter2@forge.example/api failed');
      },
      rag: async () => {
        ragCalls += 1;
      },
    };
    const open = () => f.open({ clock: () => now, runners });
    const { registrationId } = open().enroll({ cachePath: file, repo: 'acme/widgets', policy: { rag: 'maintain' }, idempotencyKey: 'k' });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      // A fresh coordinator each time: the schedule lives in the registry, not in memory.
      const m = open();
      if (attempt > 1) {
        const early = await m.reconcile();
        expect(early.skipped).toContainEqual(expect.objectContaining({ registrationId, stage: 'sync', reason: 'backoff' }));
        expect(early.jobs.map((j) => j.stage)).toEqual(['rag']);
        const { nextAttemptAt } = m.list().registrations[0]!.stages.sync;
        now = nextAttemptAt!;
      }
      const before = syncCalls;
      const pass = await open().reconcile();
      expect(syncCalls).toBe(before + 1);
      expect(pass.jobs.find((j) => j.stage === 'sync')).toMatchObject({ state: 'failed', errorClass: 'forge_unreachable' });
      const sync = open().list().registrations[0]!.stages.sync;
      expect(sync).toMatchObject({ errorClass: 'forge_unreachable', failures: attempt, lastFailureAt: now });
      waits.push((sync.nextAttemptAt! - now) / MINUTE);
      now += 1_000;
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 64]);
    expect(ragCalls).toBeGreaterThanOrEqual(8);
    expect(open().list().registrations[0]!.degraded).toEqual(['sync_failed']);

    syncFails = false;
    now = open().list().registrations[0]!.stages.sync.nextAttemptAt!;
    await open().reconcile();
    const healed = open().list().registrations[0]!;
    expect(healed.stages.sync).toMatchObject({ errorClass: null, failures: 0, nextAttemptAt: null, lastSuccessAt: now });
    expect(healed.degraded).toEqual([]);
    // Healed, not ready: this stand-in sync proved no collection fresh, and nothing indexed.
    expect(healed.state).not.toBe('degraded');
    expect(healed.state).not.toBe('ready');
  });
});
