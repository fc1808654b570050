import { describe, expect, it } from 'vitest';
import { formatPruneReport } from '../../../core/cli/commands/cache.js';
import { localTime } from '../../../core/cli/output.js';

const cutoffMs = Date.UTC(2026, 0, 1);

describe('steward cache prune: what it removed (or would), as a sentence', () => {
  it('a dry run says what it would remove, each provider by its cutoff as people read a time, and that it removed nothing', () => {
    const text = formatPruneReport({
      dryRun: true,
      cutoffs: [
        { provider: 'claude', cutoffMs, removedParts: 53 },
        { provider: 'gemini', cutoffMs, removedParts: 0 },
        { provider: 'codex', cutoffMs: null, removedParts: 0 },
      ],
      removedParts: 53,
      removedSessions: 16,
      durationMs: 2,
      complete: true,
    });
    expect(text).toBe(
      [
        `claude: would remove what is older than ${localTime(cutoffMs)}`,
        `gemini: nothing older than ${localTime(cutoffMs)}`,
        'codex: keeps everything (open window)',
        'Would remove 53 message parts (text, tool calls and their results) older than the retention window, and with them 16 sessions left empty (each subagent is a session of its own). Nothing was removed: this was a dry run (2 ms).',
        '',
      ].join('\n'),
    );
  });

  it('says plainly that nothing is older, with no zero count and no ISO instant', () => {
    const text = formatPruneReport({ dryRun: true, cutoffs: [{ provider: 'claude', cutoffMs: Date.UTC(2025, 11, 3, 3, 0, 48, 903), removedParts: 0 }], removedParts: 0, removedSessions: 0, removedMessages: 0, removedConversations: 0, durationMs: 2, complete: true });
    expect(text).toBe(`claude: nothing older than ${localTime(Date.UTC(2025, 11, 3, 3, 0, 48, 903))}\nNothing is older than the retention window; nothing would be removed (2 ms).\n`);
    expect(text).not.toMatch(/\b0 |T\d{2}:|\.\d{3}Z/);
  });

  it('says messages and whole conversations when the report counts them, never their parts', () => {
    const report = { dryRun: true, cutoffs: [], removedParts: 53, removedSessions: 16, removedMessages: 20, removedConversations: 3, durationMs: 2, complete: true };
    expect(formatPruneReport(report)).toBe(
      'Would remove 20 messages older than the retention window, and with them 3 conversations that would go whole (their subagents with them). Nothing was removed: this was a dry run (2 ms).\n',
    );
    expect(formatPruneReport({ ...report, removedConversations: 0 })).toBe('Would remove 20 messages older than the retention window. Nothing was removed: this was a dry run (2 ms).\n');
  });

  it('each provider\'s line says how many messages and whole conversations it removed', () => {
    const report = {
      dryRun: false,
      cutoffs: [
        { provider: 'claude', cutoffMs, removedParts: 53, removedMessages: 20, removedConversations: 3 },
        { provider: 'openclaw', cutoffMs, removedParts: 2, removedMessages: 1, removedConversations: 0 },
      ],
      removedParts: 55,
      removedSessions: 16,
      removedMessages: 21,
      removedConversations: 3,
      durationMs: 4,
      complete: true,
    };
    expect(formatPruneReport(report)).toBe(
      [
        `claude: removed 20 messages older than ${localTime(cutoffMs)}, and with them 3 whole conversations`,
        `openclaw: removed 1 message older than ${localTime(cutoffMs)}`,
        'Removed 21 messages older than the retention window, and with them 3 conversations that went whole (their subagents with them), in 4 ms.',
        '',
      ].join('\n'),
    );
    expect(formatPruneReport({ ...report, dryRun: true }).split('\n')[0]).toBe(`claude: would remove 20 messages older than ${localTime(cutoffMs)}, and with them 3 whole conversations`);
  });

  it('a pass says what it removed, that nothing was old enough, or that it stopped early', () => {
    const report = { dryRun: false, cutoffs: [{ provider: 'claude', cutoffMs, removedParts: 1 }], removedParts: 1, removedSessions: 0, durationMs: 4, complete: false };
    expect(formatPruneReport(report).split('\n')[1]).toBe('Removed 1 message part (text, tool calls and their results) older than the retention window, in 4 ms. It stopped early; the next pass finishes it.');
    expect(formatPruneReport({ ...report, cutoffs: [], removedParts: 0, complete: true })).toBe('Nothing is older than the retention window; nothing was removed (4 ms).\n');
  });
});
