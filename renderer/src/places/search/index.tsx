import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react';
import { Button, EmptyState, ErrorBanner, formatCount, PlaceHeader } from '../../components/index.js';
import { usePanel } from '../../store.js';
import { Chips, go } from './Chips.js';
import { filtersFrom } from './filters.js';
import { groupBySession, SessionGroup, takeLastOpened } from './Results.js';
import { useSearch } from './useSearch.js';
import './search.css';

const NO_PARAMS: Record<string, string> = {};

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
 * Search: one box over every captured conversation, reachable from anywhere with `/` or Ctrl/Cmd-K,
 * filters as chips, results grouped by conversation with the matches marked. The address holds the
 * query and filters, so Back returns here from a conversation.
 */
export function SearchPlace(): ReactElement {
  const params = usePanel((state) => (state.route.view === 'search' ? state.route.params : NO_PARAMS));
  const focusCount = usePanel((state) => state.searchFocus);
  const filters = filtersFrom(params);
  const [text, setText] = useState(filters.q);
  const box = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLDivElement>(null);
  const search = useSearch(filters);
  useEffect(() => setText(filters.q), [filters.q]);
  useEffect(() => {
    if (focusCount > 0) box.current?.focus();
  }, [focusCount]);
  useEffect(() => {
    // Back from a conversation: the hit that was opened takes the focus again.
    const opened = search.result ? takeLastOpened() : undefined;
    if (opened === undefined) return;
    results.current?.querySelector<HTMLAnchorElement>(`a[data-part="${CSS.escape(opened)}"]`)?.focus();
  }, [search.result]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ ...filters, q: text.trim() });
  };
  const onBoxKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowDown') return;
    const first = results.current?.querySelector<HTMLAnchorElement>('a[data-hit]');
    if (!first) return;
    event.preventDefault();
    first.focus();
  };
  const result = search.result;
  const sessions = new Map((result?.sessions ?? []).map((s) => [s.sessionId, s]));

  return (
    <>
      <PlaceHeader title="Search" description="Find anything in every conversation your agents have had: words, “exact phrases”, identifiers, paths, commands." />
      <form className="search-form" role="search" onSubmit={submit}>
        <input
          ref={box}
          id="search-box"
          className="input search-form__box"
          type="search"
          aria-label="Search conversations"
          placeholder="Search conversations (press / from anywhere)"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={onBoxKey}
          autoComplete="off"
        />
        <Button type="submit" variant="primary" icon="search">
          Search
        </Button>
      </form>
      <Chips filters={filters} />
      <ErrorBanner title="The search could not be run." error={search.error} onRetry={search.retry} />
      {filters.q.trim() === '' && (
        <EmptyState icon="search" title="Search your conversations" size="compact">
          <p>
            Type a word, an “exact phrase”, an identifier such as <code>parseConfig</code> (found by its pieces too), a path or an error code, then press Enter. Every
            conversation captured from your agents’ transcripts is searched; narrow it with the chips.
          </p>
        </EmptyState>
      )}
      {result && (
        <div className="search-results" ref={results} onKeyDown={(e) => moveFocus(e, box.current)} aria-busy={search.loading}>
          <div role="status" className="search-results__status">
            {result.fallback && <p className="search-note">{result.fallback.message}</p>}
            {result.indexing && (
              <p className="search-note">
                Earlier history is still being indexed ({new Intl.NumberFormat(undefined, { style: 'percent' }).format(result.indexing.totalParts === 0 ? 1 : result.indexing.indexedParts / result.indexing.totalParts)} done); some of it is not searchable yet.
              </p>
            )}
            {result.hits.length === 0 ? (
              <p>No conversation matches that.</p>
            ) : (
              <p className="visually-hidden">
                {result.hits.length} matches in {sessions.size} conversations
              </p>
            )}
          </div>
          <ol className="search-groups" aria-label="Matches by conversation">
            {groupBySession(result.hits).map((group) => (
              <SessionGroup key={group.sessionId} sessionId={group.sessionId} hits={group.hits} session={sessions.get(group.sessionId)} />
            ))}
          </ol>
          {result.rankedAmong !== undefined && <p className="muted">Ranked among the newest {formatCount(result.rankedAmong)} matches. Narrow the search, or order by newest to reach older ones.</p>}
          {result.cursor && (
            <Button onClick={search.more} disabled={search.loading}>
              {search.loading ? 'Loading…' : 'More matches'}
            </Button>
          )}
        </div>
      )}
    </>
  );
}
