import type { KeyboardEvent, ReactElement, Ref, RefObject } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { Button, countOf } from '../../components/index.js';
import { groupBySession, SessionGroup } from './Results.js';
import { emptySentence, rankedSentence } from './sentences.js';

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

/** The matches of a search grouped by conversation, with what the search had to say about them and the way to further matches. */
export function SearchResults({ result, loading, onMore, box, ref }: { result: Result<'Search.Query'>; loading: boolean; onMore: () => void; box: RefObject<HTMLInputElement | null>; ref: Ref<HTMLDivElement> }): ReactElement {
  const sessions = new Map(result.sessions.map((s) => [s.sessionId, s]));
  return (
    <div className="search-results" ref={ref} onKeyDown={(e) => moveFocus(e, box.current)} aria-busy={loading}>
      <div role="status" className="search-results__status">
        {result.fallback && <p className="search-note">{result.fallback.message}</p>}
        {result.indexing && (
          <p className="search-note">
            Earlier history is still being indexed ({new Intl.NumberFormat(undefined, { style: 'percent' }).format(result.indexing.totalParts === 0 ? 1 : result.indexing.indexedParts / result.indexing.totalParts)} done); some of it is not searchable yet.
          </p>
        )}
        {result.hits.length === 0 ? (
          <p>{emptySentence(result)}</p>
        ) : (
          <p className="visually-hidden">
            {countOf(result.hits.length, { one: 'match', other: 'matches' })} in {countOf(sessions.size, 'conversation')}
          </p>
        )}
      </div>
      <ol className="search-groups" aria-label="Matches by conversation">
        {groupBySession(result.hits).map((group) => (
          <SessionGroup key={group.sessionId} sessionId={group.sessionId} hits={group.hits} session={sessions.get(group.sessionId)} />
        ))}
      </ol>
      {rankedSentence(result) && <p className="muted">{rankedSentence(result)}</p>}
      {result.cursor && (
        <Button onClick={onMore} disabled={loading}>
          {loading ? 'Loading…' : 'More matches'}
        </Button>
      )}
    </div>
  );
}
