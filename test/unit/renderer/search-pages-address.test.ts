import { describe, expect, it } from 'vitest';
import type { Params, Result } from '../../../core/api/index.js';
import { routeFromHash } from '../../../renderer/src/navigation.js';
import { filtersFrom, MAX_PAGES, pagesFrom, pagesHref } from '../../../renderer/src/places/search/filters.js';
import { loadPages } from '../../../renderer/src/places/search/useSearch.js';

type SearchResult = Result<'Search.Query'>;

/** An owner with `total` hits, 20 a page, its cursor the next hit's index: the calls are recorded. */
function owner(total: number) {
  const calls: Array<string | undefined> = [];
  const call = (params: Params<'Search.Query'>): Promise<SearchResult> => {
    calls.push(params.cursor);
    const from = params.cursor === undefined ? 0 : Number(params.cursor);
    const to = Math.min(total, from + 20);
    const hits = Array.from({ length: to - from }, (_, i) => ({ partId: `p${from + i}`, sessionId: `s${Math.floor((from + i) / 7)}` }));
    const sessions = [...new Set(hits.map((h) => h.sessionId))].map((sessionId) => ({ sessionId }));
    return Promise.resolve({ hits, sessions, ...(to < total ? { cursor: String(to) } : {}) } as unknown as SearchResult);
  };
  return { call, calls };
}
const PARAMS = { query: 'frost', limit: 20 } as Params<'Search.Query'>;

/** QA: matches loaded with More matches were in no address: a reload, or Back from a conversation, showed the first page. */
describe('the search pages shown, kept in the address', () => {
  it('says how many pages are shown beside the search (none for the first), and reads it back', () => {
    const filters = filtersFrom({ q: 'frost', who: 'me' });
    expect(pagesHref(filters, 1)).toBe('#/search?q=frost&who=me');
    const href = pagesHref(filters, 3);
    expect(href).toBe('#/search?q=frost&who=me&pages=3');
    const route = routeFromHash(href);
    const params = route && 'params' in route ? route.params : {};
    expect(pagesFrom(params)).toBe(3);
    // The pages are no filter: the search is the same one.
    expect(filtersFrom(params)).toEqual(filters);
  });

  it('reads a missing or nonsense count as the first page', () => {
    for (const pages of [undefined, '', '0', '-2', 'two', '1.5']) expect(pagesFrom(pages === undefined ? {} : { pages }), String(pages)).toBe(1);
  });

  it('loads up to the pages the address names, merged in order with each conversation once', async () => {
    const { call, calls } = owner(70);
    const { result, pages } = await loadPages(call, PARAMS, 3);
    expect(pages).toBe(3);
    expect(calls).toEqual([undefined, '20', '40']);
    expect(result.hits.map((h) => h.partId)).toEqual(Array.from({ length: 60 }, (_, i) => `p${i}`));
    expect(new Set(result.sessions.map((s) => s.sessionId)).size).toBe(result.sessions.length);
    // The next page is still there for More matches.
    expect(result.cursor).toBe('60');
  });

  it('stops at the last page, and at the cap however many the address names', async () => {
    const few = owner(30);
    expect((await loadPages(few.call, PARAMS, 5)).pages).toBe(2);
    expect(few.calls).toEqual([undefined, '20']);
    const many = owner(10_000);
    expect((await loadPages(many.call, PARAMS, 500)).pages).toBe(MAX_PAGES);
    expect(many.calls).toHaveLength(MAX_PAGES);
  });
});
