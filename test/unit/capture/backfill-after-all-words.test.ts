import { describe, expect, it } from 'vitest';
import type { StewardClient, SweepResult } from '../../../core/api/index.js';
import { formatSweepResult, retentionWindow } from '../../../core/cli/commands/sweep.js';

const base = { discovered: 0, read: 0, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 3, failedLines: 0 };
const WHERE = "(Settings → Importing conversations, or query.cache.retention.default_days in config.json; one agent's own is providers.<id>.backfill.window_days)";

/** A manual `steward backfill` (the retention window) after `steward backfill --all`: the older files are not read, but were imported whole. */
const afterAll: SweepResult = { providers: [{ provider: 'claude', ...base, discovered: 3, read: 1, outsideWindow: 2, skipped: { outside_window: 4 } }] };

/** An owner whose survey says what of the older history is stored. */
function surveying(survey: { cleanUpDays: number; imported: number; olderMessages?: number; olderUncounted?: number }): StewardClient {
  const provider = { provider: 'claude', windowDays: 90, cleanUpDays: survey.cleanUpDays, older: { files: 2, bytes: 10, imported: { files: survey.imported, bytes: 10 } }, olderMessages: survey.olderMessages ?? 0, olderUncounted: survey.olderUncounted ?? 0 };
  return { call: (method: string) => Promise.resolve(method === 'Providers.Survey' ? { providers: [provider] } : {}) } as unknown as StewardClient;
}

describe('steward backfill after steward backfill --all', () => {
  it('says the older conversations are already stored, not left out', async () => {
    const window = await retentionWindow(surveying({ cleanUpDays: 0, imported: 2 }), afterAll);
    expect(formatSweepResult(afterAll, window)).toBe(
      'claude: 3 transcript files, 1 read, 2 older than the retention window, already stored; nothing new; 4 lines held nothing to import (4 older than the retention window, already stored) (3 ms)\n' +
        `The retention window is the last 90 days ${WHERE}; what is older was imported already, by an import of everything, and stays stored.\n`,
    );
  });

  it('says which older files are stored and which were never read, and how to import those', async () => {
    const window = await retentionWindow(surveying({ cleanUpDays: 0, imported: 1, olderMessages: 4 }), afterAll);
    expect(formatSweepResult(afterAll, window)).toBe(
      'claude: 3 transcript files, 1 read, 2 older than the retention window (1 already stored, 1 not read); nothing new; 4 lines held nothing to import (4 older than the retention window) (3 ms)\n' +
        `The retention window is the last 90 days ${WHERE}; \`steward backfill --all\` imports everything.\n`,
    );
  });

  it('never calls stored what the clean-up removes again', async () => {
    const window = await retentionWindow(surveying({ cleanUpDays: 90, imported: 2 }), afterAll);
    const text = formatSweepResult(afterAll, window);
    expect(text).toContain('2 older than the retention window, not read');
    expect(text).not.toContain('stored');
  });
});
