import type { ReactElement } from 'react';
import { Button, plainText } from '../components/index.js';
import { useAction } from '../hooks.js';
import { placeHref } from '../navigation.js';
import { acceptStatus, usePanel } from '../store.js';
import { headlineItem, shownState } from './status.js';
import './status-bar.css';

/**
 * The one line that always says what Steward is doing, fed by `app.status`: a dot in the state's
 * colour, the headline (a link to where its matter is dealt with), then every other fact once. When
 * the stream drops, the last status is stale, so the bar says disconnected instead. Only the text is a
 * live region, so screen readers hear changes without the buttons being re-read.
 */
export function StatusBar(): ReactElement {
  const status = usePanel((state) => state.status);
  const connection = usePanel((state) => state.connection);
  const infoError = usePanel((state) => state.infoError);
  const pause = useAction('App.SetPaused');
  const shown = shownState(status, connection);
  const live = shown !== 'disconnected' && status !== undefined ? status : undefined;
  const item = live ? headlineItem(live) : undefined;

  const toggle = () => status && void pause.run({ paused: !status.paused }).then((reply) => reply && acceptStatus(reply.status));

  const message = live ? plainText(live.message) : (shown === 'disconnected' ? 'Disconnected — reconnecting to Steward…' : (infoError ?? 'Connecting to Steward…'));
  return (
    <footer className="status-bar" data-testid="status-bar" data-state={shown} data-paused={live?.paused ? 'true' : 'false'} data-connection={connection}>
      <div className="status-bar__live" role="status" aria-live="polite" aria-atomic="true">
        <span className={`status-dot status-dot--${shown}`} aria-hidden="true" />
        <span className="status-bar__message" data-testid="status-message">
          {item?.place ? (
            <a className="status-bar__link" href={placeHref(item.place)}>
              {message}
            </a>
          ) : (
            message
          )}
        </span>
        {live !== undefined && live.details.length > 0 && (
          <span className="status-bar__more" data-testid="status-more">
            {live.details.map(plainText).join(' · ')}
          </span>
        )}
        {pause.error && <span className="status-bar__connection">Could not change pause: {pause.error.message}</span>}
      </div>
      {status !== undefined && (
        <Button variant="quiet" className="status-bar__toggle" icon={status.paused ? 'play' : 'pause'} onClick={toggle} disabled={pause.busy || shown === 'disconnected'}>
          {status.paused ? 'Resume' : 'Pause'}
        </Button>
      )}
    </footer>
  );
}
