import { useEffect, useRef, useState } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { countOf } from '../../components/index.js';
import { useAction, useClient, useEvent, useMounted } from '../../hooks.js';
import { projectHref } from '../../navigation.js';
import { replaceRoute } from '../../store.js';
// One rule for a paged list's address, the search's: how many pages `pages=` says, and the most a reload loads.
import { MAX_PAGES } from '../search/filters.js';

type List = Result<'Sessions.List'>;
type ListParams = Params<'Sessions.List'>;

/** Conversations a page of a project's list holds. */
export const PAGE_SIZE = 25;

/** A further page after what is shown: its conversations after the others, its cursor onward. */
function joined(shown: List, page: List): List {
  return { sessions: [...shown.sessions, ...page.sessions], ...(page.cursor ? { cursor: page.cursor } : {}) };
}

/**
 * The first `pages` pages of a project's conversations (at most MAX_PAGES, and no further than its
 * last), joined as More conversations joins them: what a reload or Back shows of a list whose address
 * says `pages=…`. `capped`: the pages the address named when the cap held some back (conversations are
 * left past the last page loaded), so the person is told.
 */
export async function loadProjectPages(call: (params: ListParams) => Promise<List>, params: ListParams, pages: number): Promise<{ result: List; pages: number; capped?: number }> {
  let result = await call(params);
  let loaded = 1;
  for (; loaded < Math.min(pages, MAX_PAGES) && result.cursor; loaded++) result = joined(result, await call({ ...params, cursor: result.cursor }));
  return { result, pages: loaded, ...(pages > loaded && result.cursor ? { capped: pages } : {}) };
}

/** What the list says when a reload loaded fewer pages than the address named (the cap). */
export function cappedWords(asked: number): string {
  return `Showing the first ${countOf(MAX_PAGES * PAGE_SIZE, 'conversation')}, not the ${asked} pages the address asked for: a reload shows at most ${MAX_PAGES} pages. More conversations goes on from here.`;
}

/** A page of the project's list: titles with secrets redacted (a list is read on a shared screen too; the conversation's page can show them). */
const listParams = (projectKey: string): ListParams => ({ projectKey, limit: PAGE_SIZE, redact: true });

export interface ProjectPages {
  /** The conversations shown, with the cursor to the next page; undefined until the first answer. */
  list: List | undefined;
  error: Error | undefined;
  /** The pages the address named, when a reload loaded fewer (see loadProjectPages). */
  capped: number | undefined;
  /** Loading what the address names (after a check or a forget too); More conversations is `busy`. */
  loading: boolean;
  busy: boolean;
  /** Adds the next page; resolves with it once shown (undefined when it failed or there is none). */
  more: () => Promise<List | undefined>;
  retry: () => void;
}

/**
 * A project's conversations, as many pages as the address says (`pages`, read by the search's pagesFrom): `more` adds
 * the next page and puts the pages shown in the address (replaced: no history entry per page), so a
 * reload and Back show them again. A check or a forget asks again for as many pages as are shown.
 * Older answers never overwrite newer ones.
 */
export function useProjectPages(projectKey: string, pages: number): ProjectPages {
  const client = useClient();
  const [state, setState] = useState<{ list: List | undefined; error: Error | undefined; loading: boolean; capped?: number }>({ list: undefined, error: undefined, loading: true });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  // The pages shown: the address catching up with More conversations asks for nothing.
  const shown = useRef<{ generation: number; pages: number }>(undefined);
  // An answer that comes once the project is no longer shown must not write its pages over another place's address.
  const mounted = useMounted();
  useEffect(() => {
    if (!client) return;
    const at = shown.current;
    if (at?.generation === generation && at.pages === pages) return;
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    loadProjectPages((p) => client.call('Sessions.List', p), listParams(projectKey), pages).then(
      (loaded) => {
        if (request !== latest.current) return;
        shown.current = { generation, pages: loaded.pages };
        setState({ list: loaded.result, error: undefined, loading: false, capped: loaded.capped });
        // Fewer pages than the address said (the cap, or fewer conversations now): the address says what is shown.
        if (loaded.pages !== pages && mounted.current) replaceRoute(projectHref(projectKey, loaded.pages));
      },
      (error: unknown) => request === latest.current && setState((previous) => ({ ...previous, error: error instanceof Error ? error : new Error('The request failed.'), loading: false })),
    );
  }, [client, projectKey, pages, generation]);
  const again = () => setGeneration((n) => n + 1);
  useEvent('sweep.tick', again);
  useEvent('history.changed', again);

  const next = useAction('Sessions.List');
  const more = async (): Promise<List | undefined> => {
    const base = state.list;
    const cursor = base?.cursor;
    if (!base || !cursor || next.busy) return undefined;
    // Asked again meanwhile (a check, a forget): this page continues a list no longer shown.
    const request = latest.current;
    const page = await next.run({ ...listParams(projectKey), cursor });
    if (!page || request !== latest.current) return undefined;
    setState((previous) => (previous.list === base ? { ...previous, list: joined(base, page), capped: undefined } : previous));
    const at = shown.current;
    if (mounted.current && at !== undefined) {
      shown.current = { ...at, pages: at.pages + 1 };
      replaceRoute(projectHref(projectKey, at.pages + 1));
    }
    return page;
  };
  const retry = () => {
    next.reset();
    again();
  };
  return { list: state.list, error: state.error ?? next.error, capped: state.capped, loading: state.loading, busy: next.busy, more, retry };
}
