import type { ReactElement } from 'react';
import { Button, ErrorBanner } from '../../components/index.js';
import { useNow } from '../../clock.js';
import { useAction, useCall, useReloadWhile } from '../../hooks.js';
import { wipeLine } from './wipe-words.js';
import './projects.css';

/**
 * Whether forgotten text was wiped from the disk (Forget.ScrubStatus): running with how far, waiting,
 * done and when, or failed with what to do and Wipe now. Reloaded on every `forget.scrub` event, and
 * every second while a wipe is owed and has not failed (waiting for the disk sends none, nor does a failure).
 */
export function WipeStatus(): ReactElement | null {
  const status = useCall('Forget.ScrubStatus', {}, { refreshOn: ['forget.scrub', 'history.changed'] });
  const wipe = useAction('Forget.Scrub');
  // Not after a failure: that one is owed until the person wipes again or the owner starts again.
  const live = status.data !== undefined && (status.data.running || (status.data.pending && status.data.failed === null));
  useReloadWhile(live || wipe.busy, status.reload);
  const now = useNow(30_000);
  const line = wipeLine(status.data, now);
  if (line === undefined && wipe.error === undefined) return null;
  return (
    <div className={`wipe-status wipe-status--${line?.tone ?? 'failed'}`} data-testid="wipe-status" data-tone={line?.tone}>
      {line && <p role={line.tone === 'failed' ? 'alert' : 'status'}>{line.text}</p>}
      {line?.retry && (
        <Button onClick={() => void wipe.run({}).then(status.reload)} disabled={wipe.busy}>
          {wipe.busy ? 'Wiping…' : 'Wipe now'}
        </Button>
      )}
      <ErrorBanner title="The wipe could not be started." error={wipe.error} />
    </div>
  );
}
