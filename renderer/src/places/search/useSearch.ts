import { useCallback, useEffect, useRef, useState } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { useClient } from '../../hooks.js';
import { queryOf, type SearchFilters } from './filters.js';

type SearchResult = Result<'Search.Query'>;

/** Runs the search the filters describe; `more` fetches the next page and merges its conversations. Older replies never overwrite newer ones. */
export function useSearch(filters: SearchFilters): { result: SearchResult | undefined; error: Error | undefined; loading: boolean; more: () => void; retry: () => void } {
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

