import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react';
import { Button, EmptyState, ErrorBanner, PlaceHeader } from '../../components/index.js';
import type { NothingToFind } from '../../../../core/api/index.js';
import { useCall } from '../../hooks.js';
import { usePanel } from '../../store.js';
import { Chips, go } from './Chips.js';
import { canSearch, filtersFrom, pagesFrom, typedInBox } from './filters.js';
import { takeLastOpened } from './Results.js';
import { SearchResults } from './SearchResults.js';
import { boxOver, followAddress } from './box.js';
import { typedFilters } from './typed.js';
import { useSearch } from './useSearch.js';
import './search.css';

const NO_PARAMS: Record<string, string> = {};

/**
 * Search: one box over every captured conversation, reachable from anywhere with `/` or Ctrl/Cmd-K,
 * filters as chips, results grouped by conversation with the matches marked. The address holds the
 * query and filters, so Back returns here from a conversation.
 */
export function SearchPlace(): ReactElement {
  const params = usePanel((state) => (state.route.view === 'search' ? state.route.params : NO_PARAMS));
  const focusCount = usePanel((state) => state.searchFocus);
  const filters = filtersFrom(params);
  // The text typed and what is wrong with a filter in it (since:banana), said under the box until the
  // box changes; both belong to the address's query, and another one (Back) puts them away.
  const [kept, setTyping] = useState(() => boxOver(filters.q));
  const typing = followAddress(kept, filters.q);
  if (typing !== kept) setTyping(typing);
  const { text, problem } = typing;
  const box = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLDivElement>(null);
  const search = useSearch(filters, pagesFrom(params));
  // The tab is "Search · Steward", never what is searched for: a search for a leaked key would put the
  // key in the tab, the taskbar and the browser's history.
  // Undefined until the list is known: a typed project:x is not refused before then.
  const knownProjects = useCall('Projects.List', {}).data?.projects;
  const projects = knownProjects ?? [];
  useEffect(() => {
    if (focusCount > 0) box.current?.focus();
  }, [focusCount]);
  useEffect(() => {
    // Back from a conversation: once every page the address names is shown, the hit that was opened takes
    // the focus again, in the middle of the window (the box, when the conversation was forgotten meanwhile
    // and its hit is gone).
    const opened = search.result && !search.loading ? takeLastOpened() : undefined;
    if (opened === undefined) return;
    const hit = results.current?.querySelector<HTMLAnchorElement>(`a[data-part="${CSS.escape(opened)}"]`);
    if (!hit) {
      box.current?.focus();
      return;
    }
    hit.focus({ preventScroll: true });
    hit.scrollIntoView({ block: 'center' });
  }, [search.result, search.loading]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Filters typed in the box (project:billing-api role:user since:2026-01-01) become their chips and leave it;
    // a bad one is named and nothing is searched.
    const typed = typedFilters(text.trim(), filters, knownProjects);
    if ('problem' in typed) {
      setTyping({ ...typing, problem: typed.problem });
      return;
    }
    setTyping({ ...typing, text: typed.filters.q, problem: undefined });
    go(typed.filters, filters);
  };
  const change = (value: string) => {
    setTyping({ ...typing, text: value, problem: undefined });
    const emptied = typedInBox(filters, value);
    if (emptied) go(emptied, filters);
  };
  const onBoxKey = (event: KeyboardEvent<HTMLInputElement>) => {
    // Escape empties the box here, not by the browser's own search-field clearing, which not every engine does; an empty box lets Escape go on.
    if (event.key === 'Escape' && text !== '') {
      event.preventDefault();
      change('');
      return;
    }
    if (event.key !== 'ArrowDown') return;
    const first = results.current?.querySelector<HTMLAnchorElement>('a[data-hit]');
    if (!first) return;
    event.preventDefault();
    first.focus();
  };

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
          onChange={(e) => change(e.currentTarget.value)}
          onKeyDown={onBoxKey}
          autoComplete="off"
          aria-invalid={problem !== undefined}
          aria-describedby={problem !== undefined ? 'search-box-problem' : undefined}
        />
        <Button type="submit" variant="primary" icon="search">
          Search
        </Button>
      </form>
      {problem !== undefined && (
        <p id="search-box-problem" className="search-form__problem" role="alert">
          {problem}
        </p>
      )}
      <Chips filters={filters} projects={projects} />
      {/* A refusal of what was typed (a query with no word to find) is the person's to change: asking again would be refused again. */}
      {isRefusal(search.error) ? (
        <ErrorBanner title="Nothing to search for." error={search.error} />
      ) : (
        <ErrorBanner title="The search could not be run." error={search.error} onRetry={search.retry} />
      )}
      {!canSearch(filters) && (
        <EmptyState icon="search" title="Search your conversations" size="compact">
          <p>
            Type a word, an “exact phrase”, an identifier such as <code>parseConfig</code> (found by its pieces too), a path or an error code, then press Enter. Every
            conversation captured from your agents’ transcripts is searched; narrow it with the chips, or type them in the box: <code>project:</code>, <code>role:user</code>, <code>kind:tool_use</code>,{' '}
            <code>since:7d</code>, <code>since:2026-01-01</code>, <code>until:2025-03</code>, <code>provider:codex</code>. Pick a chip without typing anything to see its messages, newest first.
          </p>
        </EmptyState>
      )}
      {search.result && <SearchResults result={search.result} filters={filters} projects={projects} loading={search.loading} capped={search.capped} onMore={search.more} box={box} ref={results} />}
    </>
  );
}

const NOTHING_TO_FIND: NothingToFind['reason'] = 'nothing_to_find';

/** Whether the owner refused what was typed (a query with no word to find), not failed to run it: a stale cursor's Try again still helps. */
function isRefusal(error: Error | undefined): boolean {
  return (error as { data?: { details?: { reason?: unknown } } } | undefined)?.data?.details?.reason === NOTHING_TO_FIND;
}
