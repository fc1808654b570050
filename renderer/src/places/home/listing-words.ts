import type { Result } from '../../../../core/api/index.js';

type Survey = Result<'Providers.Survey'>['providers'][number];

const day = (at: number | null) => (at === null ? '—' : new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' }));

/**
 * The listing's dates for one agent: when the messages imported from it were written, once any are;
 * otherwise its files' dates, said to be the files'. A history copied from another computer is all
 * new files of old messages: its files' dates are the day it was copied.
 */
export function datesWords(s: Pick<Survey, 'files' | 'oldestAt' | 'newestAt' | 'stored'>): string {
  if (s.stored) return `messages imported: ${day(s.stored.oldestAt)} – ${day(s.stored.newestAt)}`;
  if (s.files === 0) return '—';
  return `files dated ${day(s.oldestAt)} – ${day(s.newestAt)}`;
}
