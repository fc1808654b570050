import type { Result } from '../../../../core/api/index.js';
import { formatCount } from '../../components/index.js';

type SearchResult = Result<'Search.Query'>;

/**
 * What a page without hits says. A page can come back empty and still have a cursor: a search for
 * the person's own words reads a bounded number of matches per page, and those may all have been
 * someone else's; "no match" would then be untrue.
 */
export function emptySentence(result: Pick<SearchResult, 'hits' | 'cursor'>): string | undefined {
  if (result.hits.length > 0) return undefined;
  return result.cursor ? 'None among the newest matches looked at so far; More matches looks further back.' : 'No conversation matches that.';
}

/** The note under a relevance page that ranked only the newest matches; none when it ranked nothing. */
export function rankedSentence(result: Pick<SearchResult, 'rankedAmong'>): string | undefined {
  if (result.rankedAmong === undefined || result.rankedAmong === 0) return undefined;
  return `Ranked among the newest ${formatCount(result.rankedAmong)} matches. Narrow the search, or order by newest to reach older ones.`;
}
