import { useEffect, type MouseEvent, type ReactElement } from 'react';
import { landOnSection } from '../../hooks.js';
import { opensHere, placeHref } from '../../navigation.js';
import { usePanel } from '../../store.js';
import { SECTION_LIST } from './sections.js';

/**
 * Followed when the address already names the section (the person scrolled away from it): the address
 * does not change, so no route does, and the page lands on it itself.
 */
function landAgain(event: MouseEvent<HTMLAnchorElement>, id: string): void {
  if (!opensHere(event) || window.location.hash !== event.currentTarget.getAttribute('href')) return;
  event.preventDefault();
  landOnSection(id);
}

/**
 * Back or Forward to a section's address: the route, read at popstate, lands on the section, and then
 * Chromium puts back the scroll it kept for that entry, which is the top (the panel replaces each entry
 * to mark its depth, trackPanelDepth). The hashchange that follows comes after that: the page lands on
 * the section again then.
 */
function useLandingAfterTraversal(): void {
  useEffect(() => {
    const again = () => {
      const { route } = usePanel.getState();
      if (route.view === 'settings' && route.params.section !== undefined) landOnSection(route.params.section);
    };
    window.addEventListener('hashchange', again);
    return () => window.removeEventListener('hashchange', again);
  }, []);
}

/**
 * The sections of Settings, at the top of its long page: each link goes to the section's own address
 * (`#/settings?section=…`), so Back, a reload and a bookmark keep it, and lands on its heading
 * (useSectionLanding). `configRead`: the sections drawn once config.json is read are there to link to.
 */
export function SettingsSections({ configRead }: { configRead: boolean }): ReactElement {
  useLandingAfterTraversal();
  const shown = SECTION_LIST.filter((section) => configRead || !section.needsConfig);
  return (
    <nav className="settings-sections" aria-label="Settings sections">
      <ul className="settings-sections__list">
        {shown.map((section) => (
          <li key={section.id}>
            <a href={placeHref('settings', section.id)} onClick={(event) => landAgain(event, section.id)}>
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
