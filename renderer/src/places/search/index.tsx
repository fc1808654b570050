import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react';
import type { Result, SearchHit, SearchSession } from '../../../../core/api/index.js';
import { Button, EmptyState, ErrorBanner, formatCount, formatDateTime, formatRelativeTime, PlaceHeader, providerIds, providerLabel } from '../../components/index.js';
import { useCall, useClient } from '../../hooks.js';
import { searchHref, sessionHref } from '../../navigation.js';
import { usePanel } from '../../store.js';
import { filtersFrom, filtersToParams, queryOf, type SearchFilters } from './filters.js';
import { Highlighted } from './Highlighted.js';
import './search.css';

type SearchResult = Result<'Search.Query'>;

interface Chip<K extends keyof SearchFilters> {
  key: K;
  label: string;
  options: ReadonlyArray<{ value: SearchFilters[K]; label: string }>;
}

const CHIPS = [
  { key: 'who', label: 'Said by', options: [{ value: undefined, label: 'Anyone' }, { value: 'me', label: 'What I said' }, { value: 'assistant', label: 'The assistant' }] } satisfies Chip<'who'>,
  {
    key: 'kind',
    label: 'Kind',
    options: [
      { value: undefined, label: 'Everything' },
      { value: 'text', label: 'Messages' },
      { value: 'tool_use', label: 'Commands' },
      { value: 'tool_result', label: 'Tool output' },
      { value: 'thinking', label: 'Thinking' },
    ],
  } satisfies Chip<'kind'>,
  { key: 'when', label: 'When', options: [{ value: undefined, label: 'Any time' }, { value: '7d', label: 'Past week' }, { value: '30d', label: 'Past month' }, { value: '365d', label: 'Past year' }] } satisfies Chip<'when'>,
  { key: 'provider', label: 'Agent', options: [{ value: undefined, label: 'All agents' }, ...providerIds().map((id) => ({ value: id, label: providerLabel(id) }))] } satisfies Chip<'provider'>,
  { key: 'sort', label: 'Order', options: [{ value: undefined, label: 'Best match' }, { value: 'newest', label: 'Newest first' }] } satisfies Chip<'sort'>,
] as const;

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', toolResult: 'Tool result' };
const KIND_LABEL: Record<string, string> = { tool_use: 'Command', tool_result: 'Tool output', thinking: 'Thinking' };

const NO_PARAMS: Record<string, string> = {};

/** The part opened last: Back returns to the results with it focused again. */
let lastOpened: string | undefined;

function go(filters: SearchFilters): void {
  window.location.hash = searchHref(filtersToParams(filters));
}

function useSearch(filters: SearchFilters): { result: SearchResult | undefined; error: Error | undefined; loading: boolean; more: () => void; retry: () => void } {
  const client = useClient();
  const [state, setState] = useState<{ result: SearchResult | undefined; error: Error | undefined; loading: boolean }>({ result: undefined, error: undefined, loading: false });
  const [generation, setGeneration] = useState(0);
  const key = JSON.stringify(filters);
  const latest = useRef(0);
  useEffect(() => {
    const wanted = JSON.parse(key) as SearchFilters;
    if (!client || wanted.q.trim() === '') {
      setState({ result: undefined, error: undefined, loading: false });
      return;
    }
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    client.call('Search.Query', queryOf(wanted)).then(
      (result) => request === latest.current && setState({ result, error: undefined, loading: false }),
      (error: unknown) => request === latest.current && setState({ result: undefined, error: error instanceof Error ? error : new Error('The search failed.'), loading: false }),
    );
  }, [client, key, generation]);
  const more = useCallback(() => {
    const cursor = state.result?.cursor;
    if (!client || !cursor) return;
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    client.call('Search.Query', { ...queryOf(JSON.parse(key) as SearchFilters), cursor }).then(
      (page) =>
        request === latest.current &&
        setState((previous) => {
          const before = previous.result;
          const sessions = new Map([...(before?.sessions ?? []), ...page.sessions].map((s) => [s.sessionId, s]));
          return { result: { ...page, hits: [...(before?.hits ?? []), ...page.hits], sessions: [...sessions.values()] }, error: undefined, loading: false };
        }),
      (error: unknown) => request === latest.current && setState((previous) => ({ ...previous, error: error instanceof Error ? error : new Error('The search failed.'), loading: false })),
    );
  }, [client, key, state.result?.cursor]);
  return { ...state, more, retry: () => setGeneration((n) => n + 1) };
}

function groupBySession(hits: readonly SearchHit[]): Array<{ sessionId: string; hits: SearchHit[] }> {
  const groups = new Map<string, SearchHit[]>();
  for (const hit of hits) groups.set(hit.sessionId, [...(groups.get(hit.sessionId) ?? []), hit]);
  return [...groups].map(([sessionId, grouped]) => ({ sessionId, hits: grouped }));
}

function SessionGroup({ session, sessionId, hits }: { session: SearchSession | undefined; sessionId: string; hits: SearchHit[] }): ReactElement {
  const title = session?.title ?? session?.firstRequest ?? 'Untitled conversation';
  return (
    <li className="search-group">
      <h3 className="search-group__title">
        <a href={sessionHref(sessionId)} className="search-group__link" tabIndex={-1}>
          {title}
        </a>
      </h3>
      <p className="search-group__meta">
        {[session?.projectName ?? 'No project', providerLabel(hits[0]!.provider), session?.parentSessionId ? 'subagent' : null].filter(Boolean).join(' · ')}
        {session?.lastAt != null && (
          <>
            {' · '}
            <time dateTime={new Date(session.lastAt).toISOString()}>{formatRelativeTime(session.lastAt)}</time>
          </>
        )}
      </p>
      <ul className="search-hits">
        {hits.map((hit) => (
          <li key={hit.partId}>
            <a className="search-hit" href={sessionHref(sessionId, hit.partId)} data-hit="" data-part={hit.partId} onClick={() => (lastOpened = hit.partId)}>
              <span className="search-hit__who">
                {ROLE_LABEL[hit.role ?? ''] ?? hit.role ?? 'Message'}
                {KIND_LABEL[hit.kind] ? ` · ${KIND_LABEL[hit.kind]}${hit.toolName ? ` ${hit.toolName}` : ''}` : ''}
                {hit.ts !== null && <time dateTime={new Date(hit.ts).toISOString()}> · {formatDateTime(hit.ts)}</time>}
              </span>
              <span className="search-hit__snippet">
                <Highlighted text={hit.snippet} ranges={hit.highlights} />
              </span>
            </a>
          </li>
        ))}
      </ul>
    </li>
  );
}

function Chips({ filters }: { filters: SearchFilters }): ReactElement {
  const projects = useCall('Projects.List', {}).data?.projects ?? [];
  return (
    <div className="search-chips">
      {CHIPS.map((chip) => (
        <div key={chip.key} className="search-chips__group" role="group" aria-label={chip.label}>
          {chip.options.map((option) => (
            <button
              key={option.label}
              type="button"
              className="chip"
              aria-pressed={filters[chip.key] === option.value}
              onClick={() => go({ ...filters, [chip.key]: option.value })}
            >
              {option.label}
            </button>
          ))}
        </div>
      ))}
      {projects.length > 0 && (
        <label className="search-chips__project">
          <span>Project</span>
          <select className="select" value={filters.project ?? ''} onChange={(e) => go({ ...filters, project: e.currentTarget.value || undefined })}>
            <option value="">All projects</option>
            {projects.map((p) => (
              <option key={p.projectKey} value={p.projectKey}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

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
    if (!search.result || lastOpened === undefined) return;
    const link = results.current?.querySelector<HTMLAnchorElement>(`a[data-part="${CSS.escape(lastOpened)}"]`);
    lastOpened = undefined;
    link?.focus();
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
                Earlier history is still being indexed ({formatCount(result.indexing.indexedParts)} of {formatCount(result.indexing.totalParts)} parts); some of it is not searchable yet.
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
