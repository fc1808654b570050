import type { AppStatus, StatusItem, StatusState } from '../client.js';
import type { Route } from '../navigation.js';
import type { Connection } from '../store.js';

/** What the panel shows: the owner's state, or its own when it cannot hear the owner. */
export type ShownState = StatusState | 'disconnected' | 'unknown';

/** The state in a word, for the window title; the same word the colour means everywhere. */
export const STATE_WORDS: Record<ShownState, string> = {
  error: 'Error',
  attention: 'Needs you',
  working: 'Working',
  paused: 'Paused',
  idle: 'Up to date',
  disconnected: 'Disconnected',
  unknown: 'Connecting',
};

/** A dropped stream makes the last status stale: the panel says disconnected rather than repeat it. */
export function shownState(status: AppStatus | undefined, connection: Connection): ShownState {
  if (connection === 'reconnecting') return 'disconnected';
  return status?.state ?? 'unknown';
}

/** The most characters of a view's own name the window title shows: a tab shows about as many. */
export const TITLE_CHARS = 60;

/** A name cut for the window title: at a word near TITLE_CHARS, with an ellipsis; on one line. */
export function titleCut(name: string): string {
  const line = name.replace(/\s+/g, ' ').trim();
  if (line.length <= TITLE_CHARS) return line;
  const cut = line.slice(0, TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_CHARS * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.…-]+$/, '')}…`;
}

/**
 * What `main` is marked as (tests and styles read it) and the window title calls it: the view's own
 * name when it gave one (`title`, see useViewTitle), cut to fit a tab: a conversation by its name, a
 * project or a search by its name or words beside the place's. A conversation or project the view found
 * missing is "Not found" in the title, as an address that names nothing is.
 */
export function viewName(route: Route, place: { id: string; label: string }, notFound: boolean, title?: string): { id: string; label: string } {
  if (route.view === 'missing') return { id: 'not-found', label: 'Not found' };
  const id = route.view === 'session' ? 'session' : place.id;
  if (notFound) return { id, label: 'Not found' };
  const own = title === undefined || title.trim() === '' ? undefined : titleCut(title);
  if (route.view === 'session') return { id, label: own ?? 'Conversation' };
  return { id, label: own === undefined ? place.label : `${own} · ${place.label}` };
}

/** "Projects · Steward", plus the state in a word whenever it is not simply up to date. */
export function windowTitle(placeLabel: string, shown: ShownState): string {
  return shown === 'idle' ? `${placeLabel} · Steward` : `${placeLabel} · Steward — ${STATE_WORDS[shown]}`;
}

/** The item the headline speaks of, so the headline can lead to where it is dealt with. */
export function headlineItem(status: AppStatus): StatusItem | undefined {
  if (status.state === 'error') return status.errors[0];
  if (status.state === 'attention') return status.attention[0];
  return undefined;
}
