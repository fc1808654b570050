import { afterEach, describe, expect, it } from 'vitest';
import { routeFromHash } from '../../../renderer/src/navigation.js';
import { filterFrom, listHref } from '../../../renderer/src/places/projects/filter.js';
import { replaceRoute, usePanel } from '../../../renderer/src/store.js';

/** The few parts of `window` replaceRoute touches, recorded: the node environment has no DOM. */
function fakeWindow(hash: string) {
  const replaced: string[] = [];
  const location = { hash };
  const history = { state: null, replaceState: (_state: unknown, _title: string, href: string) => (replaced.push(href), (location.hash = href)) };
  (globalThis as { window?: unknown }).window = { location, history };
  return { replaced, location };
}

/** QA: the Projects filter was lost after Ctrl-K and Back: it was the list's own state, in no address. */
describe('the Projects filter, kept in the address', () => {
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it('is written in the list’s address and read back from it', () => {
    const href = listHref({}, 'billing api');
    expect(href).toBe('#/projects?filter=billing+api');
    const route = routeFromHash(href);
    expect(route).toEqual({ view: 'projects', params: { filter: 'billing api' } });
    expect(filterFrom(route && 'params' in route ? route.params : {})).toBe('billing api');
  });

  it('leaves the address plain when the box is emptied, and keeps a section it had', () => {
    expect(listHref({ filter: 'x' }, '')).toBe('#/projects');
    expect(listHref({ section: 'import-history' }, 'api')).toBe('#/projects?section=import-history&filter=api');
    expect(filterFrom({})).toBe('');
  });

  it('replaces the address as it is typed (no history entry per key) and is the route at once', () => {
    const { replaced, location } = fakeWindow('#/projects');
    replaceRoute(listHref({}, 'api'));
    expect(replaced).toEqual(['#/projects?filter=api']);
    expect(location.hash).toBe('#/projects?filter=api');
    expect(usePanel.getState().route).toEqual({ view: 'projects', params: { filter: 'api' } });
    expect(usePanel.getState().place).toBe('projects');
  });
});
