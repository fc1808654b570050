import { describe, expect, it } from 'vitest';
import type { Params, Result } from '../../../core/api/index.js';
import { MAX_PAGES } from '../../../renderer/src/places/search/filters.js';
import { cappedSentence } from '../../../renderer/src/places/search/sentences.js';
import { loadPages } from '../../../renderer/src/places/search/useSearch.js';

type SearchResult = Result<'Search.Query'>;

/** An owner with `total` hits, 20 a page, its cursor the next hit's index. */
function owner(total: number) {
  return (params: Params<'Search.Query'>): Promise<SearchResult> => {
    const from = params.cursor === undefined ? 0 : Number(params.cursor);
    const to = Math.min(total, from + 20);
    const hits = Array.from({ length: to - from }, (_, i) => ({ partId: `p${from + i}`, sessionId: `s${from + i}` }));
    return Promise.resolve({ hits, sessions: hits.map((h) => ({ sessionId: h.sessionId })), ...(to < total ? { cursor: String(to) } : {}) } as unknown as SearchResult);
  };
}
const PARAMS = { query: 'frost', limit: 20 } as Params<'Search.Query'>;

/**
 * QA: after More matches past the tenth page (`pages=14` in the address), a reload showed ten pages and
 * said nothing: the matches read on pages 11 to 14 were simply gone, and the address changed under the
 * person. What is shown may be less than asked (a reload loads at most MAX_PAGES), but never silently.
 */
describe('a reload of a search whose address names more pages than a reload loads', () => {
  it('says how many pages the address named when the cap held some back', async () => {
    const loaded = await loadPages(owner(10_000), PARAMS, 14);
    expect(loaded.pages).toBe(MAX_PAGES);
    expect(loaded.capped).toBe(14);
  });

  it('says nothing was held back when the search ends at the cap, or the address names no more than it', async () => {
    expect((await loadPages(owner(20 * MAX_PAGES), PARAMS, 14)).capped).toBeUndefined();
    expect((await loadPages(owner(10_000), PARAMS, MAX_PAGES)).capped).toBeUndefined();
    expect((await loadPages(owner(30), PARAMS, 14)).capped).toBeUndefined();
  });

  it('tells the person what is shown, why, and how to go on', () => {
    expect(cappedSentence(14)).toBe(`Showing the first ${MAX_PAGES} pages of matches, not the 14 the address asked for: a reload shows at most ${MAX_PAGES}. More matches goes on from here.`);
  });
});
