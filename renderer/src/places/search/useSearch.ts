import { useEffect, useRef, useState } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { useAction, useClient, useEvent } from '../../hooks.js';
import { canSearch, queryOf, type SearchFilters } from './filters.js';

type SearchResult = Result<'Search.Query'>;
type SearchParams = Params<'Search.Query'>;

/** A further page merged into what is shown: its matches after the others, its conversations once. */
function merge(shown: SearchResult, page: SearchResult): SearchResult {
  const sessions = new Map([...shown.sessions, ...page.sessions].map((s) => [s.sessionId, s]));
  return { ...page, hits: [...shown.hits, ...page.hits], sessions: [...sessions.values()] };
}

/** Runs the search the filters describe (words, or chips alone); `more` fetches the next page and merges its conversations. Older replies never overwrite newer ones. */
export function useSearch(filters: SearchFilters): { result: SearchResult | undefined; error: Error | undefined; loading: boolean; more: () => void; retry: () => void } {
  const client = useClient();
  // The first page keeps the parameters it ran with: a When chip is resolved to a date once, and a cursor belongs to exactly that search.
  const [first, setFirst] = useState<{ params?: SearchParams; result: SearchResult | undefined; error: Error | undefined; loading: boolean }>({ result: undefined, error: undefined, loading: false });
  const [generation, setGeneration] = useState(0);
  const key = JSON.stringify(filters);
  const latest = useRef(0);
  useEffect(() => {
    const wanted = JSON.parse(key) as SearchFilters;
    if (!client || !canSearch(wanted)) {
      setFirst({ result: undefined, error: undefined, loading: false });
      return;
    }
    const request = ++latest.current;
    const params = queryOf(wanted);
    setFirst((previous) => ({ ...previous, loading: true }));
    client.call('Search.Query', params).then(
      (result) => request === latest.current && setFirst({ params, result, error: undefined, loading: false }),
      (error: unknown) => request === latest.current && setFirst({ result: undefined, error: error instanceof Error ? error : new Error('The search failed.'), loading: false }),
    );
  }, [client, key, generation]);
  // A conversation or project forgotten elsewhere (another tab, the CLI) takes its hits away: the search
  // asks again rather than guessing which went (a forgotten conversation takes its subagents with it).
  // Pages fetched with More matches start over with it. A lift adds nothing until an import does.
  const again = () => setGeneration((n) => n + 1);
  useEvent('history.changed', (change) => change.change === 'forgotten' && again());

  // Further pages belong to the first page they continue; a new search (or Try again) starts over.
  const next = useAction('Search.Query');
  const [paged, setPaged] = useState<{ base: SearchResult; result?: SearchResult }>();
  const current = paged !== undefined && paged.base === first.result;
  const result = current && paged.result ? paged.result : first.result;
  const more = () => {
    const { params, result: base } = first;
    const cursor = result?.cursor;
    if (!params || !base || !result || !cursor || next.busy) return;
    setPaged((previous) => (previous?.base === base ? previous : { base }));
    void next.run({ ...params, cursor }).then(
      (page) => page && setPaged((previous) => ({ base, result: merge(previous?.base === base && previous.result ? previous.result : base, page) })),
    );
  };
  return { result, error: first.error ?? (current ? next.error : undefined), loading: first.loading || next.busy, more, retry: again };
}
