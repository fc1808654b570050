import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement, type Ref, type RefObject } from 'react';
import type { Result, SearchHit } from '../../../../core/api/index.js';
import { Button } from '../../components/index.js';
import { filterNames, go } from './Chips.js';
import { hasFilter, withoutFilters, type SearchFilters } from './filters.js';
import { firstNewHit, sessionGroups } from './groups.js';
import { SessionGroup } from './Results.js';
import { cappedSentence, countSentence, emptySentence, indexingSentence, rankedSentence } from './sentences.js';

/** Up/Down walk the hits, Home/End jump, Escape returns to the box; Enter opens (they are links). */
function moveFocus(event: KeyboardEvent<HTMLElement>, box: HTMLInputElement | null): void {
  const links = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-hit]')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: links.length - 1 }[event.key];
  if (event.key === 'Escape') {
    event.preventDefault();
    box?.focus();
  } else if (to !== undefined) {
    event.preventDefault();
    if (to < 0) box?.focus();
    else links[Math.min(to, links.length - 1)]?.focus();
  }
}

/**
 * More matches is disabled while the page loads, which drops the focus, and gone after the last page:
 * once the page is shown, its first new match takes the focus (the button again when it added none).
 */
function useMoreMatches(result: Result<'Search.Query'>, loading: boolean, onMore: () => void): { more: () => void; button: RefObject<HTMLButtonElement | null> } {
  const [before, setBefore] = useState<readonly SearchHit[]>();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (before === undefined || loading) return;
    setBefore(undefined);
    const partId = firstNewHit(before, result.hits);
    const hit = partId === undefined ? null : document.querySelector<HTMLAnchorElement>(`.search-results a[data-part="${CSS.escape(partId)}"]`);
    (hit ?? button.current)?.focus();
  }, [before, loading, result.hits]);
  return {
    more: () => {
      setBefore(result.hits);
      onMore();
    },
    button,
  };
}

/**
 * What an empty search says: with words and filters on (typed filters stay on for the next search too),
 * which filters narrowed it, and a way to search the same words without them.
 */
function Empty({ result, filters, projects }: { result: Result<'Search.Query'>; filters: SearchFilters; projects: Parameters<typeof filterNames>[1] }): ReactElement | null {
  const words = filters.q.trim() !== '';
  const said = emptySentence(result, words);
  if (said === undefined) return null;
  const narrowed = words && !result.cursor && hasFilter(filters);
  return (
    <p>
      {said}
      {narrowed && (
        <>
          {` Filters in use: ${filterNames(filters, projects).join(', ')}.`}{' '}
          <Button variant="quiet" onClick={() => go(withoutFilters(filters), filters)}>
            Search without filters
          </Button>
        </>
      )}
    </p>
  );
}

/** The matches of a search grouped by conversation, with what the search had to say about them and the way to further matches. */
export function SearchResults({
  result,
  filters,
  projects,
  loading,
  capped,
  onMore,
  box,
  ref,
}: {
  result: Result<'Search.Query'>;
  /** The search shown: its words (without, the chips alone chose the messages) and its filters. */
  filters: SearchFilters;
  /** Projects.List's, to name a project filter. */
  projects: Parameters<typeof filterNames>[1];
  loading: boolean;
  /** The pages the address named, when a reload loaded fewer (the cap): said, never left silently out. */
  capped?: number | undefined;
  onMore: () => void;
  box: RefObject<HTMLInputElement | null>;
  ref: Ref<HTMLDivElement>;
}): ReactElement {
  const sessions = new Map(result.sessions.map((s) => [s.sessionId, s]));
  const further = useMoreMatches(result, loading, onMore);
  return (
    <div className="search-results" ref={ref} onKeyDown={(e) => moveFocus(e, box.current)} aria-busy={loading}>
      <div role="status" className="search-results__status">
        {result.fallback && <p className="search-note">{result.fallback.message}</p>}
        {result.indexing && <p className="search-note">{indexingSentence(result.indexing)}</p>}
        {capped !== undefined && (
          <p className="search-note" data-testid="search-capped">
            {cappedSentence(capped)}
          </p>
        )}
        {result.hits.length === 0 ? (
          <Empty result={result} filters={filters} projects={projects} />
        ) : (
          <p className="search-results__count">{countSentence(result)}</p>
        )}
      </div>
      <ol className="search-groups" aria-label="Matches by conversation">
        {sessionGroups(result.hits).map((group) => (
          <SessionGroup key={group.sessionId} sessionId={group.sessionId} hits={group.hits} session={sessions.get(group.sessionId)} />
        ))}
      </ol>
      {rankedSentence(result) && <p className="muted">{rankedSentence(result)}</p>}
      {result.cursor && (
        <Button ref={further.button} onClick={further.more} disabled={loading}>
          {loading ? 'Loading…' : 'More matches'}
        </Button>
      )}
    </div>
  );
}
