import { describe, expect, it } from 'vitest';
import type { Params, Result } from '../../../core/api/index.js';
import { projectHref, readingAtHref, routeFromHash, sessionHref } from '../../../renderer/src/navigation.js';
import { cappedWords, loadProjectPages, PAGE_SIZE } from '../../../renderer/src/places/projects/pages.js';
import { MAX_PAGES, pagesFrom } from '../../../renderer/src/places/search/filters.js';
import { positionLanding } from '../../../renderer/src/places/sessions/SessionPage.js';
import { titleCut, viewName, windowTitle } from '../../../renderer/src/shell/status.js';

type List = Result<'Sessions.List'>;
const KEY = 'p_0123456789abcdef';

/** An owner with `total` conversations of the project, 25 a page, its cursor the next one's index: the calls are recorded. */
function owner(total: number) {
  const calls: Array<string | undefined> = [];
  const call = (params: Params<'Sessions.List'>): Promise<List> => {
    calls.push(params.cursor);
    const from = params.cursor === undefined ? 0 : Number(params.cursor);
    const to = Math.min(total, from + (params.limit ?? PAGE_SIZE));
    const sessions = Array.from({ length: to - from }, (_, i) => ({ sessionId: `s${from + i}` }));
    return Promise.resolve({ sessions, ...(to < total ? { cursor: String(to) } : {}) } as unknown as List);
  };
  return { call, calls };
}
const PARAMS: Params<'Sessions.List'> = { projectKey: KEY, limit: PAGE_SIZE, redact: true };

/** QA: a project's conversations paged with More conversations were in no address: Back from the oldest, or a reload, showed the first 25 at the top. */
describe('a project’s conversation pages, kept in the address as a search’s are', () => {
  it('says how many pages are shown beside the project (none for the first), and reads it back by the search’s rule', () => {
    expect(projectHref(KEY)).toBe(`#/projects/${KEY}`);
    expect(projectHref(KEY, 1)).toBe(`#/projects/${KEY}`);
    expect(projectHref(KEY, 8)).toBe(`#/projects/${KEY}?pages=8`);
    expect(routeFromHash(projectHref(KEY, 8))).toEqual({ view: 'projects', params: { pages: '8' }, projectKey: KEY });
    expect(routeFromHash(`#/projects/${KEY}/`)).toEqual({ view: 'projects', params: {}, projectKey: KEY });
    // Read by the search's rule.
    expect(pagesFrom((routeFromHash(projectHref(KEY, 8)) as { params: Record<string, string> }).params)).toBe(8);
  });

  it('loads the pages the address names, in order, and the next page is still there for More conversations', async () => {
    const { call, calls } = owner(180);
    const { result, pages, capped } = await loadProjectPages(call, PARAMS, 3);
    expect(pages).toBe(3);
    expect(capped).toBeUndefined();
    expect(calls).toEqual([undefined, '25', '50']);
    expect(result.sessions.map((s) => s.sessionId)).toEqual(Array.from({ length: 75 }, (_, i) => `s${i}`));
    expect(result.cursor).toBe('75');
  });

  it('stops at the last page, and at the cap however many the address names, saying so', async () => {
    const few = owner(30);
    const short = await loadProjectPages(few.call, PARAMS, 5);
    expect(short.pages).toBe(2);
    expect(short.result.cursor).toBeUndefined();
    expect(short.capped).toBeUndefined();
    const many = owner(10_000);
    const capped = await loadProjectPages(many.call, PARAMS, 40);
    expect(capped.pages).toBe(MAX_PAGES);
    expect(many.calls).toHaveLength(MAX_PAGES);
    expect(capped.capped).toBe(40);
    expect(cappedWords(40)).toBe('Showing the first 250 conversations, not the 40 pages the address asked for: a reload shows at most 10 pages. More conversations goes on from here.');
  });
});

/** QA: a reload after "Latest messages" opened the message the address kept expanded, outlined as a search hit. */
describe('a message named to the person, and the place the viewer keeps', () => {
  it('tells a reading position (`at`) from a named message (`message`, and old `part`): the named one wins', () => {
    expect(readingAtHref('s 1', 'cc:b:0')).toBe('#/sessions/s%201?at=cc%3Ab%3A0');
    expect(routeFromHash('#/sessions/s1?at=cc%3Ab%3A0')).toEqual({ view: 'session', sessionId: 's1', partId: undefined, readAt: 'cc:b:0' });
    // Old bookmarks and shared links to a message open at it, as a hit.
    expect(routeFromHash(sessionHref('s1', 'cc:b:0'))).toEqual({ view: 'session', sessionId: 's1', partId: 'cc:b:0' });
    expect(routeFromHash('#/sessions/s1?part=cc%3Ab%3A0')).toEqual({ view: 'session', sessionId: 's1', partId: 'cc:b:0' });
    expect(routeFromHash('#/sessions/s1?message=cc%3Ab%3A0&at=cc%3Ac%3A0')).toEqual({ view: 'session', sessionId: 's1', partId: 'cc:b:0' });
    expect(routeFromHash('#/sessions/s1?at=')).toEqual({ view: 'session', sessionId: 's1', partId: undefined });
  });

  it('reopened at the reader’s place, lands on the whole message holding it, or the heading when the page lacks it', () => {
    const elements: Record<string, { id: string }> = { 'message-cc:b': { id: 'message-cc:b' } };
    const heading = { id: 'h1' };
    const page = { getElementById: (id: string) => elements[id] ?? null, querySelector: () => heading } as unknown as Pick<Document, 'getElementById' | 'querySelector'>;
    const messages = [
      { messageId: 'cc:a', parts: [{ partId: 'cc:a:0' }] },
      { messageId: 'cc:b', parts: [{ partId: 'cc:b:0' }, { partId: 'cc:b:1' }] },
    ] as unknown as Parameters<typeof positionLanding>[1];
    expect(positionLanding(page, messages, 'cc:b:0')).toBe(elements['message-cc:b']);
    expect(positionLanding(page, messages, 'cc:z:0')).toBe(heading);
  });
});

/** QA: every conversation's tab was titled "Conversation · Steward". */
describe('the window title names what the view shows', () => {
  const projects = { id: 'projects', label: 'Projects' };
  const searchPlace = { id: 'search', label: 'Search' };
  const session = { view: 'session', sessionId: 's1', partId: undefined } as const;

  it('a conversation by its name, a project by its name beside the place, a search by the place alone', () => {
    expect(windowTitle(viewName(session, projects, false, 'Fix the flaky login test').label, 'idle')).toBe('Fix the flaky login test · Steward');
    expect(windowTitle(viewName({ view: 'projects', params: {}, projectKey: KEY }, projects, false, 'greenhouse').label, 'working')).toBe('greenhouse · Projects · Steward — Working');
    // A search is never titled by its words (a search for a leaked key would show the key): search/index.tsx gives no title.
    expect(windowTitle(viewName({ view: 'search', params: { q: 'frost' } }, searchPlace, false).label, 'idle')).toBe('Search · Steward');
    // Not named (yet): the place's own name, as before; a view not found says so whatever its name.
    expect(viewName(session, projects, false).label).toBe('Conversation');
    expect(viewName({ view: 'search', params: {} }, searchPlace, false, '  ').label).toBe('Search');
    expect(viewName(session, projects, true, 'Fix it').label).toBe('Not found');
  });

  it('cuts a long name at a word, on one line', () => {
    const long = 'Refactor the billing service so that invoices are generated asynchronously and retried on failure';
    const cut = titleCut(long);
    expect(cut.length).toBeLessThanOrEqual(61);
    expect(cut).toBe('Refactor the billing service so that invoices are generated…');
    expect(titleCut('Two\nlines  here')).toBe('Two lines here');
    expect(titleCut('x'.repeat(80))).toBe(`${'x'.repeat(60)}…`);
  });
});
