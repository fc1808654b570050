import type { PruneReport } from '../../../../core/api/index.js';
import { countOf, formatDuration } from '../../components/index.js';

/** A positive whole number of days: a retention window that, once saved, removes stored conversations older than it. */
export function removingWindow(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** Whether the dry run of a window not saved yet found anything it would remove. */
export function wouldRemove(report: PruneReport): boolean {
  return report.removedParts > 0 || report.removedSessions > 0;
}

/**
 * The question before saving a retention window that removes stored history (`Cache.Prune` dry run
 * with `retentionDays`): what goes at the next start, in conversations and messages, and that it is
 * the saved window, not this save, that removes them.
 */
export function removalQuestion(days: number, report: PruneReport): string {
  const conversations = report.removedConversations ?? 0;
  const messages = report.removedMessages ?? 0;
  const what =
    conversations === 0
      ? `${countOf(messages, 'message')}, from conversations that keep their newer ones`
      : `${countOf(conversations, 'conversation')} entirely, ${countOf(messages, 'message')} in all`;
  return (
    `Save a retention window of ${countOf(days, 'day')}? When Steward next starts (and every day after), it removes from its cache what is older than the window: ` +
    `${what}. Steward cannot bring them back by itself; the transcripts in your agents\u2019 folders are not touched. ` +
    'To keep them, choose 0 (keep everything) or a window that reaches back to them.'
  );
}

/**
 * What a check (`Cache.Prune` dry run) would remove, in messages and whole conversations: parts are
 * how the cache stores a message, not what a person counts. `what` alone: `9 messages`.
 */
function wouldGo(report: PruneReport): { what: string; whole: string } {
  // An owner from before the dry run counted messages says only that something is older.
  if (report.removedMessages === undefined) return { what: 'what is older than the window', whole: '' };
  const conversations = report.removedConversations ?? 0;
  const whole = conversations === 0 ? ', from conversations that keep their newer ones' : `, and with them ${countOf(conversations, 'conversation')} entirely`;
  return { what: countOf(report.removedMessages, 'message'), whole };
}

/** The sentence under a check: nothing (the window is open, or nothing is older), or what would go. */
export function checkSentence(report: PruneReport): string {
  if (report.cutoffs.every((c) => c.cutoffMs === null)) return 'The retention window is open (0 days), so the cache keeps everything: nothing would be removed.';
  if (report.removedParts === 0) return 'Nothing is older than the retention window: nothing would be removed.';
  const { what, whole } = wouldGo(report);
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} would go${whole}.`;
}

/** The button that asks before removing: `Remove 9 messages`. */
export function removeLabel(report: PruneReport): string {
  return report.removedMessages === undefined ? 'Remove what is older' : `Remove ${countOf(report.removedMessages, 'message')}`;
}

/** The question the button opens, in the check's counts. */
export function removeQuestion(report: PruneReport): string {
  const { what, whole } = wouldGo(report);
  return report.removedMessages === undefined ? 'Remove what is older than the retention window from the cache?' : `Remove ${what} older than the retention window from the cache${whole}?`;
}

/**
 * What a removal did. It counts parts and emptied sessions only (a subagent's is one of its own), so
 * it says what is true now rather than a count in the cache's units.
 */
export function removalSentence(report: PruneReport): string {
  const took = formatDuration(report.durationMs);
  if (!report.complete) return `Stopped early after ${took} (Steward was shutting down): the next pass removes the rest of what is older than the retention window. Check again to see what is left.`;
  if (report.removedParts === 0) return 'Nothing was older than the retention window any more: nothing was removed.';
  return `Removed in ${took}: the cache holds nothing older than the retention window now.`;
}
