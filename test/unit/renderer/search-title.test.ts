import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { SearchPlace } from '../../../renderer/src/places/search/index.js';
import type * as Store from '../../../renderer/src/store.js';

/** The titles the place gives the window (useViewTitle). */
const titles: Array<string | undefined> = [];

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useViewTitle: (title: string | undefined) => titles.push(title),
  useCall: () => ({ data: undefined, error: undefined, loading: true, reload: () => undefined }),
  useAction: () => ({ run: () => Promise.resolve(undefined), busy: false, error: undefined, data: undefined, reset: () => undefined }),
  useEvent: () => undefined,
  useClient: () => undefined,
}));

/** The panel's state as the place reads it: a search's address (a server drawing reads the store's first state only). */
vi.mock('../../../renderer/src/store.js', async (importOriginal) => {
  const store = await importOriginal<typeof Store>();
  const state = { ...store.usePanel.getState(), route: { view: 'search', params: { q: 'sk-live-LEAKEDKEY1234' } }, searchFocus: 0 };
  return { ...store, usePanel: (select: (s: typeof state) => unknown) => select(state) };
});

/** Review: a search for a leaked key put the key in the tab, the taskbar and the browser's history. */
describe('the window title of a search', () => {
  it('never holds what is searched for', () => {
    renderToStaticMarkup(createElement(SearchPlace));
    expect(titles.filter((t) => t !== undefined)).toEqual([]);
  });
});
