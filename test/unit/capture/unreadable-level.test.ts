import { describe, expect, it } from 'vitest';
import { failuresOf, type ProviderSweepStats, type TelemetryEntry } from '../../../core/api/index.js';
import { formatSweepResult, sweepExit } from '../../../core/cli/commands/sweep.js';
import { failed, warned } from '../../../renderer/src/places/telemetry/sentences.js';

/**
 * One rule for a file that could not be read, whoever says it (the CLI's words and exit code, the
 * panel's Failed and Warning): known and unchanged since it failed (not opened again), it is a warning,
 * not a failure of this run; newly unreadable (or changed and failing again), a failure until it is known.
 */
const base = { provider: 'codex' as const, discovered: 3, read: 0, unchanged: 2, failed: 0, partsWritten: 0, durationMs: 5, failedLines: 0 };
const runs: Record<string, ProviderSweepStats> = {
  clean: { ...base, unchanged: 3 },
  fresh: { ...base, failed: 1, errors: [{ code: 'read_failed', count: 1 }], unreadable: [{ code: 'read_failed', count: 1 }] },
  still: { ...base, failed: 1, unreadableUnchanged: 1, errors: [{ code: 'malformed', count: 1 }], unreadable: [{ code: 'malformed', count: 1 }] },
  mixed: { ...base, unchanged: 1, failed: 2, unreadableUnchanged: 1, errors: [{ code: 'read_failed', count: 2 }], unreadable: [{ code: 'read_failed', count: 2 }] },
};
const rowOf = (p: ProviderSweepStats): TelemetryEntry => ({ id: 1, at: 1, kind: 'sweep.tick', data: { kind: 'scheduled', providers: [p] } });

describe('a file still unreadable is a warning everywhere; a new one a failure', () => {
  it('decides each run once', () => {
    expect(failuresOf([runs.clean!])).toEqual({ failed: 0, stillUnreadable: 0, level: 'ok' });
    expect(failuresOf([runs.fresh!])).toEqual({ failed: 1, stillUnreadable: 0, level: 'failed' });
    expect(failuresOf([runs.still!])).toEqual({ failed: 0, stillUnreadable: 1, level: 'warning' });
    expect(failuresOf([runs.mixed!])).toEqual({ failed: 1, stillUnreadable: 1, level: 'failed' });
    // Summed over providers: one provider's new failure fails the run.
    expect(failuresOf([runs.still!, runs.fresh!]).level).toBe('failed');
  });

  it('the CLI exits 1 exactly when the panel marks the row Failed, and the row is a Warning when the CLI says "still unreadable" alone', () => {
    for (const [name, p] of Object.entries(runs)) {
      const row = rowOf(p);
      expect({ name, exit: sweepExit({ providers: [p] }) }).toEqual({ name, exit: failed(row) ? 1 : 0 });
      expect({ name, warned: warned(row) }).toEqual({ name, warned: name === 'still' });
    }
  });

  it('says a file still unreadable apart from one that failed in this run', () => {
    expect(formatSweepResult({ providers: [runs.still!] })).toBe('codex: 3 transcript files, 2 already up to date, 1 still unreadable (malformed ×1; not read again: unchanged since it failed); nothing new (5 ms)\n');
    expect(formatSweepResult({ providers: [runs.fresh!] })).toBe('codex: 3 transcript files, 2 already up to date, 1 failed (read_failed ×1); nothing new (5 ms)\n');
    expect(formatSweepResult({ providers: [runs.mixed!] })).toBe('codex: 3 transcript files, 1 already up to date, 1 failed, 1 still unreadable (read_failed ×2; 1 not read again: unchanged since it failed); nothing new (5 ms)\n');
  });
});
