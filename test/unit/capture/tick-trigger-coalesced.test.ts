import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../core/api/index.js';
import type { ProviderStats } from '../../../core/backfill/index.js';
import { SweepScheduler, type SettledTick } from '../../../core/capture/queue.js';
import { compactTick, recordRun } from '../../../core/capture/telemetry.js';
import { createMemoryLogger } from '../../../core/log/index.js';

// Review: a check asked for by hand (checkNow) that found a scheduled tick already running was
// coalesced into it, and no row said a person asked: the scheduled tick's row said 'schedule'.

function stats(provider: string, read = 0): ProviderStats {
  return { provider, discovered: 1, read, unchanged: 1 - read, failed: 0, partsWritten: read, durationMs: 1, failedLines: 0 };
}

/** Runs that stay open until released, by provider, in the order they started. */
function heldRunner() {
  const open = new Map<string, Array<(s?: ProviderStats) => void>>();
  const run = (provider: ProviderId) =>
    new Promise<ProviderStats>((resolve) => {
      open.set(provider, [...(open.get(provider) ?? []), (s) => resolve(s ?? stats(provider))]);
    });
  const release = (provider: string, index = 0) => open.get(provider)![index]!();
  return { run, release };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function scheduler(runner: ReturnType<typeof heldRunner>, ticked: SettledTick[]): SweepScheduler {
  return new SweepScheduler({ providers: ['claude', 'openclaw'], run: runner.run, handoffMs: 60_000, logger: createMemoryLogger(), onTicked: (tick) => ticked.push(tick) });
}

describe('a check by hand that finds a scheduled tick running', () => {
  it('settles that tick as asked for by hand: the person got its result', async () => {
    const runner = heldRunner();
    const ticked: SettledTick[] = [];
    const queue = scheduler(runner, ticked);
    const scheduled = queue.tick();
    await flush();
    const hand = queue.checkNow();
    runner.release('claude');
    await flush();
    runner.release('openclaw');
    await Promise.all([scheduled, hand]);
    // The only tick with runs of its own (the one a row is written for) says a person asked.
    const recorded = ticked.filter((t) => t.queued.length > 0);
    expect(recorded.map((t) => t.trigger)).toEqual(['hand']);
    await queue.stop();
  });

  it('that queued runs of its own is the one row by hand; the scheduled tick it partly awaited stays scheduled', async () => {
    const runner = heldRunner();
    const ticked: SettledTick[] = [];
    const queue = scheduler(runner, ticked);
    const scheduled = queue.tick();
    await flush();
    runner.release('claude');
    await flush();
    // openclaw is still the scheduled tick's; claude is queued again by the check by hand.
    const hand = queue.checkNow();
    runner.release('openclaw');
    await flush();
    runner.release('claude', 1);
    await Promise.all([scheduled, hand]);
    const recorded = ticked.filter((t) => t.queued.length > 0).map((t) => ({ trigger: t.trigger, queued: t.queued.map((s) => s.provider) }));
    expect(recorded).toEqual([
      { trigger: 'schedule', queued: ['claude', 'openclaw'] },
      { trigger: 'hand', queued: ['claude'] },
    ]);
    await queue.stop();
  });

  it('a scheduled tick no person asked for stays scheduled', async () => {
    const runner = heldRunner();
    const ticked: SettledTick[] = [];
    const queue = scheduler(runner, ticked);
    const first = queue.tick();
    await flush();
    const second = queue.tick();
    runner.release('claude');
    await flush();
    runner.release('openclaw');
    await Promise.all([first, second]);
    expect(ticked.map((t) => t.trigger)).toEqual(['schedule', 'schedule']);
    await queue.stop();
  });
});

describe('a tick row says who started it only when a person did', () => {
  const rows: Array<{ kind: string; data: { [key: string]: unknown } }> = [];
  const recorder = { record: (kind: string, data: { [key: string]: unknown }) => void rows.push({ kind, data }), logger: createMemoryLogger() };

  it('a scheduled row leaves `trigger` out (a row without it reads as scheduled); a row by hand says it', () => {
    expect(compactTick([stats('claude')])).not.toHaveProperty('trigger');
    expect(compactTick([stats('claude')], 'hand')).toMatchObject({ trigger: 'hand' });
    rows.length = 0;
    recordRun(recorder, [stats('claude', 1)], 'scheduled');
    recordRun(recorder, [stats('claude', 1)], 'scheduled', false, Date.now(), 'hand');
    expect(rows.map((r) => r.data.trigger)).toEqual([undefined, 'hand']);
    expect(rows[0]!.data).not.toHaveProperty('trigger');
  });
});
