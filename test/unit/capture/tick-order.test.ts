import { describe, expect, it } from 'vitest';
import type { ProviderStats } from '../../../core/backfill/index.js';
import type { ProviderId } from '../../../core/api/index.js';
import { SweepScheduler } from '../../../core/capture/queue.js';
import { createMemoryLogger } from '../../../core/log/index.js';

// CI once showed the owner's start-up check (it read both sessions) as the newest Telemetry row after a
// Sweep.Tick that found them unchanged. Whenever a second tick comes during the first, the queue tells
// onTicked of the first before the second: the second either awaits the first's runs or queues after them.

const PROVIDERS: ProviderId[] = ['claude', 'openclaw', 'codex', 'gemini'];
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Each run stays open until released; claude's first run reads 2 files, every later one finds them unchanged. */
function runner() {
  const open: Array<{ provider: ProviderId; release: () => void }> = [];
  let claudeRuns = 0;
  const run = (provider: ProviderId) =>
    new Promise<ProviderStats>((resolve) => {
      const first = provider === 'claude' && claudeRuns++ === 0;
      const files = provider === 'claude' ? 2 : 0;
      const stats: ProviderStats = { provider, discovered: files, read: first ? files : 0, unchanged: first ? 0 : files, failed: 0, partsWritten: first ? 10 : 0, durationMs: 1, failedLines: 0 };
      open.push({ provider, release: () => resolve(stats) });
    });
  return { run, open };
}

describe('the order ticks are recorded in', () => {
  // k: how many of the first tick's runs have settled when the second tick comes (0: claude still runs).
  it.each([0, 1, 2, 3, 4])('a second tick after %i of the first tick\'s runs settled is recorded after it', async (k) => {
    const r = runner();
    // What each recorded row says claude read (the runs a tick queued itself are its row).
    const recorded: Array<number | undefined> = [];
    const scheduler = new SweepScheduler({
      providers: PROVIDERS,
      run: r.run,
      handoffMs: 60_000,
      logger: createMemoryLogger(),
      onTicked: (tick) => {
        if (tick.queued.length > 0) recorded.push(tick.queued.find((p) => p.provider === 'claude')?.read);
      },
    });
    const first = scheduler.tick();
    for (let i = 0; i < k; i += 1) {
      await flush();
      r.open[i]!.release();
    }
    await flush();
    const second = scheduler.tick();
    // Release whatever runs, in queue order, until both ticks settle.
    let done = false;
    void Promise.all([first, second]).then(() => (done = true));
    for (let i = k; !done; i += 1) {
      await flush();
      r.open[i]?.release();
    }
    const answer = await second;
    // The start-up row (read 2) always comes first; a second tick that came while claude ran awaited
    // that run (its answer says read 2) and records nothing; one that came later ran claude itself.
    expect(recorded).toEqual(k === 0 ? [2] : [2, 0]);
    expect(answer[0]!.read).toBe(k === 0 ? 2 : 0);
    await scheduler.stop();
  });

  it('a start-up claude run past the handoff bound is recorded as failed, never as the read it finishes later', async () => {
    const r = runner();
    const recorded: ProviderStats[][] = [];
    const scheduler = new SweepScheduler({ providers: PROVIDERS, run: r.run, handoffMs: 20, logger: createMemoryLogger(), onTicked: (tick) => void (tick.queued.length > 0 && recorded.push(tick.queued)) });
    const first = scheduler.tick();
    await new Promise((resolve) => setTimeout(resolve, 40));
    // The queue moved on; claude is no longer in flight, so Sweep.Tick queues its own claude run.
    const second = scheduler.tick();
    for (let i = 1; i < 5; i += 1) {
      await flush();
      r.open[i]!.release();
    }
    r.open[0]!.release(); // the handed-on run finishes late, in the background
    await Promise.all([first, second]);
    expect(recorded.map((queued) => queued[0]!)).toMatchObject([
      { provider: 'claude', read: 0, failed: 1, errors: [{ code: 'handoff_timeout' }] },
      { provider: 'claude', read: 0, unchanged: 2 },
    ]);
    await scheduler.stop();
  });
});
