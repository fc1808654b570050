import { create } from 'zustand';
import { createClient, type AppInfo, type AppStatus, type StewardClient } from './client.js';
import { DEFAULT_PLACE, placeHref, placeOf, replaceAddress, routeFromAddress, type PlaceId, type Route } from './navigation.js';
import type { ConnectionState, TransportChoice } from './transport.js';

export type Connection = ConnectionState | 'no-token';

export interface PanelState {
  client: StewardClient | undefined;
  transportKind: 'bridge' | 'http' | undefined;
  connection: Connection;
  /** `App.Info` as last fetched (on start and after every reconnect). */
  info: AppInfo | undefined;
  /** When `info` arrived, so its uptime can keep counting on the panel's clock. */
  infoAt: number | undefined;
  infoError: string | undefined;
  /** From `App.Info`, then kept current by the `app.status` event. */
  status: AppStatus | undefined;
  /** The last place shown; a conversation (or an address that names nothing) keeps the place it was reached from. */
  place: PlaceId;
  route: Route;
  /** Bumped by `/` and Ctrl/Cmd-K: the search box takes the focus when it changes. */
  searchFocus: number;
  /** Set while the view shown says a conversation or project is not in Steward, so the window title says "Not found". */
  notFound: boolean;
  /** What the view shown is called while it shows it (a conversation's name, a project's, a search's words), for the window title (see viewName). */
  viewTitle: string | undefined;
}

export const usePanel = create<PanelState>()(() => ({
  client: undefined,
  transportKind: undefined,
  connection: 'connecting',
  info: undefined,
  infoAt: undefined,
  infoError: undefined,
  status: undefined,
  place: DEFAULT_PLACE,
  route: { view: DEFAULT_PLACE, params: {} },
  searchFocus: 0,
  notFound: false,
  viewTitle: undefined,
}));

/** Bumped by every `app.status` event, so an older `App.Info` reply never overwrites a newer status. */
let statusSeq = 0;

export async function refreshInfo(): Promise<void> {
  const { client } = usePanel.getState();
  if (!client) return;
  const seqAtCall = statusSeq;
  try {
    const info = await client.call('App.Info', {});
    const infoAt = Date.now();
    usePanel.setState(seqAtCall === statusSeq ? { info, infoAt, infoError: undefined, status: info.status } : { info, infoAt, infoError: undefined });
  } catch (error) {
    usePanel.setState({ infoError: error instanceof Error ? error.message : 'Steward did not answer.' });
  }
}

/** A status the panel received in a reply (App.SetPaused): newer than any App.Info still on its way. */
export function acceptStatus(status: AppStatus): void {
  statusSeq += 1;
  usePanel.setState({ status });
}

/**
 * Follows the address: `#/telemetry` shows Telemetry, `#/sessions/<id>` a conversation, no fragment at
 * all Home (Back to the first address), and a fragment that names nothing says so (see routeFromAddress).
 */
export function syncPlaceWithLocation(): () => void {
  const apply = () => {
    const route = routeFromAddress(window.location.hash);
    if (route === undefined) return;
    const place = placeOf(route);
    usePanel.setState(place === undefined ? { route } : { route, place });
  };
  apply();
  window.addEventListener('hashchange', apply);
  window.addEventListener('popstate', apply);
  return () => {
    window.removeEventListener('hashchange', apply);
    window.removeEventListener('popstate', apply);
  };
}

/**
 * Puts `href` in the address in place of the current one (no new history entry: Back still goes to the
 * page before) and makes it the route at once, as the address bar's own change would: for state a view
 * keeps in its address as the person changes it (the Projects filter, the search pages shown), so a
 * reload, Back from elsewhere and the view itself all read the same address.
 */
export function replaceRoute(href: string): void {
  replaceAddress(href);
  const route = routeFromAddress(href);
  if (route === undefined) return;
  const place = placeOf(route);
  usePanel.setState(place === undefined ? { route } : { route, place });
}

/** Wires the chosen transport into the store: the status event, the connection state, App.Info. */
export function connect(choice: TransportChoice): () => void {
  if (choice.kind === 'no-token') {
    usePanel.setState({ connection: 'no-token' });
    return () => undefined;
  }
  const { transport } = choice;
  const client = createClient(transport);
  usePanel.setState({ client, transportKind: transport.kind });
  const offStatus = client.on('app.status', (status) => {
    statusSeq += 1;
    usePanel.setState({ status });
  });
  let asked = false;
  const offConnection = transport.onConnection((connection) => {
    usePanel.setState({ connection });
    // Whatever changed before the stream opened (the first App.Info can be answered before it, and
    // an event sent in between is heard by no one) or while it was down is caught up by asking again.
    if (connection !== 'open') return;
    asked = true;
    void refreshInfo();
  });
  // Over the bridge the connection is open at once and has asked already; over HTTP, ask now.
  if (!asked) void refreshInfo();
  return () => {
    offStatus();
    offConnection();
  };
}

/** `/` or Ctrl/Cmd-K from anywhere: the Search place, its box focused (its query kept). */
export function focusSearch(): void {
  const { route } = usePanel.getState();
  if (route.view !== 'search') window.location.hash = placeHref('search');
  usePanel.setState((state) => ({ searchFocus: state.searchFocus + 1 }));
}
