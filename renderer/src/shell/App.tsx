import { useEffect, type MouseEvent, type ReactElement } from 'react';
import type { Route } from '../navigation.js';
import { NotFound, ProjectByName } from '../places/not-found/index.js';
import { placeById, type PlaceDefinition } from '../places/registry.js';
import { SessionViewer } from '../places/sessions/index.js';
import { focusSearch, usePanel } from '../store.js';
import { landOnPlace, takePlaceChosen } from './focus.js';
import { Nav } from './Nav.js';
import { NoToken } from './NoToken.js';
import { StatusBar } from './StatusBar.js';
import { shownState, viewName, windowTitle } from './status.js';
import './shell.css';

function skipToMain(event: MouseEvent<HTMLAnchorElement>): void {
  // The fragment names places, so the skip link moves focus itself instead of changing the address.
  event.preventDefault();
  document.getElementById('main')?.focus();
}

function typingIn(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return element !== null && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

/** `/` (outside a text field) and Ctrl/Cmd-K (anywhere) go to Search with its box focused. */
function useSearchShortcut(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const chord = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typingIn(event.target);
      if (!chord && !slash) return;
      event.preventDefault();
      focusSearch();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** What `main` shows for the route: a conversation, a project named by its name, nothing found, or the place. */
function MainView({ route, place }: { route: Route; place: PlaceDefinition }): ReactElement {
  if (route.view === 'session') return <SessionViewer key={route.sessionId} sessionId={route.sessionId} partId={route.partId} readAt={route.readAt} />;
  if (route.view === 'project-name') return <ProjectByName key={route.name} name={route.name} />;
  if (route.view === 'missing') return <NotFound address={route.address} />;
  const { Component } = place;
  return <Component key={place.id} />;
}

export function App(): ReactElement {
  const connection = usePanel((state) => state.connection);
  const placeId = usePanel((state) => state.place);
  const route = usePanel((state) => state.route);
  const version = usePanel((state) => state.info?.version);
  const shown = usePanel((state) => shownState(state.status, state.connection));
  const notFound = usePanel((state) => state.notFound);
  const place = placeById(placeId);
  const viewTitle = usePanel((state) => state.viewTitle);
  const view = viewName(route, place, notFound, viewTitle);
  useSearchShortcut();

  // A place chosen in the side menu: once its view is shown, it is at its top with its heading focused (never on the first load).
  useEffect(() => {
    const main = document.getElementById('main');
    const from = takePlaceChosen();
    if (from && main) landOnPlace(main, window, from);
  }, [route]);

  // The window title (and the app's title bar) carries the state in a word, as the tray does.
  useEffect(() => {
    document.title = windowTitle(view.label, shown);
  }, [view.label, shown]);

  if (connection === 'no-token' || connection === 'unauthorized') return <NoToken expired={connection === 'unauthorized'} />;

  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      <div className="app__body">
        <aside className="sidebar">
          <div className="brand">
            <span className="brand__mark" aria-hidden="true">S</span>
            <span className="brand__name">Steward</span>
          </div>
          <Nav />
          {version !== undefined && <p className="sidebar__version">Version {version}</p>}
        </aside>
        <main className="main" id="main" tabIndex={-1} data-place={view.id} data-stale={shown === 'disconnected' ? 'true' : undefined}>
          <div className="main__inner">
            <MainView route={route} place={place} />
          </div>
        </main>
      </div>
      <StatusBar />
    </div>
  );
}
