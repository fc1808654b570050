import type { ReactElement } from 'react';
import { Icon } from '../components/index.js';
import { placeHref } from '../navigation.js';
import { PLACES } from '../places/registry.js';
import { usePanel } from '../store.js';

/** Plain links to `#/<place>`: Tab/Enter work everywhere, and the address always names the place. */
export function Nav(): ReactElement {
  // A conversation is no place of its own: nothing is marked while one is open.
  const current = usePanel((state) => (state.route.view === 'session' ? undefined : state.place));
  return (
    <nav className="nav" aria-label="Places">
      <ul className="nav__list">
        {PLACES.map((place) => (
          <li key={place.id}>
            <a className="nav__link" href={placeHref(place.id)} aria-current={place.id === current ? 'page' : undefined} data-place={place.id}>
              <Icon name={place.icon} className="nav__icon" />
              <span>{place.label}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
