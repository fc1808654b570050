import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { WriterAdmission } from '../../../core/maintenance/index.js';
import { fixture, GADGETS, WIDGETS, type Fixture } from './support.js';

describe('writer admission', () => {
  it('admits one writer per cache under 100 concurrent requests: identical work coalesces, different work is cache_writer_busy', async () => {
    const admission = new WriterAdmission();
    let started = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const work = async () => {
      started += 1;
      await gate;
      return 'indexed';
    };
    const requests = Array.from({ length: 100 }, (_, i) =>
      admission.admit('cache-1', i % 2 === 0 ? 'job:sync:head' : `job:rag:index:${i}`, i % 2 === 0 ? 'sync' : 'rag', work),
    );
    const settled = Promise.allSettled(requests);
    release();
    const outcomes = await settled;
    expect(started).toBe(1);
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    const rejected = outcomes.filter((o) => o.status === 'rejected');
    expect(fulfilled).toHaveLength(50);
    expect(fulfilled.filter((o) => !o.value.coalesced)).toHaveLength(1);
    expect(fulfilled.every((o) => o.value.result === 'indexed')).toBe(true);
    expect(rejected).toHaveLength(50);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(StewardError);
      expect((r.reason as StewardError).code).toBe('cache_writer_busy');
    }
    expect(admission.isActive('cache-1')).toBe(false);
  });

  it('keeps different caches independent and admits new work only once the writer has unwound', async () => {
    const admission = new WriterAdmission();
    let release!: () => void;
    const first = admission.admit('cache-1', 'a', 'sync', () => new Promise<void>((r) => (release = r)));
    await expect(admission.admit('cache-2', 'b', 'rag', async () => 'other cache')).resolves.toEqual({ result: 'other cache', coalesced: false });
    await expect(admission.admit('cache-1', 'b', 'rag', async () => 'x')).rejects.toMatchObject({ code: 'cache_writer_busy' });
    release();
    await first;
    await expect(admission.admit('cache-1', 'b', 'rag', async () => 'now')).resolves.toEqual({ result: 'now', coalesced: false });
    // A failing writer unwinds too.
    await expect(admission.admit('cache-1', 'c', 'sync', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(admission.isActive('cache-1')).toBe(false);
  });

  describe('in reconciliation', () => {
    let f: Fixture;
    afterEach(() => {
      f?.home.cleanup();
      if (f) rmSync(f.caches, { recursive: true, force: true });
    });

    it('visits same-cache registrations oldest-writer-first and reports busy instead of waiting', async () => {
      f = fixture();
      const file = f.cache('a.db', [WIDGETS, GADGETS]);
      const order: string[] = [];
      let block: Promise<void> | null = null;
      const m = f.open({
        runners: {
          sync: async ({ canonicalRepoId }) => {
            order.push(canonicalRepoId);
            if (block) await block;
          },
        },
      });
      const widgets = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'w' });
      const gadgets = m.enroll({ cachePath: file, repo: 'acme/gadgets', idempotencyKey: 'g' });
      await m.reconcile(widgets.registrationId);
      order.length = 0;
      await m.reconcile();
      // gadgets never wrote, widgets wrote just now: gadgets goes first.
      expect(order).toEqual(['github.com/acme/gadgets', 'github.com/acme/widgets']);
      let release!: () => void;
      block = new Promise<void>((r) => (release = r));
      const running = m.reconcile(gadgets.registrationId);
      await new Promise((r) => setTimeout(r, 20));
      const second = await m.reconcile(widgets.registrationId);
      expect(second.skipped).toEqual([{ registrationId: widgets.registrationId, stage: 'sync', lane: 'head', reason: 'cache_writer_busy', nextAttemptAt: null }]);
      const coalesced = m.reconcile(gadgets.registrationId);
      release();
      const [a, b] = await Promise.all([running, coalesced]);
      expect(a.jobs[0]!.jobId).toBe(b.jobs[0]!.jobId);
      expect(b.jobs[0]!.coalesced).toBe(true);
    });

    it('keeps one writer through 100 concurrent reconcile requests for two registrations of one cache', async () => {
      f = fixture();
      const file = f.cache('a.db', [WIDGETS, GADGETS]);
      let running = 0;
      let started = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const m = f.open({
        runners: {
          sync: async () => {
            started += 1;
            running += 1;
            expect(running).toBe(1);
            await gate;
            running -= 1;
          },
        },
      });
      const widgets = m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'w' });
      const gadgets = m.enroll({ cachePath: file, repo: 'acme/gadgets', idempotencyKey: 'g' });
      const calls = Array.from({ length: 100 }, (_, i) => m.reconcile(i % 2 === 0 ? widgets.registrationId : gadgets.registrationId));
      await new Promise((r) => setTimeout(r, 50));
      release();
      const results = await Promise.all(calls);
      expect(started).toBe(1);
      const jobs = results.flatMap((r) => r.jobs);
      const busy = results.flatMap((r) => r.skipped).filter((s) => s.reason === 'cache_writer_busy');
      expect(new Set(jobs.map((j) => j.jobId)).size).toBe(1);
      expect(jobs.filter((j) => !j.coalesced)).toHaveLength(1);
      expect(jobs.length + busy.length).toBe(100);
      expect(busy.length).toBe(50);
      expect(m.store.current().jobs).toHaveLength(1);
    });
  });
});
