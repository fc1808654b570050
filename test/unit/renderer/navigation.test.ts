import { describe, expect, it } from 'vitest';
import { DEFAULT_PLACE, PLACE_IDS, placeFromHash, placeHref, projectHref, routeFromAddress, routeFromHash, searchHref, sessionHref } from '../../../renderer/src/navigation.js';

describe('panel navigation by fragment', () => {
  it('round-trips every place through its address', () => {
    for (const place of PLACE_IDS) expect(placeFromHash(placeHref(place))).toBe(place);
  });

  it('ignores fragments that name no place, including the token fragment', () => {
    for (const hash of ['', '#', '#token=abc', '#/nowhere', '#projects', '#/projects/extra', '#/sessions/', '#/sessions/%E0%A4%A']) expect(routeFromHash(hash)).toBeUndefined();
    expect(PLACE_IDS).toContain(DEFAULT_PLACE);
  });

  it('reads an address with no fragment as Home, and anything else as its fragment does', () => {
    for (const hash of ['', '#', '#/']) expect(routeFromAddress(hash)).toEqual({ view: DEFAULT_PLACE, params: {} });
    expect(routeFromAddress('#/projects')).toEqual({ view: 'projects', params: {} });
    for (const hash of ['#token=abc', '#/nowhere']) expect(routeFromAddress(hash)).toBeUndefined();
  });

  it('has the seven places in navigation order, Home first and the default', () => {
    expect(PLACE_IDS).toEqual(['home', 'projects', 'search', 'maintenance', 'conflicts', 'telemetry', 'settings']);
    expect(DEFAULT_PLACE).toBe('home');
  });

  it('gives each project its own address; anything else after #/projects/ names nothing', () => {
    const key = 'p_0123456789abcdef';
    expect(projectHref(key)).toBe('#/projects/p_0123456789abcdef');
    expect(routeFromHash(projectHref(key))).toEqual({ view: 'projects', params: {}, projectKey: key });
    expect(placeFromHash(projectHref(key))).toBe('projects');
    for (const hash of ['#/projects/p_0123', '#/projects/P_0123456789ABCDEF', '#/projects/p_0123456789abcdef/notes', '#/projects/../settings']) expect(routeFromHash(hash)).toBeUndefined();
  });

  it('keeps a search’s query and filters in the address', () => {
    const href = searchHref({ q: 'parseConfig "first frost"', kind: 'tool_use', role: undefined, sort: '' });
    expect(href).toBe('#/search?q=parseConfig+%22first+frost%22&kind=tool_use');
    expect(routeFromHash(href)).toEqual({ view: 'search', params: { q: 'parseConfig "first frost"', kind: 'tool_use' } });
    expect(placeFromHash(href)).toBe('search');
    expect(searchHref({})).toBe('#/search');
  });

  it('gives each conversation its own address, opened at a part when asked', () => {
    const id = '3f2b9c1e-7a4d:agent-a1 b/2';
    expect(routeFromHash(sessionHref(id))).toEqual({ view: 'session', sessionId: id, partId: undefined });
    expect(routeFromHash(sessionHref(id, 'cc:uuid:2'))).toEqual({ view: 'session', sessionId: id, partId: 'cc:uuid:2' });
    expect(placeFromHash(sessionHref(id))).toBeUndefined();
  });
});
