import type { ReactElement } from 'react';
import { Icon } from '../components/index.js';

/**
 * Shown when the page has no usable token: opened without the link's `#token=…`, or the link is from
 * an earlier run of Steward (each start makes a new token).
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
                Steward was restarted, and each start makes a new key. Open the new address that <code>steward serve</code> printed in its
                terminal.
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
          computer. If Steward is not running, start it with <code>steward serve</code>.
        </p>
      </div>
    </main>
  );
}
