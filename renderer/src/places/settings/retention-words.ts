import type { PruneReport } from '../../../../core/api/index.js';
import { lostWords } from '../../../../core/api/retention-words.js';
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
 * Whether conversations the retention window removed come back: one answer for Home and Settings.
 * Scheduled checks import only what is inside the window, so never; importing everything
 * (`Backfill.Run` with `all`) reads every transcript again and brings back what is still on disk; and
 * while a window is saved, the clean-up's next pass (shortly after each start, then daily) removes it
 * again. `saving`: said with a window about to be saved, which is then the one that removes them.
 */
export function comeBackWords(saving = false): string {
  const saved = saving ? 'once this window is saved' : 'while a retention window is saved';
  return (
    'Scheduled checks never import removed conversations again. Importing everything (Import earlier history on Projects) brings back those whose transcripts ' +
    `are still in your agents\u2019 folders, but ${saved}, the clean-up removes them again at the next start or within a day.`
  );
}

/**
 * The question before saving a retention window that removes stored history (`Cache.Prune` dry run
 * with `retentionDays`): what goes at the next start, in conversations and messages, how many of
 * those conversations Steward holds the only copy of, and that it is the saved window, not this save,
 * that removes them.
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
    `${what}.${lostWords(report.lost, { afterSentence: true })} The transcripts in your agents\u2019 folders are not touched. ${comeBackWords(true)} ` +
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
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} would go${whole}.${lostWords(report.lost, { afterSentence: true })}`;
}

/** The button that asks before removing: `Remove 9 messages`. */
export function removeLabel(report: PruneReport): string {
  return report.removedMessages === undefined ? 'Remove what is older' : `Remove ${countOf(report.removedMessages, 'message')}`;
}

/** The question the button opens, in the check's counts, with what it removes for good. */
export function removeQuestion(report: PruneReport): string {
  const { what, whole } = wouldGo(report);
  const asked = report.removedMessages === undefined ? 'Remove what is older than the retention window from the cache?' : `Remove ${what} older than the retention window from the cache${whole}?`;
  return `${asked}${lostWords(report.lost, { afterSentence: true })}`;
}

type Cutoff = PruneReport['cutoffs'][number];

/**
 * One agent's row of a check or a removal: `Nothing`, `9 messages`, or `2 conversations entirely, 9
 * messages in all`. An owner from before a removal counted messages says only `Some messages`.
 */
export function agentRemoved(cutoff: Cutoff): string {
  if (cutoff.cutoffMs === null || cutoff.removedParts === 0) return 'Nothing';
  if (cutoff.removedMessages === undefined) return 'Some messages';
  const conversations = cutoff.removedConversations ?? 0;
  const messages = countOf(cutoff.removedMessages, 'message');
  return conversations === 0 ? messages : `${countOf(conversations, 'conversation')} entirely, ${messages} in all`;
}

/**
 * What a removal did, in messages and whole conversations. An owner from before a removal counted
 * them (it counted parts and emptied sessions, a subagent's one of its own) gets what is true now.
 */
export function removalSentence(report: PruneReport): string {
  const took = formatDuration(report.durationMs);
  if (!report.complete) return `Stopped early after ${took} (Steward was shutting down): the next pass removes the rest of what is older than the retention window. Check again to see what is left.`;
  if (report.removedParts === 0) return 'Nothing was older than the retention window any more: nothing was removed.';
  if (report.removedMessages === undefined) return `Removed in ${took}: the cache holds nothing older than the retention window now.`;
  const { what, whole } = wouldGo(report);
  return `Removed in ${took}: ${what}${whole}. The cache holds nothing older than the retention window now.`;
}
