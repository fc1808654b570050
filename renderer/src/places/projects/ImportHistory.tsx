import { useId, useState, type ReactElement } from 'react';
import type { EventPayload, Params, Result, SkipReason } from '../../../../core/api/index.js';
import { formatCount, providerLabel } from '../../components/index.js';
import { useClient, useEvent } from '../../hooks.js';

const WINDOWS = [
  { id: '30d', label: 'Last 30 days', params: { provider: 'all', days: 30 } },
  { id: '1y', label: 'Last year', params: { provider: 'all', days: 365 } },
  { id: 'all', label: 'Everything', params: { provider: 'all', all: true } },
] as const satisfies ReadonlyArray<{ id: string; label: string; params: Params<'Backfill.Run'> }>;

type WindowId = (typeof WINDOWS)[number]['id'];

/** Why a transcript line held nothing to import, in words (one per SKIP_REASONS entry: the type says when one is missing). */
const SKIP_WORDS: Record<SkipReason, string> = {
  meta_only: 'bookkeeping',
  unknown_type: 'of a kind Steward does not import',
  no_id: 'without a session to belong to',
  too_large: 'too large',
  malformed: 'unreadable',
  outside_window: 'older than the chosen period',
  empty: 'empty',
};

/** "1,204 lines held no conversation: 1,190 bookkeeping, 14 unreadable." — or nothing when every line did. */
function skippedSentence(result: Result<'Backfill.Run'>): string {
  const totals = (Object.keys(SKIP_WORDS) as SkipReason[]).map((reason) => [reason, result.providers.reduce((n, p) => n + (p.skipped?.[reason] ?? 0), 0)] as const).filter(([, n]) => n > 0);
  if (totals.length === 0) return '';
  const all = totals.reduce((n, [, count]) => n + count, 0);
  return ` ${formatCount(all)} ${all === 1 ? 'line' : 'lines'} held no conversation: ${totals.map(([reason, n]) => `${formatCount(n)} ${SKIP_WORDS[reason]}`).join(', ')}.`;
}
type Progress = EventPayload<'backfill.progress'>;

/**
 * The onboarding backfill: the person picks how far back to import, and `Backfill.Run` imports it
 * (ignoring the sweep's fingerprints), reporting progress per provider.
 */
export function ImportHistory({ onDone }: { onDone: () => void }): ReactElement {
  const client = useClient();
  const name = useId();
  const [choice, setChoice] = useState<WindowId>('30d');
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  const [result, setResult] = useState<Result<'Backfill.Run'> | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [cancelling, setCancelling] = useState(false);

  useEvent('backfill.progress', (p) => {
    if (running) setProgress((previous) => ({ ...previous, [p.provider]: p }));
  });

  const start = () => {
    const selected = WINDOWS.find((w) => w.id === choice);
    if (!client || !selected) return;
    setRunning(true);
    setProgress({});
    setResult(undefined);
    setError(undefined);
    setCancelling(false);
    client.call('Backfill.Run', selected.params).then(
      (r) => {
        setResult(r);
        setRunning(false);
        onDone();
      },
      (e: unknown) => {
        setError(e instanceof Error ? e.message : 'The import failed.');
        setRunning(false);
      },
    );
  };

  // What was committed before the cancel stays; Backfill.Run then settles with those counts.
  const cancel = () => {
    if (!client) return;
    setCancelling(true);
    client.call('Backfill.Cancel', {}).catch((e: unknown) => setError(e instanceof Error ? e.message : 'Could not cancel the import.'));
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
      <fieldset disabled={running}>
        <legend>Import history</legend>
        {WINDOWS.map((w) => (
          <label key={w.id} className="import-history__choice">
            <input type="radio" name={name} value={w.id} checked={choice === w.id} onChange={() => setChoice(w.id)} />
            {w.label}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button" disabled={running || !client}>
        {running ? 'Importing…' : 'Import history'}
      </button>
      {running && (
        <button type="button" className="button" onClick={cancel} disabled={cancelling} data-testid="import-cancel">
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      )}
      {running && (
        <ul className="import-history__progress" aria-live="polite" data-testid="import-progress">
          {Object.values(progress).map((p) => (
            <li key={p.provider}>
              {providerLabel(p.provider)}: {formatCount(p.filesDone)} of {formatCount(p.filesTotal)} files · {formatCount(p.partsWritten)} parts
            </li>
          ))}
          {Object.keys(progress).length === 0 && <li>Looking for transcripts…</li>}
        </ul>
      )}
      {result && (
        <p className="import-history__result" role="status" data-testid="import-result">
          {cancelling ? 'Cancelled. ' : ''}Imported {formatCount(result.providers.reduce((n, p) => n + p.partsWritten, 0))} new parts from{' '}
          {formatCount(result.providers.reduce((n, p) => n + p.read, 0))} files.{skippedSentence(result)}
        </p>
      )}
      {error && (
        <p className="import-history__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
