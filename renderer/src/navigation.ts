import { PROJECT_KEY_SHAPE } from '../../core/api/names.js';

/**
 * The places of the panel, in navigation order, and the views reached from them. The address is
 * `#/<place>` (with `?…` for a search), `#/projects/<key>` for one project (or `#/projects/<name>`, as
 * the CLI takes a project's name), or `#/sessions/<id>` for one conversation, so a reload, the back
 * button, bookmarks and Electron's page all keep where the person was without a router. An address
 * that names none of these is a view of its own that says so.
 */
export const PLACE_IDS = ['home', 'projects', 'search', 'maintenance', 'conflicts', 'telemetry', 'settings'] as const;
export type PlaceId = (typeof PLACE_IDS)[number];

export const DEFAULT_PLACE: PlaceId = 'home';


export function isPlaceId(value: string): value is PlaceId {
  return (PLACE_IDS as readonly string[]).includes(value);
}

/** What a link's click says about where it opens. */
export type Click = Pick<MouseEvent, 'button' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

/** A plain click opens the link in this page; a middle click or one with a modifier key opens a new tab or window, and leaves this page as it is. */
export function opensHere(event: Click): boolean {
  return event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
}

/**
 * A place, or one section of it (`#/projects?section=import-history`): a link to where a thing is done
 * lands there, not at the top of the place. The section is the id of its panel (see useSectionLanding).
 */
export function placeHref(place: PlaceId, section?: string): string {
  return section === undefined ? `#/${place}` : `#/${place}?${new URLSearchParams({ section }).toString()}`;
}

/**
 * Where the address points: a place with its parameters (and one project of Projects), one
 * conversation (opened at a message), a project by its name or slug (looked up, then replaced by its
 * key's address), or nothing (`missing`: said on a view of its own, never shown as another place).
 */
export type Route =
  | { view: PlaceId; params: Record<string, string>; projectKey?: string }
  | { view: 'session'; sessionId: string; partId: string | undefined; readAt?: string }
  | { view: 'project-name'; name: string }
  | { view: 'missing'; address: string };

/** The place the navigation marks for a route: none for a conversation or an address that names nothing. */
export function placeOf(route: Route): PlaceId | undefined {
  if (route.view === 'project-name') return 'projects';
  return route.view === 'session' || route.view === 'missing' ? undefined : route.view;
}

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
    if (sessionId === undefined || sessionId === '') return undefined;
    const params = paramsOf(session[2]);
    // `?part=` was the address before the panel spoke of messages: old links open at the same place.
    const partId = params.message ?? params.part;
    // `?at=`: where the reader was (readingHref), opened there without a hit's highlight; a named message wins.
    return partId === undefined && params.at !== undefined && params.at !== '' ? { view: 'session', sessionId, partId, readAt: params.at } : { view: 'session', sessionId, partId };
  }
  const project = /^#\/projects\/([^?/]+)\/?(?:\?(.*))?$/.exec(hash);
  if (project) {
    if (PROJECT_KEY_SHAPE.test(project[1]!)) return { view: 'projects', params: paramsOf(project[2]), projectKey: project[1]! };
    const name = decoded(project[1]!);
    return name === undefined || name.trim() === '' ? undefined : { view: 'project-name', name };
  }
  const place = /^#\/([a-z-]+)\/?(?:\?(.*))?$/.exec(hash);
  return place?.[1] !== undefined && isPlaceId(place[1]) ? { view: place[1], params: paramsOf(place[2]) } : undefined;
}

/**
 * The route of the whole address: an address with no fragment (the first one, once the token has left
 * it, or Electron's page) is Home, so Back to it shows Home; a fragment that names nothing is
 * `missing`, shown as such, never as the place the panel happened to be on. Only the token's own
 * fragment (`#token=…`, which the transport takes away before anything reads the address) gives
 * undefined: the view stays as it is.
 */
export function routeFromAddress(hash: string): Route | undefined {
  if (hash === '' || hash === '#' || hash === '#/') return { view: DEFAULT_PLACE, params: {} };
  if (new URLSearchParams(hash.slice(1)).has('token')) return undefined;
  return routeFromHash(hash) ?? { view: 'missing', address: hash };
}

/** One project, as a view of its own, with the pages of its conversations shown (`?pages=…`, read as a search's: pagesFrom; none for the first). */
export function projectHref(projectKey: string, pages = 1): string {
  return pages > 1 ? `#/projects/${projectKey}?pages=${pages}` : `#/projects/${projectKey}`;
}

/** The place named by the address, or undefined when the fragment names none (a conversation is no place). */
export function placeFromHash(hash: string): PlaceId | undefined {
  const route = routeFromHash(hash);
  return route && placeOf(route);
}

/**
 * One conversation, opened at the message holding `partId` when given: a message named to the person
 * (a search hit, a link to it), shown highlighted and opened. The address says `message`, as the panel does.
 */
export function sessionHref(sessionId: string, partId?: string): string {
  return `#/sessions/${encodeURIComponent(sessionId)}${partId === undefined ? '' : `?message=${encodeURIComponent(partId)}`}`;
}

/**
 * One conversation, opened where the reader was (at the message holding `partId`): the place the viewer
 * keeps in the address as they read (`at`), not a message named to them, so nothing is highlighted.
 */
export function readingAtHref(sessionId: string, partId: string): string {
  return `#/sessions/${encodeURIComponent(sessionId)}?at=${encodeURIComponent(partId)}`;
}

/** A search with its query and filters; empty values are left out. */
export function searchHref(params: Record<string, string | undefined>): string {
  const kept = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  return kept.length === 0 ? '#/search' : `#/search?${new URLSearchParams(kept).toString()}`;
}

/**
 * Puts `href` in the address bar in place of the current address: no new history entry (Back still goes
 * to the page before), and no hashchange, so the view shown is not opened again. For where the reader is
 * within a place (a conversation's reading position), which a reload and Back return to.
 */
export function replaceAddress(href: string): void {
  if (window.location.hash !== href) window.history.replaceState(window.history.state, '', href);
}

/** Where an entry of the tab's history keeps how many of the panel's own entries come before it. */
const DEPTH = 'panelDepth';

type Entry = Pick<History, 'state' | 'replaceState'>;

/** How many of the panel's entries come before this one in the tab: 0 when the tab came to the panel on it. */
export function panelDepth(entry: Pick<History, 'state'> = window.history): number {
  const state = entry.state as Record<string, unknown> | null;
  const depth = typeof state === 'object' && state !== null ? state[DEPTH] : undefined;
  return typeof depth === 'number' ? depth : 0;
}

function stamp(entry: Entry, depth: number): void {
  const state = typeof entry.state === 'object' && entry.state !== null ? (entry.state as Record<string, unknown>) : {};
  entry.replaceState({ ...state, [DEPTH]: depth }, '');
}

/**
 * Stamps each entry the panel adds to the tab's history with its depth, one past the entry it left, so
 * Back within the panel can tell the page before is the panel's (history.length counts the pages the
 * tab showed before it too). Back and Forward land on stamped entries and keep theirs. Returns unsubscribe.
 */
export function trackPanelDepth(win: Pick<Window, 'addEventListener' | 'removeEventListener'> & { history: Entry } = window): () => void {
  let depth = panelDepth(win.history);
  if (!(typeof win.history.state === 'object' && win.history.state !== null && DEPTH in win.history.state)) stamp(win.history, depth);
  const moved = () => {
    const state = win.history.state as Record<string, unknown> | null;
    if (typeof state === 'object' && state !== null && typeof state[DEPTH] === 'number') depth = state[DEPTH];
    else stamp(win.history, (depth += 1));
  };
  win.addEventListener('hashchange', moved);
  win.addEventListener('popstate', moved);
  return () => {
    win.removeEventListener('hashchange', moved);
    win.removeEventListener('popstate', moved);
  };
}
