import type { ReactElement } from 'react';
import { Icon } from '../components/index.js';
import './no-token.css';

/**
 * Shown when the page has no usable token: opened without the link's `#token=…`, or its token was
 * replaced (`steward token rotate`) or belongs to another Steward. A restart keeps the token.
 */
export function NoToken({ expired }: { expired: boolean }): ReactElement {
  return (
    <main className="gate" id="main">
      <div className="gate__card" data-testid="no-token">
        <div className="gate__icon">
          <Icon name="key" />
        </div>
        <h1 className="gate__title">{expired ? 'This link is no longer valid' : 'Open the control panel from its link'}</h1>
        <p>
          {expired
            ? (
              <>
                Its key was replaced (<code>steward token rotate</code>) or it belongs to another Steward. <code>steward open</code> opens the
                current address, and <code>steward info</code> prints it.
              </>
            )
            : (
              <>
                The control panel needs the private address that <code>steward serve</code> printed in its terminal when it started. It looks
                like this:
              </>
            )}
        </p>
        <pre className="gate__example">
          <code>Steward control panel: http://127.0.0.1:47470/#token=…</code>
        </pre>
        <p className="muted">
          The part after <code>#token=</code> is a key that keeps other websites and programs from reading your data. It never leaves this
          computer. If Steward is not running, start it with <code>steward serve</code>; if it is, <code>steward open</code> opens this page.
        </p>
      </div>
    </main>
  );
}
