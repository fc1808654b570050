import { useEffect, type MouseEvent, type ReactElement } from 'react';
import { placeById } from '../places/registry.js';
import { usePanel } from '../store.js';
import { Nav } from './Nav.js';
import { NoToken } from './NoToken.js';
import { StatusBar } from './StatusBar.js';
import { shownState, windowTitle } from './status.js';

function skipToMain(event: MouseEvent<HTMLAnchorElement>): void {
  // The fragment names places, so the skip link moves focus itself instead of changing the address.
  event.preventDefault();
  document.getElementById('main')?.focus();
}

export function App(): ReactElement {
  const connection = usePanel((state) => state.connection);
  const placeId = usePanel((state) => state.place);
  const version = usePanel((state) => state.info?.version);
  const shown = usePanel((state) => shownState(state.status, state.connection));
  const place = placeById(placeId);

  // The window title (and the app's title bar) carries the state in a word, as the tray does.
  useEffect(() => {
    document.title = windowTitle(place.label, shown);
  }, [place.label, shown]);

  if (connection === 'no-token' || connection === 'unauthorized') return <NoToken expired={connection === 'unauthorized'} />;

  const { Component } = place;
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
        <main className="main" id="main" tabIndex={-1} data-place={place.id} data-stale={shown === 'disconnected' ? 'true' : undefined}>
          <div className="main__inner">
            <Component key={place.id} />
          </div>
        </main>
      </div>
      <StatusBar />
    </div>
  );
}
