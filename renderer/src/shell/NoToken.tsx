import { useEffect, type ReactElement } from 'react';
import { Icon } from '../components/index.js';
import { onTokenStored } from '../transport.js';
import './no-token.css';

/** Where `steward serve` listens unless told otherwise: the example for a page with no web address of its own. */
const DEFAULT_ORIGIN = 'http://127.0.0.1:47470';

/**
 * The private link as this page's own address would have it: Steward may listen on another port
 * (`--port`, or the next free one), and the person compares the example with what `steward serve` printed.
 */
export function linkExample(origin: string): string {
  return `${/^https?:\/\//.test(origin) ? origin : DEFAULT_ORIGIN}/#token=…`;
}

/**
 * Shown when the page is not let in. `expired`: the token it held (the link's, or the one this browser
 * kept) was refused: replaced by `steward token rotate`, another Steward's, or a link copied short. Otherwise the page came
 * without the link's token (a bookmark, a new tab, a typed address) in a browser that has kept none for
 * this address: either way `steward open` is the way in. A restart keeps the token.
 */
export function NoToken({ expired, origin = window.location.origin }: { expired: boolean; origin?: string }): ReactElement {
  // Once `steward open` has let this browser in from another tab, this one opens on the place its
  // address still names (the fragment is kept), without the person finding it again.
  useEffect(() => onTokenStored(() => window.location.reload()), []);
  return (
    <main className="gate" id="main">
      <div className="gate__card" data-testid="no-token">
        <div className="gate__icon">
          <Icon name="key" />
        </div>
        <h1 className="gate__title">{expired ? 'This link is no longer valid' : 'Let this browser in with steward open'}</h1>
        {expired ? (
          <p>
            Its key was replaced (<code>steward token rotate</code>), belongs to another Steward, or was not copied whole (a terminal may wrap
            the link). <code>steward open</code> opens the current address, and <code>steward info</code> prints it.
          </p>
        ) : (
          <>
            <p>
              Steward shows your data only to a browser that has opened its private link. To get in, run this in a terminal on this computer:
            </p>
            <pre className="gate__example">
              <code>steward open</code>
            </pre>
            <p>
              It opens the control panel in your default browser and lets that browser in: from then on its bookmarks and new tabs of the
              panel open directly. If this is that browser, this page then opens by itself on the place its address names (or reload it).
            </p>
          </>
        )}
        <p className="muted">
          The private link is the address <code>steward serve</code> printed when it started (<code>{linkExample(origin)}</code>); the
          part after <code>#token=</code> is a key that keeps other websites and programs from reading your data. It never leaves this computer. If
          Steward is not running, start it with <code>steward serve</code> first.
        </p>
      </div>
    </main>
  );
}
