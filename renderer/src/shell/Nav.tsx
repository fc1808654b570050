import type { ReactElement } from 'react';
import { Icon } from '../components/index.js';
import { placeHref, placeOf } from '../navigation.js';
import { PLACES } from '../places/registry.js';
import { usePanel } from '../store.js';

/** Plain links to `#/<place>`: Tab/Enter work everywhere, and the address always names the place. */
export function Nav(): ReactElement {
  // A conversation is no place of its own, nor is an address that names nothing: nothing is marked then.
  const current = usePanel((state) => placeOf(state.route));
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
