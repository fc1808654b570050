import type { MouseEvent, ReactElement } from 'react';
import { Icon } from '../components/index.js';
import { opensHere, placeHref, placeOf } from '../navigation.js';
import { PLACES } from '../places/registry.js';
import { usePanel } from '../store.js';
import { landOnPlace, placeChosen } from './focus.js';

/**
 * A place chosen here takes the focus to its page's heading once it is shown (App); a choice of the
 * address already shown changes no route, so it goes to its top with its heading focused at once (landOnPlace). Either way
 * Shift+Tab from that heading comes back to the link chosen. A click that opens a new tab or window moves nothing here.
 */
function choose(event: MouseEvent<HTMLAnchorElement>): void {
  if (!opensHere(event)) return;
  const link = event.currentTarget;
  const main = document.getElementById('main');
  if (link.getAttribute('href') === window.location.hash && main) landOnPlace(main, window, link);
  else placeChosen(link);
}

/** Plain links to `#/<place>`: Tab/Enter work everywhere, and the address always names the place. */
export function Nav(): ReactElement {
  // A conversation is no place of its own, nor is an address that names nothing: nothing is marked then.
  const current = usePanel((state) => placeOf(state.route));
  return (
    <nav className="nav" aria-label="Places">
      <ul className="nav__list">
        {PLACES.map((place) => (
          <li key={place.id}>
            <a className="nav__link" href={placeHref(place.id)} aria-current={place.id === current ? 'page' : undefined} data-place={place.id} onClick={choose}>
              <Icon name={place.icon} className="nav__icon" />
              <span>{place.label}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
