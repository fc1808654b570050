import { describe, expect, it } from 'vitest';
import { projectsNamed } from '../../../core/api/names.js';
import { DEFAULT_PLACE, PLACE_IDS, placeFromHash, placeHref, placeOf, projectHref, routeFromAddress, routeFromHash, searchHref, sessionHref } from '../../../renderer/src/navigation.js';

describe('panel navigation by fragment', () => {
  it('round-trips every place through its address', () => {
    for (const place of PLACE_IDS) expect(placeFromHash(placeHref(place))).toBe(place);
  });

  it('ignores fragments that name no place, including the token fragment', () => {
    for (const hash of ['', '#', '#token=abc', '#/nowhere', '#projects', '#/projects/%E0%A4%A', '#/sessions/', '#/sessions/%E0%A4%A']) expect(routeFromHash(hash)).toBeUndefined();
    expect(PLACE_IDS).toContain(DEFAULT_PLACE);
  });

  it('reads an address with no fragment as Home, one that names nothing as missing, and anything else as its fragment does', () => {
    for (const hash of ['', '#', '#/']) expect(routeFromAddress(hash)).toEqual({ view: DEFAULT_PLACE, params: {} });
    expect(routeFromAddress('#/projects')).toEqual({ view: 'projects', params: {} });
    for (const hash of ['#/nowhere', '#projects', '#/projects/p_0123456789abcdef/notes', '#/projects/../settings', '#/sessions/', '#/settings/extra'])
      expect(routeFromAddress(hash), hash).toEqual({ view: 'missing', address: hash });
    expect(placeOf({ view: 'missing', address: '#/nowhere' })).toBeUndefined();
    // The token's own fragment is the transport's: the view stays as it is.
    expect(routeFromAddress('#token=abc')).toBeUndefined();
  });

  it('has the seven places in navigation order, Home first and the default', () => {
    expect(PLACE_IDS).toEqual(['home', 'projects', 'search', 'maintenance', 'conflicts', 'telemetry', 'settings']);
    expect(DEFAULT_PLACE).toBe('home');
  });

  it('gives each project its own address; anything else after #/projects/ is a project named by its name', () => {
    const key = 'p_0123456789abcdef';
    expect(projectHref(key)).toBe('#/projects/p_0123456789abcdef');
    expect(routeFromHash(projectHref(key))).toEqual({ view: 'projects', params: {}, projectKey: key });
    expect(placeFromHash(projectHref(key))).toBe('projects');
    expect(routeFromHash('#/projects/orchard')).toEqual({ view: 'project-name', name: 'orchard' });
    expect(routeFromHash('#/projects/my%20orchard')).toEqual({ view: 'project-name', name: 'my orchard' });
    expect(routeFromHash('#/projects/p_0123')).toEqual({ view: 'project-name', name: 'p_0123' });
    expect(placeFromHash('#/projects/orchard')).toBe('projects');
    for (const hash of ['#/projects/p_0123456789abcdef/notes', '#/projects/../settings']) expect(routeFromHash(hash)).toBeUndefined();
  });

  it('finds a project by its name as the CLI does: a key, the exact name, the name in any case, or the notes folder slug', () => {
    const projects = [
      { projectKey: 'p_0123456789abcdef', name: 'orchard' },
      { projectKey: 'p_fedcba9876543210', name: 'Orchard-Weather' },
      { projectKey: 'p_aaaaaaaa00000000', name: 'seeds' },
      { projectKey: 'p_bbbbbbbb00000000', name: 'seeds' },
    ];
    expect(projectsNamed('orchard', projects)).toEqual(['p_0123456789abcdef']);
    expect(projectsNamed('orchard-weather', projects)).toEqual(['p_fedcba9876543210']);
    expect(projectsNamed('anything-aaaaaaaa', projects)).toEqual(['p_aaaaaaaa00000000']);
    expect(projectsNamed('p_1111111111111111', projects)).toEqual(['p_1111111111111111']);
    expect(projectsNamed('nowhere', projects)).toEqual([]);
    expect(projectsNamed('ORCHARD', projects)).toEqual(['p_0123456789abcdef']);
    expect(projectsNamed('seeds', projects)).toEqual(['p_aaaaaaaa00000000', 'p_bbbbbbbb00000000']);
    expect(projectsNamed('seeds-bbbbbbbb', projects)).toEqual(['p_bbbbbbbb00000000']);
    expect(projectsNamed('p_nope', projects)).toEqual([]);
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

  it('says `message` in a conversation’s address, as the panel does, and still opens old `?part=` links at the same place', () => {
    const id = 'long-1';
    expect(sessionHref(id, 'cc:uuid:2')).toBe('#/sessions/long-1?message=cc%3Auuid%3A2');
    expect(routeFromHash('#/sessions/long-1?part=cc%3Auuid%3A2')).toEqual({ view: 'session', sessionId: id, partId: 'cc:uuid:2' });
    expect(routeFromHash('#/sessions/long-1?message=cc%3Auuid%3A2&part=other')).toEqual({ view: 'session', sessionId: id, partId: 'cc:uuid:2' });
  });
});
