import { useId, useState, type ReactElement } from 'react';
import type { Params } from '../../../../core/api/index.js';
import { Button, countOf, ErrorBanner, formatCount, providerLabel } from '../../components/index.js';
import { importSentence, remainingWords, useImport, useImportFocus } from './importing.js';
import './import-history.css';

const WINDOWS = [
  { id: '30d', label: 'Last 30 days', params: { provider: 'all', days: 30 } },
  { id: '1y', label: 'Last year', params: { provider: 'all', days: 365 } },
  { id: 'all', label: 'Everything', params: { provider: 'all', all: true } },
] as const satisfies ReadonlyArray<{ id: string; label: string; params: Params<'Backfill.Run'> }>;

type WindowId = (typeof WINDOWS)[number]['id'];

/**
 * Importing history on request: the person picks how far back, and `Backfill.Run` imports it
 * (ignoring the sweep's fingerprints), with a progress bar and the time left.
 */
export function ImportHistory({ onDone }: { onDone: () => void }): ReactElement {
  const name = useId();
  const [choice, setChoice] = useState<WindowId>('30d');
  const importing = useImport(onDone);
  const focus = useImportFocus(importing.running);
  const start = () => {
    const selected = WINDOWS.find((w) => w.id === choice);
    if (selected) importing.start(selected.params);
  };
  return (
    <form
      className="import-history"
      data-testid="import-history"
      onSubmit={(event) => {
        event.preventDefault();
        start();
      }}
    >
      <fieldset disabled={importing.running}>
        <legend>How far back</legend>
        {WINDOWS.map((w) => (
          <label key={w.id} className="import-history__choice">
            <input type="radio" name={name} value={w.id} checked={choice === w.id} onChange={() => setChoice(w.id)} />
            {w.label}
          </label>
        ))}
      </fieldset>
      <div className="import-history__actions">
        <Button ref={focus.submit} type="submit" disabled={importing.running}>
          {importing.running ? 'Importing…' : 'Import history'}
        </Button>
        {importing.running && (
          <Button ref={focus.cancel} onClick={importing.cancel} disabled={importing.cancelling} data-testid="import-cancel">
            {importing.cancelling ? 'Cancelling…' : 'Cancel'}
          </Button>
        )}
      </div>
      {importing.running && <ImportProgress importing={importing} />}
      {importing.result && !importing.running && (
        <p ref={focus.result} tabIndex={-1} className="import-history__result" role="status" data-testid="import-result">
          {importSentence(importing.result)}
        </p>
      )}
      <ErrorBanner title="The import did not finish." error={importing.error} />
    </form>
  );
}

/** A bar over every provider's files, the time left at the pace so far, and each provider's count. */
export function ImportProgress({ importing }: { importing: ReturnType<typeof useImport> }): ReactElement {
  const { done, total, perProvider } = importing;
  return (
    <div className="import-progress" data-testid="import-progress">
      <progress className="import-progress__bar" max={Math.max(total, 1)} value={done} aria-label="Import progress" />
      <p aria-live="polite">
        {total === 0 ? 'Looking for transcripts…' : `${formatCount(done)} of ${countOf(total, 'file')}`}
        {remainingWords(importing.remainingMs) && ` · ${remainingWords(importing.remainingMs)}`}
      </p>
      <ul className="import-progress__providers">
        {perProvider.map((p) => (
          <li key={p.provider}>
            {providerLabel(p.provider)}: {formatCount(p.filesDone)} of {countOf(p.filesTotal, 'file')}
          </li>
        ))}
      </ul>
    </div>
  );
}
