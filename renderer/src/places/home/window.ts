import type { Result } from '../../../../core/api/index.js';
import { countOf, formatBytes, listOf, providerLabel } from '../../components/index.js';

type Survey = Result<'Providers.Survey'>;

/** "the last year", "the last 90 days", or all of it when no window is set (0 days). */
export function spanWords(days: number): string {
  if (days === 0) return 'all of their history';
  return days === 365 ? 'the last year' : `the last ${countOf(days, 'day')}`;
}

/**
 * How far back the scheduled import reaches, from the listing: one span when every agent shares it,
 * else each agent's own ("the last 90 days for Claude Code and the last year for Codex").
 */
export function windowWords(survey: Survey): string | undefined {
  const spans = new Set(survey.providers.map((p) => p.windowDays));
  if (spans.size === 0) return undefined;
  if (spans.size === 1) return spanWords(survey.providers[0]!.windowDays);
  return listOf(survey.providers.map((p) => `${spanWords(p.windowDays)} for ${providerLabel(p.provider)}`));
}

/**
 * The "Everything" choice: what importing the rest would read and how long it may take, or, when no
 * file is older than the window, that there is nothing more to import (never "the 0 older files").
 */
export function everythingWords(olderFiles: number, olderBytes: number, estimate?: string): string {
  if (olderFiles === 0) return 'Everything: nothing is older than the window, so all there is has been imported';
  return `Everything: also import the ${countOf(olderFiles, 'older file')} (${formatBytes(olderBytes)})${estimate ? `, about ${estimate}` : ''}`;
}
