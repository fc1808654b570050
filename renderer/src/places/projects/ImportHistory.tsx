import { useId, useState, type ReactElement } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { Button, countOf, ErrorBanner, formatCount, providerLabel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { windowWords } from '../home/window.js';
import { allImported, IMPORT_SPANS, importSentence, offeredSpans, remainingWords, useImport, useImportFocus } from './importing.js';
import './import-history.css';

type SpanId = (typeof IMPORT_SPANS)[number]['id'];

function paramsOf(days: number): Params<'Backfill.Run'> {
  return days === 0 ? { provider: 'all', all: true } : { provider: 'all', days };
}

/**
 * Importing history on request: the person picks how far back, and `Backfill.Run` imports it
 * (ignoring the sweep's fingerprints), with a progress bar and the time left. Only reaches wider than
 * what the scheduled checks import are offered (offeredSpans): a narrower one would import nothing;
 * and none once all there is has been imported (allImported, as Home says it). `survey`: given only
 * to render it (tests).
 */
export function ImportHistory({ onDone, survey: given }: { onDone: () => void; survey?: Result<'Providers.Survey'> }): ReactElement {
  const name = useId();
  const asked = useCall('Providers.Survey', {}, { skip: given !== undefined });
  const survey = { data: given ?? asked.data };
  const offered = offeredSpans(IMPORT_SPANS, survey.data?.providers.map((p) => p.windowDays));
  const [picked, setPicked] = useState<SpanId>();
  // A pick the windows, once listed, show to import nothing is no longer offered: the first one is chosen.
  const choice = offered.find((w) => w.id === picked) ?? offered[0];
  const checks = survey.data ? windowWords(survey.data) : undefined;
  const importing = useImport(onDone);
  const focus = useImportFocus(importing.running);
  const start = () => {
    if (choice) importing.start(paramsOf(choice.days));
  };
  // An import's own result stays until the place is opened again, with the form it came from.
  if (survey.data && allImported(survey.data) && !importing.running && importing.result === undefined) {
    return (
      <p className="import-history__window muted" data-testid="import-history-done">
        Nothing earlier to import: all there is has been imported{checks !== undefined ? `, and the regular checks import ${checks}` : ''}.
      </p>
    );
  }
  return (
    <form
      className="import-history"
      data-testid="import-history"
      onSubmit={(event) => {
        event.preventDefault();
        start();
      }}
    >
      {checks !== undefined && <p className="import-history__window muted">The regular checks already import {checks}.</p>}
      <fieldset disabled={importing.running}>
        <legend>How far back</legend>
        {offered.map((w) => (
          <label key={w.id} className="import-history__choice">
            <input type="radio" name={name} value={w.id} checked={choice?.id === w.id} onChange={() => setPicked(w.id)} />
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
