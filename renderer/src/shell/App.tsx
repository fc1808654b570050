import { useEffect, type MouseEvent, type ReactElement } from 'react';
import { placeById } from '../places/registry.js';
import { usePanel } from '../store.js';
import { Nav } from './Nav.js';
import { NoToken } from './NoToken.js';
import { StatusBar } from './StatusBar.js';

function skipToMain(event: MouseEvent<HTMLAnchorElement>): void {
  // The fragment names places, so the skip link moves focus itself instead of changing the address.
  event.preventDefault();
  document.getElementById('main')?.focus();
}

export function App(): ReactElement {
  const connection = usePanel((state) => state.connection);
  const placeId = usePanel((state) => state.place);
  const version = usePanel((state) => state.info?.version);
  const place = placeById(placeId);

  useEffect(() => {
    document.title = `${place.label} · Steward`;
  }, [place.label]);

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
        <main className="main" id="main" tabIndex={-1} data-place={place.id}>
          <div className="main__inner">
            <Component key={place.id} />
          </div>
        </main>
      </div>
      <StatusBar />
    </div>
  );
}
