import { useState, type ReactElement } from 'react';
import type { AppStatus } from '../client.js';
import { Button } from '../components/index.js';
import { setPaused, usePanel, type Connection } from '../store.js';

const STATE_LABEL: Record<AppStatus['state'], string> = { idle: 'Idle', working: 'Working', error: 'Error' };
const CONNECTION_LABEL: Partial<Record<Connection, string>> = {
  reconnecting: 'Connection lost — reconnecting…',
};

/**
 * The one line that always says what Steward is doing, fed by `app.status`. Only the status text is
 * a live region, so screen readers hear changes without the buttons being re-read.
 */
export function StatusBar(): ReactElement {
  const status = usePanel((state) => state.status);
  const connection = usePanel((state) => state.connection);
  const infoError = usePanel((state) => state.infoError);
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const state = status?.state ?? 'unknown';

  const toggle = () => {
    if (!status) return;
    setPending(true);
    setFailed(false);
    setPaused(!status.paused).then(
      () => setPending(false),
      () => {
        setPending(false);
        setFailed(true);
      },
    );
  };

  return (
    <footer className="status-bar" data-testid="status-bar" data-state={state} data-paused={status?.paused ? 'true' : 'false'} data-connection={connection}>
      <div className="status-bar__live" role="status" aria-live="polite" aria-atomic="true">
        <span className={`status-dot status-dot--${state}`} aria-hidden="true" />
        <span className="status-bar__state" data-testid="status-state">{status ? STATE_LABEL[status.state] : 'Connecting'}</span>
        <span className="status-bar__message" data-testid="status-message">{status?.message ?? infoError ?? 'Waiting for Steward…'}</span>
        {status?.paused && <span className="badge badge--paused" data-testid="status-paused">Paused</span>}
        {CONNECTION_LABEL[connection] !== undefined && <span className="status-bar__connection" data-testid="status-connection">{CONNECTION_LABEL[connection]}</span>}
        {failed && <span className="status-bar__connection">Could not change pause.</span>}
      </div>
      {status !== undefined && (
        <Button variant="quiet" className="status-bar__toggle" icon={status.paused ? 'play' : 'pause'} onClick={toggle} disabled={pending}>
          {status.paused ? 'Resume' : 'Pause'}
        </Button>
      )}
    </footer>
  );
}
