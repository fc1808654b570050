import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderStats } from '../../../core/backfill/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { SweepScheduler, type ProviderFailure } from '../../../core/capture/queue.js';
import type { ProviderId } from '../../../core/api/index.js';

function stats(provider: string, read = 1): ProviderStats {
  return { provider, discovered: read, read, unchanged: 0, failed: 0, partsWritten: read, durationMs: 1, failedLines: 0 };
}

interface Held {
  release: (value?: ProviderStats) => void;
  fail: (error: Error) => void;
  signal: AbortSignal;
}

/** A provider runner whose runs stay open until the test releases them; it records every start. */
function heldRunner() {
  const started: string[] = [];
  const open = new Map<string, Held[]>();
  const run = (provider: ProviderId, _kind: string, signal: AbortSignal) =>
    new Promise<ProviderStats>((resolve, reject) => {
      started.push(provider);
      const list = open.get(provider) ?? [];
      list.push({ release: (value) => resolve(value ?? stats(provider)), fail: reject, signal });
      open.set(provider, list);
    });
  const held = (provider: string, index = 0) => {
    const entry = open.get(provider)?.[index];
    if (!entry) throw new Error(`${provider} run ${index} never started`);
    return entry;
  };
  return { started, run, held };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SweepScheduler', () => {
  it('holds the first provider open and queues, not starts, the second due provider', async () => {
    const runner = heldRunner();
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 60_000, logger: createMemoryLogger() });
    const tick = scheduler.tick();
    await flush();
    expect(runner.started).toEqual(['claude']);
    expect(scheduler.running).toBe('claude');
    expect(scheduler.queued).toEqual(['openclaw']);
    expect(scheduler.isInFlight('openclaw')).toBe(true);

    // A later tick neither duplicates nor reorders the in-flight providers.
    const second = scheduler.tick();
    await flush();
    expect(runner.started).toEqual(['claude']);
    expect(scheduler.queued).toEqual(['openclaw']);

    runner.held('claude').release();
    await flush();
    expect(runner.started).toEqual(['claude', 'openclaw']);
    runner.held('openclaw').release();
    const [a, b] = await Promise.all([tick, second]);
    expect(a.map((s) => s.provider)).toEqual(['claude', 'openclaw']);
    expect(b).toEqual(a);
    expect(runner.started).toEqual(['claude', 'openclaw']);
    await scheduler.stop();
  });

  it('tells onTicked of every tick, the timer\'s included, with only the runs that tick queued as its own', async () => {
    const runner = heldRunner();
    const ticked: Array<{ providers: string[]; queued: string[] }> = [];
    const scheduler = new SweepScheduler({
      providers: ['claude', 'openclaw'],
      run: runner.run,
      // Short: a run a later interval starts is held open, and stop() waits for it only this long.
      handoffMs: 500,
      logger: createMemoryLogger(),
      onTicked: (tick) => ticked.push({ providers: tick.providers.map((s) => s.provider), queued: tick.queued.map((s) => s.provider) }),
    });
    const first = scheduler.tick();
    await flush();
    runner.held('claude').release();
    await flush();
    // claude settled, openclaw runs: a second tick queues claude again and awaits the openclaw run of the first.
    const second = scheduler.tick();
    runner.held('openclaw').release();
    await first;
    await flush();
    runner.held('claude', 1).release();
    await second;
    expect(ticked).toEqual([
      { providers: ['claude', 'openclaw'], queued: ['claude', 'openclaw'] },
      { providers: ['claude', 'openclaw'], queued: ['claude'] },
    ]);

    // The timer's ticks go through the same door.
    scheduler.start(10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    runner.held('claude', 2).release();
    await flush();
    runner.held('openclaw', 1).release();
    await flush();
    // Later intervals that fell while those runs were in flight queued nothing of their own.
    expect(ticked[2]).toEqual({ providers: ['claude', 'openclaw'], queued: ['claude', 'openclaw'] });
    expect(ticked.slice(3).every((t) => t.queued.length === 0)).toBe(true);
    await scheduler.stop();
  });

  it('a throwing onTicked is logged and never fails the tick', async () => {
    const runner = heldRunner();
    const logger = createMemoryLogger();
    const scheduler = new SweepScheduler({ providers: ['claude'], run: runner.run, handoffMs: 60_000, logger, onTicked: () => { throw Object.assign(new Error('listener'), { code: 'EBROKEN' }); } });
    const tick = scheduler.tick();
    await flush();
    runner.held('claude').release();
    expect(await tick).toHaveLength(1);
    expect(logger.lines.some((l) => l.includes('recording a tick failed') && l.includes('EBROKEN'))).toBe(true);
    await scheduler.stop();
  });

  it('settles a failed provider, logs it, and releases the queue', async () => {
    const runner = heldRunner();
    const logger = createMemoryLogger();
    const busy: Array<[boolean, readonly ProviderFailure[]]> = [];
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 60_000, logger, onBusy: (b, f) => busy.push([b, f]) });
    const tick = scheduler.tick();
    await flush();
    runner.held('claude').fail(Object.assign(new Error('boom /secret/path'), { code: 'EACCES' }));
    await flush();
    runner.held('openclaw').release();
    const result = await tick;
    expect(result[0]).toMatchObject({ provider: 'claude', failed: 1, errors: [{ code: 'EACCES', count: 1 }] });
    expect(result[1]).toMatchObject({ provider: 'openclaw', failed: 0 });
    expect(logger.lines.some((l) => l.includes('provider run failed') && l.includes('claude') && l.includes('code="EACCES"'))).toBe(true);
    expect(logger.lines.join('\n')).not.toContain('/secret/path');
    expect(busy).toEqual([
      [true, []],
      [false, [{ provider: 'claude', codes: ['EACCES'] }]],
    ]);
    expect(scheduler.isInFlight('claude')).toBe(false);
    await scheduler.stop();
  });

  it('reports a run that went through with failed files, by their codes, and not a run stopped at shutdown', async () => {
    const runner = heldRunner();
    const busy: Array<[boolean, readonly ProviderFailure[]]> = [];
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 60_000, logger: createMemoryLogger(), onBusy: (b, f) => busy.push([b, f]) });
    const tick = scheduler.tick();
    await flush();
    runner.held('claude').release({ ...stats('claude'), failed: 2, errors: [{ code: 'EACCES', count: 1 }, { code: 'EIO', count: 1 }] });
    await flush();
    runner.held('openclaw').release();
    await tick;
    expect(busy.at(-1)).toEqual([false, [{ provider: 'claude', codes: ['EACCES', 'EIO'] }]]);

    const stopped = scheduler.tick();
    await flush();
    const stopping = scheduler.stop();
    runner.held('claude', 1).release();
    await stopping;
    // Settled by stop() as any cancelled run is: cancelled, nothing failed.
    expect((await stopped)[1]).toEqual({ provider: 'openclaw', discovered: 0, read: 0, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 0, failedLines: 0, cancelled: true, notReached: 0 });
    expect(busy.at(-1)).toEqual([false, []]);
  });

  it('bounds the wait on the head: a run that never settles hands the queue on, and its late completion changes nothing', async () => {
    const runner = heldRunner();
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 50, logger: createMemoryLogger() });
    const first = await scheduler.tick();
    expect(first[0]).toMatchObject({ provider: 'claude', failed: 1 });
    expect(runner.held('claude').signal.aborted).toBe(true);
    expect(runner.started).toEqual(['claude', 'openclaw']);
    // openclaw also never settled within the bound; both are out of flight now.
    expect(scheduler.isInFlight('claude')).toBe(false);

    // A new tick queues a fresh claude run; then the first, stale run completes late.
    const next = scheduler.tick();
    await flush();
    expect(runner.started).toEqual(['claude', 'openclaw', 'claude']);
    runner.held('claude', 0).release(stats('claude', 99));
    await flush();
    expect(scheduler.isInFlight('claude')).toBe(true);
    expect(scheduler.running).toBe('claude');
    expect(scheduler.queued).toEqual(['openclaw']);
    runner.held('claude', 1).release();
    await flush();
    runner.held('openclaw', 1).release();
    const result = await next;
    expect(result[0]).toMatchObject({ provider: 'claude', read: 1 });
    await scheduler.stop();
  });

  it('lets a backfill the user asked for outlive the handoff bound, until it is cancelled', async () => {
    const runner = heldRunner();
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 30, logger: createMemoryLogger() });
    const manual = scheduler.runManual(['claude', 'openclaw'], (p, signal) => runner.run(p, 'manual', signal));
    await new Promise((r) => setTimeout(r, 120));
    // Four bounds have passed: a scheduled run would have been handed on long ago.
    expect(scheduler.running).toBe('claude');
    expect(runner.held('claude').signal.aborted).toBe(false);
    expect(scheduler.queued).toEqual(['openclaw']);

    expect(scheduler.cancelManual()).toBe(2);
    expect(runner.held('claude').signal.aborted).toBe(true);
    expect(scheduler.queued).toEqual([]);
    // The running import stops between batches and returns what it committed.
    runner.held('claude').release(stats('claude', 7));
    const [claude, openclaw] = await manual;
    expect(claude).toMatchObject({ provider: 'claude', read: 7 });
    // The queued one was never started: cancelled, not "no files found".
    expect(openclaw).toMatchObject({ provider: 'openclaw', read: 0, partsWritten: 0, failed: 0, cancelled: true, notReached: 0 });
    expect(runner.started).toEqual(['claude']);
    expect(scheduler.cancelManual()).toBe(0);
    await scheduler.stop();
  });

  it('bounds a cancelled backfill that settles neither way, so the queue still moves on', async () => {
    const runner = heldRunner();
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 30, logger: createMemoryLogger() });
    const manual = scheduler.runManual(['claude'], (p, signal) => runner.run(p, 'manual', signal));
    await flush();
    scheduler.cancelManual();
    const [claude] = await manual;
    expect(claude).toMatchObject({ provider: 'claude', failed: 1 });
    const tick = scheduler.tick();
    await flush();
    expect(scheduler.running).toBe('claude');
    runner.held('claude', 1).release();
    await flush();
    runner.held('openclaw').release();
    await tick;
    await scheduler.stop();
  });

  it('runs manual backfills through the same queue, never beside a sweep', async () => {
    const runner = heldRunner();
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 60_000, logger: createMemoryLogger() });
    const tick = scheduler.tick();
    const manual = scheduler.runManual(['claude'], (p, signal) => runner.run(p, 'manual', signal));
    await flush();
    expect(runner.started).toEqual(['claude']);
    expect(scheduler.queued).toEqual(['openclaw', 'claude']);
    runner.held('claude').release();
    await flush();
    runner.held('openclaw').release();
    await flush();
    runner.held('claude', 1).release();
    await Promise.all([tick, manual]);
    expect(runner.started).toEqual(['claude', 'openclaw', 'claude']);
    await scheduler.stop();
  });

  it('queues nothing on intervals the skip predicate refuses (a paused app), and ticks again once it allows', async () => {
    const runner = heldRunner();
    let paused = true;
    const scheduler = new SweepScheduler({ providers: ['claude'], run: runner.run, handoffMs: 60_000, logger: createMemoryLogger() });
    scheduler.start(10, () => paused);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runner.started).toEqual([]);
    paused = false;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runner.started).toEqual(['claude']);
    runner.held('claude').release();
    await scheduler.stop();
  });

  it('an exclusive task waits for the run in progress, holds queued providers until it settles, and is aborted by stop', async () => {
    const runner = heldRunner();
    const scheduler = new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 60_000, logger: createMemoryLogger() });
    const tick = scheduler.tick();
    await flush();
    const events: string[] = [];
    let finishTask!: () => void;
    const exclusive = scheduler.exclusive(async () => {
      events.push(`task starts after ${runner.started.join(',')}`);
      await new Promise<void>((resolve) => (finishTask = resolve));
      return 'pruned';
    });
    await flush();
    expect(events).toEqual([]);
    runner.held('claude').release();
    await flush();
    await flush();
    // claude finished; openclaw, already queued, waits for the task instead of starting.
    expect(events).toEqual(['task starts after claude']);
    expect(runner.started).toEqual(['claude']);
    expect(scheduler.queued).toEqual(['openclaw']);
    finishTask();
    expect(await exclusive).toBe('pruned');
    await flush();
    expect(runner.started).toEqual(['claude', 'openclaw']);
    runner.held('openclaw').release();
    await tick;

    let seen: AbortSignal | undefined;
    const stopped = scheduler.exclusive(
      (signal) =>
        new Promise<boolean>((resolve) => {
          seen = signal;
          signal.addEventListener('abort', () => resolve(signal.aborted));
        }),
    );
    await flush();
    await scheduler.stop();
    expect(seen?.aborted).toBe(true);
    expect(await stopped).toBe(true);
  });
});

// QA: a check interval saved in Settings waited for the next start. The running timer takes a new one
// at once: its next tick at the last one (or the start) plus the new interval, now when that is past.
describe('SweepScheduler.reschedule', () => {
  afterEach(() => void vi.useRealTimers());

  const scheduled = (intervalMs: number) => {
    vi.useFakeTimers({ now: 1_000_000 });
    const started: number[] = [];
    const scheduler = new SweepScheduler({ providers: ['claude'], run: (provider) => (started.push(Date.now()), Promise.resolve(stats(provider))), handoffMs: 60_000, logger: createMemoryLogger() });
    scheduler.start(intervalMs);
    return { scheduler, started };
  };

  it('a shorter interval whose tick is past ticks now, then on the new interval', async () => {
    const { scheduler, started } = scheduled(600_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(started).toEqual([]);
    scheduler.reschedule(10_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1_030_000]);
    expect(scheduler.nextTickAt).toBe(1_040_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(started).toEqual([1_030_000, 1_040_000]);
    await scheduler.stop();
    expect(scheduler.nextTickAt).toBeNull();
  });

  it('a shorter interval whose tick is still ahead waits for it: the last tick plus the new interval', async () => {
    const { scheduler, started } = scheduled(600_000);
    await vi.advanceTimersByTimeAsync(5_000);
    scheduler.reschedule(20_000);
    expect(scheduler.nextTickAt).toBe(1_020_000);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([1_020_000]);
    await scheduler.stop();
  });

  it('a longer interval moves the pending tick to the last one plus it', async () => {
    const { scheduler, started } = scheduled(10_000);
    await vi.advanceTimersByTimeAsync(13_000);
    expect(started).toEqual([1_010_000]);
    scheduler.reschedule(60_000);
    expect(scheduler.nextTickAt).toBe(1_070_000);
    await vi.advanceTimersByTimeAsync(56_999);
    expect(started).toEqual([1_010_000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([1_010_000, 1_070_000]);
    await scheduler.stop();
  });
});

// QA: a check asked for by hand (Sweep.Tick: Check now, Import now, `steward sweep`) left the timer where
// it was, so a scheduled check could run seconds after it. Once it ends, the schedule counts from it:
// the next tick at its end plus the interval (reschedule's rule: the last check plus the interval).
describe('SweepScheduler.checkNow', () => {
  afterEach(() => void vi.useRealTimers());

  /** A schedule over one provider whose runs each take `runMs` of fake time; it records every start. */
  const scheduled = (intervalMs: number, runMs: number) => {
    vi.useFakeTimers({ now: 1_000_000 });
    const started: number[] = [];
    const run = (provider: ProviderId) => {
      started.push(Date.now());
      return new Promise<ProviderStats>((resolve) => setTimeout(() => resolve(stats(provider)), runMs));
    };
    const scheduler = new SweepScheduler({ providers: ['claude'], run, handoffMs: 60_000, logger: createMemoryLogger() });
    scheduler.start(intervalMs);
    return { scheduler, started };
  };

  // Review: with two agents, a tick falling due while the check by hand ran queued again the agent it had read.
  it('lets no scheduled tick fall due while a check by hand runs: each agent is read once', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const started: Array<[ProviderId, number]> = [];
    const run = (provider: ProviderId) => {
      started.push([provider, Date.now() - 1_000_000]);
      return new Promise<ProviderStats>((resolve) => setTimeout(() => resolve(stats(provider)), 15_000));
    };
    const scheduler = new SweepScheduler({ providers: ['claude', 'codex'], run, handoffMs: 60_000, logger: createMemoryLogger() });
    scheduler.start(60_000);
    await vi.advanceTimersByTimeAsync(44_000);
    const manual = scheduler.checkNow();
    await vi.advanceTimersByTimeAsync(40_000);
    await manual;
    expect(started).toEqual([
      ['claude', 44_000],
      ['codex', 59_000],
    ]);
    expect(scheduler.nextTickAt).toBe(1_074_000 + 60_000);
    await scheduler.stop();
  });

  it('moves the next scheduled tick to the manual check’s end plus the interval', async () => {
    const { scheduler, started } = scheduled(60_000, 2_000);
    await vi.advanceTimersByTimeAsync(50_000);
    const manual = scheduler.checkNow();
    await vi.advanceTimersByTimeAsync(2_000);
    await manual;
    expect(started).toEqual([1_050_000]);
    expect(scheduler.nextTickAt).toBe(1_112_000);
    // The old next tick (start plus the interval, 8 s after the manual check) does not come.
    await vi.advanceTimersByTimeAsync(59_999);
    expect(started).toEqual([1_050_000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([1_050_000, 1_112_000]);
    // Then on the interval again, from that tick.
    expect(scheduler.nextTickAt).toBe(1_172_000);
    await vi.advanceTimersByTimeAsync(2_000);
    await scheduler.stop();
  });

  it('a scheduled tick that fell during the manual check is counted from the manual check’s end too', async () => {
    const { scheduler, started } = scheduled(10_000, 15_000);
    await vi.advanceTimersByTimeAsync(5_000);
    const manual = scheduler.checkNow();
    // The timer fires at 1_010_000 while the manual run is in flight: it awaits that run, queues nothing.
    await vi.advanceTimersByTimeAsync(15_000);
    await manual;
    expect(started).toEqual([1_005_000]);
    expect(scheduler.nextTickAt).toBe(1_030_000);
    await scheduler.stop();
  });

  it('a check that ended elsewhere (an import of everything) moves the schedule by the same rule', async () => {
    const { scheduler, started } = scheduled(60_000, 2_000);
    await vi.advanceTimersByTimeAsync(50_000);
    scheduler.checked(Date.now());
    expect(scheduler.nextTickAt).toBe(1_110_000);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([1_110_000]);
    await vi.advanceTimersByTimeAsync(2_000);
    await scheduler.stop();
    scheduler.checked(Date.now());
    expect(scheduler.nextTickAt).toBeNull();
  });

  it('runs the check but arms nothing when the schedule is not running', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const scheduler = new SweepScheduler({ providers: ['claude'], run: (provider) => Promise.resolve(stats(provider)), handoffMs: 60_000, logger: createMemoryLogger() });
    expect(await scheduler.checkNow()).toEqual([stats('claude')]);
    expect(scheduler.nextTickAt).toBeNull();
    scheduler.start(60_000);
    await scheduler.stop();
    await scheduler.checkNow();
    expect(scheduler.nextTickAt).toBeNull();
  });
});
