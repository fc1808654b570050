import type { Result } from '../../../../core/api/index.js';
import { countOf, formatBytes, formatDate } from '../../components/index.js';

type Survey = Result<'Providers.Survey'>['providers'][number];

const day = (at: number | null) => (at === null ? '—' : formatDate(at));

/** A range of days, the day said once when both ends fall on it. */
function daysWords(from: number | null, to: number | null): string {
  return day(from) === day(to) ? day(from) : `${day(from)} – ${day(to)}`;
}

/**
 * The listing's dates for one agent: when the messages imported from it were written, once any are;
 * otherwise its files' dates, said to be the files'. A history copied from another computer is all
 * new files of old messages: its files' dates are the day it was copied.
 */
export function datesWords(s: Pick<Survey, 'files' | 'oldestAt' | 'newestAt' | 'stored'>): string {
  if (s.stored) return `messages imported: ${daysWords(s.stored.oldestAt, s.stored.newestAt)}`;
  if (s.files === 0) return '—';
  return `files dated ${daysWords(s.oldestAt, s.newestAt)}`;
}

/**
 * The listing's "In the folders, older than the window" for one agent, in words (files on disk, not what
 * Steward holds, which `steward cache prune` would remove): its files older than the window, the
 * older messages in its newer files, and the files not counted yet; "none" when there is nothing of
 * those (never "0 (0 bytes)").
 */
export function olderCellWords(s: Pick<Survey, 'windowDays' | 'older' | 'olderMessages' | 'olderUncounted'>): string {
  if (s.windowDays === 0) return 'none (keeps everything)';
  const parts = [
    s.older.files > 0 ? `${countOf(s.older.files, 'file')} (${formatBytes(s.older.bytes)})` : null,
    s.olderMessages > 0 ? `up to ${countOf(s.olderMessages, 'message')} in newer files` : null,
    s.olderUncounted > 0 ? `${countOf(s.olderUncounted, 'newer file')} not counted yet` : null,
  ].filter((part) => part !== null);
  return parts.length === 0 ? 'none' : parts.join(', and ');
}
