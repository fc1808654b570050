import { useEffect, useRef, useState } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { useAction, useClient, useEvent, useMounted } from '../../hooks.js';
import { replaceRoute } from '../../store.js';
import { canSearch, MAX_PAGES, pagesHref, queryOf, type SearchFilters } from './filters.js';

type SearchResult = Result<'Search.Query'>;
type SearchParams = Params<'Search.Query'>;

/** A further page merged into what is shown: its matches after the others, its conversations once. */
function merge(shown: SearchResult, page: SearchResult): SearchResult {
  const sessions = new Map([...shown.sessions, ...page.sessions].map((s) => [s.sessionId, s]));
  return { ...page, hits: [...shown.hits, ...page.hits], sessions: [...sessions.values()] };
}

/**
 * The first `pages` pages of a search (at most MAX_PAGES, and no further than its last), merged as More
 * matches merges them: what a reload or Back shows of a search whose address says `pages=…`. `capped`:
 * the pages the address named when the cap held some of them back (matches are left past the last page
 * loaded), so the person is told; a search that ends sooner shows its end, and needs no word.
 */
export async function loadPages(call: (params: SearchParams) => Promise<SearchResult>, params: SearchParams, pages: number): Promise<{ result: SearchResult; pages: number; capped?: number }> {
  let result = await call(params);
  let loaded = 1;
  for (; loaded < Math.min(pages, MAX_PAGES) && result.cursor; loaded++) result = merge(result, await call({ ...params, cursor: result.cursor }));
  return { result, pages: loaded, ...(pages > loaded && result.cursor ? { capped: pages } : {}) };
}

/** Which search is shown, and how many of its pages: the address saying the same asks for nothing. */
interface Shown {
  key: string;
  generation: number;
  pages: number;
}

/**
 * Runs the search the filters describe (words, or chips alone), with as many pages as the address says
 * (`pages`, see pagesFrom); `more` fetches the next page, merges its conversations and puts the pages
 * shown in the address, so a reload and Back show them again. Older replies never overwrite newer ones.
 */
export function useSearch(
  filters: SearchFilters,
  pages = 1,
): { result: SearchResult | undefined; error: Error | undefined; loading: boolean; capped: number | undefined; more: () => void; retry: () => void } {
  const client = useClient();
  // The first pages keep the parameters they ran with: a When chip is resolved to a date once, and a cursor belongs to exactly that search.
  // `capped`: the pages the address named, when a reload loaded fewer (loadPages).
  const [first, setFirst] = useState<{ params?: SearchParams; result: SearchResult | undefined; error: Error | undefined; loading: boolean; capped?: number }>({ result: undefined, error: undefined, loading: false });
  const [generation, setGeneration] = useState(0);
  const key = JSON.stringify(filters);
  const latest = useRef(0);
  const shown = useRef<Shown>(undefined);
  // An answer that comes once the search is no longer shown must not write its pages over another place's address.
  const mounted = useMounted();
  useEffect(() => {
    const wanted = JSON.parse(key) as SearchFilters;
    if (!client || !canSearch(wanted)) {
      shown.current = undefined;
      setFirst({ result: undefined, error: undefined, loading: false });
      return;
    }
    // The address caught up with the pages More matches added: nothing to ask.
    const at = shown.current;
    if (at?.key === key && at.generation === generation && at.pages === pages) return;
    const request = ++latest.current;
    const params = queryOf(wanted);
    setFirst((previous) => ({ ...previous, loading: true }));
    loadPages((p) => client.call('Search.Query', p), params, pages).then(
      (loaded) => {
        if (request !== latest.current) return;
        shown.current = { key, generation, pages: loaded.pages };
        setFirst({ params, result: loaded.result, error: undefined, loading: false, capped: loaded.capped });
        // Fewer pages than the address said (the cap, or the search has fewer now): the address says what is shown (and `capped` why).
        if (loaded.pages !== pages && mounted.current) replaceRoute(pagesHref(wanted, loaded.pages));
      },
      (error: unknown) => request === latest.current && setFirst({ result: undefined, error: error instanceof Error ? error : new Error('The search failed.'), loading: false }),
    );
  }, [client, key, generation, pages]);
  // A conversation or project forgotten elsewhere (another tab, the CLI) takes its hits away: the search
  // asks again rather than guessing which went (a forgotten conversation takes its subagents with it),
  // as many pages as are shown. A lift adds nothing until an import does.
  const again = () => setGeneration((n) => n + 1);
  useEvent('history.changed', (change) => change.change === 'forgotten' && again());

  // Further pages belong to the first pages they continue; a new search (or Try again) starts over.
  const next = useAction('Search.Query');
  const [paged, setPaged] = useState<{ base: SearchResult; result?: SearchResult }>();
  const current = paged !== undefined && paged.base === first.result;
  const result = current && paged.result ? paged.result : first.result;
  const more = () => {
    const { params, result: base } = first;
    const cursor = result?.cursor;
    if (!params || !base || !result || !cursor || next.busy) return;
    setPaged((previous) => (previous?.base === base ? previous : { base }));
    // A search begun meanwhile (another query, Try again) asks anew: this page no longer counts in its address.
    const request = latest.current;
    void next.run({ ...params, cursor }).then((page) => {
      if (!page) return;
      setPaged((previous) => ({ base, result: merge(previous?.base === base && previous.result ? previous.result : base, page) }));
      const at = shown.current;
      if (!mounted.current || at === undefined || request !== latest.current) return;
      shown.current = { ...at, pages: at.pages + 1 };
      replaceRoute(pagesHref(JSON.parse(key) as SearchFilters, at.pages + 1));
    });
  };
  // Once More matches added a page, the first ones are no longer all that is shown: the cap's note is done.
  const capped = current && paged.result ? undefined : first.capped;
  return { result, error: first.error ?? (current ? next.error : undefined), loading: first.loading || next.busy, capped, more, retry: again };
}
