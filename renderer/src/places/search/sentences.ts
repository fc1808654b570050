import type { Result, SearchHit } from '../../../../core/api/index.js';
import { countOf, formatCount } from '../../components/index.js';
import { COMPACTION_SPEAKER, kindLabel, MAIN_AGENT, roleWord, TOOL_OUTPUT } from '../../../../core/api/part-words.js';
import { indexingNote, type IndexingFigure } from '../../../../core/api/indexing-words.js';
import { hitVoice } from '../../../../core/api/reading.js';
import { MAX_PAGES } from './filters.js';

type SearchResult = Result<'Search.Query'>;

/**
 * What a page without hits says. A page can come back empty and still have a cursor: a search for
 * the person's own words reads a bounded number of matches per page, and those may all have been
 * someone else's; "no match" would then be untrue. So it would be for a search refused as too broad
 * (nothing was searched): its note says what to do instead.
 */
export function emptySentence(result: Pick<SearchResult, 'hits' | 'cursor' | 'fallback'>, words = true): string | undefined {
  if (result.hits.length > 0 || result.fallback?.mode === 'too_broad') return undefined;
  if (result.cursor) return 'None among the newest matches looked at so far; More matches looks further back.';
  return words ? 'No conversation matches that.' : 'Nothing matches these filters.';
}

/**
 * What the reader calls a hit, whatever the Kind chip: a match, never a "part", nor a "message" (a
 * tool's output or a thought is no message anywhere else in the panel).
 */
const MATCH = { one: 'match', other: 'matches' };

/**
 * How much a page found, shown above its results, in one sentence whatever the order: what is shown
 * (matches listed, in how many conversations), then what else is known of: the repeats the listed hits
 * stand for (SearchHit.alike, each said beside its hit), and, with a cursor, that More matches may
 * find others. A page with a cursor is not all there is, so its count is never said as a total.
 */
export function countSentence(result: Pick<SearchResult, 'hits' | 'sessions' | 'cursor'>): string {
  const shown = `Showing ${countOf(result.hits.length, MATCH)} in ${countOf(new Set(result.hits.map((h) => h.sessionId)).size, 'conversation')}`;
  const alike = result.hits.reduce((sum, h) => sum + (h.alike ?? 0), 0);
  const known = alike > 0 ? `${shown}, and ${formatCount(alike)} more like them.` : `${shown}.`;
  return result.cursor ? `${known} More matches looks for others.` : known;
}

/**
 * What the Search place says while a background walk over the index is unfinished: history still
 * being indexed (an owner from before phases says none: that one), or the index being re-tagged.
 */
export function indexingSentence(indexing: IndexingFigure): string {
  if (indexing.phase === 'retag') return indexingNote(indexing);
  const done = new Intl.NumberFormat(undefined, { style: 'percent' }).format(indexing.totalParts === 0 ? 1 : indexing.indexedParts / indexing.totalParts);
  return `Earlier history is still being indexed (${done} done); some of it is not searchable yet.`;
}

/**
 * What a reload (or Back) says when its address named more pages than it loads (`asked`, above
 * MAX_PAGES): the first pages are shown and the address now says so, but the matches the person had
 * paged to are not, and that is never left unsaid. More matches goes on from the last page shown.
 */
export function cappedSentence(asked: number): string {
  return `Showing the first ${MAX_PAGES} pages of matches, not the ${formatCount(asked)} the address asked for: a reload shows at most ${MAX_PAGES}. More matches goes on from here.`;
}

/** The note under a relevance page that ranked only the newest matches; none when it ranked nothing. */
export function rankedSentence(result: Pick<SearchResult, 'rankedAmong'>): string | undefined {
  if (result.rankedAmong === undefined || result.rankedAmong === 0) return undefined;
  return `Ranked among the newest ${formatCount(result.rankedAmong)} matches. Narrow the search, or order by newest to reach older ones.`;
}

/**
 * Who wrote a hit (hitVoice, the rule the CLI's search lines follow too), and what it is: the agent's
 * app is `app`, the session's; a compaction summary's is the conversation's one neutral speaker.
 */
export function hitLabel(hit: Pick<SearchHit, 'role' | 'kind' | 'toolName' | 'genuineUserTurn' | 'isCompactSummary'>, inSubagent: boolean, app: string): string {
  const tool = hit.toolName ? ` ${hit.toolName}` : '';
  const voice = hitVoice(hit, inSubagent);
  if (voice === 'summary') return COMPACTION_SPEAKER;
  if (voice === 'tool') return `${TOOL_OUTPUT}${tool}`;
  const who = voice === 'app' ? app : voice === 'main-agent' ? MAIN_AGENT : roleWord(hit.role);
  const kind = kindLabel(hit.kind);
  return kind ? `${who} · ${kind}${tool}` : who;
}
