import { describe, expect, it } from 'vitest';
import { formatPruneReport, pruneWarning } from '../../../core/cli/commands/cache.js';
import { localTime } from '../../../core/cli/output.js';

const cutoffMs = Date.UTC(2025, 4, 2);
const later = Date.UTC(2026, 0, 1);
const report = {
  dryRun: true,
  cutoffs: [
    { provider: 'claude', cutoffMs, removedParts: 90, removedMessages: 40, removedConversations: 14 },
    { provider: 'codex', cutoffMs, removedParts: 2, removedMessages: 1, removedConversations: 1 },
    { provider: 'gemini', cutoffMs: null, removedParts: 0 },
  ],
  removedParts: 92,
  removedSessions: 20,
  removedMessages: 41,
  removedConversations: 15,
  lost: 3,
  durationMs: 2,
  complete: true,
};

describe('steward cache prune: what it says before it asks', () => {
  it('says what would go, older than which time, and how much of it Steward alone holds', () => {
    expect(pruneWarning(report)).toBe(`Would remove 41 messages older than ${localTime(cutoffMs)}, and with them 15 whole conversations. 3 of them have no transcript left on disk: Steward holds the only copy.\n`);
    expect(pruneWarning({ ...report, lost: 1 })).toContain(' 1 of them has no transcript left on disk: Steward holds the only copy.');
    expect(pruneWarning({ ...report, lost: 0 })).toBe(`Would remove 41 messages older than ${localTime(cutoffMs)}, and with them 15 whole conversations.\n`);
  });

  it("names each agent's cutoff where they differ", () => {
    const differing = { ...report, cutoffs: [report.cutoffs[0]!, { ...report.cutoffs[1]!, cutoffMs: later }, report.cutoffs[2]!] };
    expect(pruneWarning(differing)).toContain(`older than each agent's retention window (claude: ${localTime(cutoffMs)}; codex: ${localTime(later)}), and with them`);
  });

  it('a dry run says the only copies too', () => {
    expect(formatPruneReport(report)).toContain('that would go whole (their subagents with them). 3 of them have no transcript left on disk: Steward holds the only copy. Nothing was removed: this was a dry run (2 ms).');
  });
});
