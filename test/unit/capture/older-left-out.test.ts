import { describe, expect, it } from 'vitest';
import type { TelemetryEntry } from '../../../core/api/index.js';
import { olderLeftOut } from '../../../core/capture/telemetry.js';

let id = 0;
/** A recorded run in which Codex left `outside` messages out as older than the window. */
function run(kind: 'sweep.tick' | 'backfill.run', outside: number, extra: { [key: string]: unknown } = {}, cancelled = false): TelemetryEntry {
  const codex = { provider: 'codex', discovered: 1, read: 1, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 3, failedLines: 0, skipped: outside > 0 ? { outside_window: outside } : {}, ...(cancelled ? { cancelled } : {}) };
  return { id: (id += 1), at: Date.now(), kind, data: { kind: kind === 'sweep.tick' ? 'scheduled' : 'manual', ...extra, providers: [codex] } };
}

describe('the messages the recorded runs left out as older than the window', () => {
  it('adds what scheduled ticks left out, and a run on request at least as wide counts afresh', () => {
    expect(olderLeftOut([run('sweep.tick', 5), run('sweep.tick', 0), run('sweep.tick', 2)], 'codex', 365)).toBe(7);
    // The same window, or none given (the provider's own): a recount, not an addition.
    expect(olderLeftOut([run('sweep.tick', 5), run('backfill.run', 5, { days: 365 })], 'codex', 365)).toBe(5);
    expect(olderLeftOut([run('sweep.tick', 5), run('backfill.run', 5)], 'codex', 365)).toBe(5);
    // Wider: what it brought in is no longer left out.
    expect(olderLeftOut([run('sweep.tick', 5), run('backfill.run', 3, { days: 500 })], 'codex', 365)).toBe(3);
    expect(olderLeftOut([run('sweep.tick', 5), run('backfill.run', 0, { all: true })], 'codex', 365)).toBe(0);
    expect(olderLeftOut([run('sweep.tick', 5), run('backfill.run', 0, { all: true }), run('sweep.tick', 1)], 'codex', 365)).toBe(1);
  });

  it('is not swayed by a narrower or a cancelled run on request, nor by other agents, and is none without a window', () => {
    // The last 30 days leave out what the year imported.
    expect(olderLeftOut([run('sweep.tick', 5), run('backfill.run', 40, { days: 30 })], 'codex', 365)).toBe(5);
    expect(olderLeftOut([run('sweep.tick', 5), run('backfill.run', 0, { all: true, cancelled: true }, true)], 'codex', 365)).toBe(5);
    expect(olderLeftOut([run('sweep.tick', 5)], 'claude', 365)).toBe(0);
    expect(olderLeftOut([run('sweep.tick', 5)], 'codex', 0)).toBe(0);
    // Folded in steps, as the survey does: the same count.
    expect(olderLeftOut([run('sweep.tick', 2)], 'codex', 365, olderLeftOut([run('sweep.tick', 5)], 'codex', 365))).toBe(7);
  });
});
