/**
 * The places of the panel, in navigation order, and the views reached from them. The address is
 * `#/<place>` (with `?…` for a search), `#/projects/<key>` for one project, or `#/sessions/<id>` for
 * one conversation, so a reload, the back button, bookmarks and Electron's page all keep where the
 * person was without a router.
 */
export const PLACE_IDS = ['home', 'projects', 'search', 'maintenance', 'conflicts', 'telemetry', 'settings'] as const;
export type PlaceId = (typeof PLACE_IDS)[number];

export const DEFAULT_PLACE: PlaceId = 'home';

/** A project key as the contract spells it (`p_` and 16 hex digits). */
const PROJECT_KEY = /^p_[0-9a-f]{16}$/;

export function isPlaceId(value: string): value is PlaceId {
  return (PLACE_IDS as readonly string[]).includes(value);
}

export function placeHref(place: PlaceId): string {
  return `#/${place}`;
}

/** Where the address points: a place with its parameters (and one project of Projects), or one conversation (opened at a part). */
export type Route = { view: PlaceId; params: Record<string, string>; projectKey?: string } | { view: 'session'; sessionId: string; partId: string | undefined };

function paramsOf(query: string | undefined): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(query ?? ''));
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The route the address names, or undefined when the fragment names none. */
export function routeFromHash(hash: string): Route | undefined {
  const session = /^#\/sessions\/([^?/]+)(?:\?(.*))?$/.exec(hash);
  if (session) {
    const sessionId = decoded(session[1]!);
    return sessionId === undefined || sessionId === '' ? undefined : { view: 'session', sessionId, partId: paramsOf(session[2]).part };
  }
  const project = /^#\/projects\/([^?/]+)\/?$/.exec(hash);
  if (project) return PROJECT_KEY.test(project[1]!) ? { view: 'projects', params: {}, projectKey: project[1]! } : undefined;
  const place = /^#\/([a-z-]+)\/?(?:\?(.*))?$/.exec(hash);
  return place?.[1] !== undefined && isPlaceId(place[1]) ? { view: place[1], params: paramsOf(place[2]) } : undefined;
}

/**
 * The route of the whole address: an address with no fragment (the first one, once the token has left
 * it, or Electron's page) is Home, so Back to it shows Home; a fragment that names nothing gives undefined.
 */
export function routeFromAddress(hash: string): Route | undefined {
  return hash === '' || hash === '#' || hash === '#/' ? { view: DEFAULT_PLACE, params: {} } : routeFromHash(hash);
}

/** One project, as a view of its own. */
export function projectHref(projectKey: string): string {
  return `#/projects/${projectKey}`;
}

/** The place named by the address, or undefined when the fragment names none (a conversation is no place). */
export function placeFromHash(hash: string): PlaceId | undefined {
  const route = routeFromHash(hash);
  return route && route.view !== 'session' ? route.view : undefined;
}

/** One conversation, opened at `partId` (a search hit) when given. */
export function sessionHref(sessionId: string, partId?: string): string {
  return `#/sessions/${encodeURIComponent(sessionId)}${partId === undefined ? '' : `?part=${encodeURIComponent(partId)}`}`;
}

/** A search with its query and filters; empty values are left out. */
export function searchHref(params: Record<string, string | undefined>): string {
  const kept = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  return kept.length === 0 ? '#/search' : `#/search?${new URLSearchParams(kept).toString()}`;
}
