import { useEffect, useId, useRef, useState, type ReactElement, type RefObject } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { DataTable, ErrorBanner, formatCount, formatDateTime, formatDuration, Panel, providerLabel, type Column } from '../../components/index.js';
import { useClient } from '../../hooks.js';
import './settings.css';

type Report = Result<'Cache.Prune'>;
type Cutoff = Report['cutoffs'][number];
type Busy = 'check' | 'remove' | undefined;
type FocusTarget = 'cancel' | 'remove' | 'result' | undefined;


function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function cutoffText(cutoff: Cutoff): string {
  return cutoff.cutoffMs === null ? 'Keeps everything' : `Older than ${formatDateTime(cutoff.cutoffMs)}`;
}

function columns(countHeader: string): readonly Column<Cutoff>[] {
  return [
    { header: 'Provider', cell: (c) => providerLabel(c.provider) },
    { header: 'Retention cutoff', cell: cutoffText },
    { header: countHeader, cell: (c) => formatCount(c.removedParts), align: 'end' },
  ];
}

/**
 * A manual pass of the retention window (`Cache.Prune`): a dry run first, then removal only after an
 * explicit second confirmation. The manual pass applies the effective window, the 365-day default
 * included, so a person who imported everything must see what would go before anything goes.
 */
export function CacheRetention(): ReactElement {
  const client = useClient();
  const ids = useId();
  const [busy, setBusy] = useState<Busy>();
  const [check, setCheck] = useState<Report | undefined>();
  const [removal, setRemoval] = useState<Report | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<{ title: string; error: Error } | undefined>();
  const [focus, setFocus] = useState<FocusTarget>();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);

  // Keyboard users land on the safe choice when asked, and back where they were after answering.
  useEffect(() => {
    if (focus === undefined) return;
    const refs: Record<NonNullable<FocusTarget>, RefObject<HTMLElement | null>> = { cancel: cancelRef, remove: removeRef, result: resultRef };
    refs[focus].current?.focus();
    setFocus(undefined);
  }, [focus]);

  const fail = (title: string) => (e: unknown) => {
    setBusy(undefined);
    setFailure({ title, error: e instanceof Error ? e : new Error('Steward did not answer.') });
  };

  const runCheck = () => {
    if (!client) return;
    setBusy('check');
    setFailure(undefined);
    setConfirming(false);
    setRemoval(undefined);
    client.call('Cache.Prune', { dryRun: true }).then((report) => {
      setBusy(undefined);
      setCheck(report);
    }, fail('The cache could not be checked.'));
  };

  const runRemove = () => {
    if (!client) return;
    setBusy('remove');
    setFailure(undefined);
    client.call('Cache.Prune', {}).then((report) => {
      setBusy(undefined);
      setConfirming(false);
      setCheck(undefined);
      setRemoval(report);
      setFocus('result');
    }, (e: unknown) => {
      setConfirming(false);
      fail('The old parts could not be removed.')(e);
    });
  };

  const toRemove = check?.removedParts ?? 0;
  return (
    <Panel title="Cache retention">
      <div className="cache-retention" data-testid="cache-retention" aria-busy={busy !== undefined}>
        <p className="field__hint" id={`${ids}-about`}>
          Scheduled sweeps import conversations from the retention window: 365 days unless <code>config.json</code> sets{' '}
          <code>query.cache.retention.default_days</code> or a provider&rsquo;s <code>backfill.window_days</code> (0 keeps everything). Stored
          rows are removed on their own only when <code>config.json</code> sets such a window; here you can apply the window now, the default
          included. Only rows older than the window go. Project rows and their notes are kept, and the transcripts on disk are untouched:
          Steward reads them and never changes them. Removed rows do not come back unless you import everything again.
        </p>
        <div className="cache-retention__actions">
          <button type="button" className="button" onClick={runCheck} disabled={busy !== undefined || !client} aria-describedby={`${ids}-about`}>
            {busy === 'check' ? 'Checking…' : 'Check'}
          </button>
        </div>
        {check && <CheckResult report={check} />}
        {check && toRemove > 0 && !confirming && (
          <div className="cache-retention__actions">
            <button
              ref={removeRef}
              type="button"
              className="button button--danger"
              disabled={busy !== undefined}
              onClick={() => {
                setConfirming(true);
                setFocus('cancel');
              }}
            >
              Remove {plural(toRemove, 'part', 'parts')}
            </button>
          </div>
        )}
        {check && confirming && (
          <div className="cache-retention__confirm" role="group" aria-labelledby={`${ids}-question`} data-testid="cache-retention-confirm">
            <p id={`${ids}-question`}>
              <strong>Remove {plural(toRemove, 'part', 'parts')} older than the retention window from the cache?</strong> Steward cannot
              bring them back by itself; the transcripts on disk stay as they are. Whatever is older than the window at the moment you
              confirm is removed, so the count may differ slightly if the cache changed since the check.
            </p>
            <div className="cache-retention__actions">
              <button type="button" className="button button--danger" onClick={runRemove} disabled={busy !== undefined}>
                {busy === 'remove' ? 'Removing…' : 'Yes, remove them'}
              </button>
              <button
                ref={cancelRef}
                type="button"
                className="button"
                disabled={busy !== undefined}
                onClick={() => {
                  setConfirming(false);
                  setFocus('remove');
                }}
              >
                Cancel
              </button>
            </div>
          </div>
        )}
        {removal && <RemovalResult report={removal} resultRef={resultRef} />}
        <ErrorBanner title={failure?.title ?? ''} error={failure?.error} />
      </div>
    </Panel>
  );
}

function CheckResult({ report }: { report: Report }): ReactElement {
  return (
    <div className="cache-retention__result" data-testid="cache-retention-check">
      <DataTable caption="What the retention window would remove" columns={columns('Parts that would go')} rows={report.cutoffs} rowKey={(c) => c.provider} />
      <p role="status">
        {report.cutoffs.every((c) => c.cutoffMs === null)
          ? 'The retention window is open (0 days), so the cache keeps everything: nothing would be removed.'
          : report.removedParts === 0
            ? 'Nothing is older than the retention window: nothing would be removed.'
            : `${plural(report.removedParts, 'part', 'parts')} would go, and with them ${plural(report.removedSessions, 'conversation (session)', 'conversations (sessions)')} left with nothing newer.`}
      </p>
    </div>
  );
}

function RemovalResult({ report, resultRef }: { report: Report; resultRef: RefObject<HTMLParagraphElement | null> }): ReactElement {
  return (
    <div className="cache-retention__result" data-testid="cache-retention-removed">
      <p role="status" ref={resultRef} tabIndex={-1}>
        Removed {plural(report.removedParts, 'part', 'parts')} and {plural(report.removedSessions, 'conversation (session)', 'conversations (sessions)')} in{' '}
        {formatDuration(report.durationMs)}.
        {!report.complete && ' Stopped early (Steward was shutting down); the next pass finishes it. Check again to see what is left.'}
      </p>
      <DataTable caption="What the retention window removed" columns={columns('Parts removed')} rows={report.cutoffs} rowKey={(c) => c.provider} />
    </div>
  );
}
