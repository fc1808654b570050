import type { PruneReport } from '../../../../core/api/index.js';
import { countOf } from '../../components/index.js';

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
