import { useEffect, useId, useRef, useState, type ReactElement, type RefObject } from 'react';
import { Button, ErrorBanner, Panel } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { CheckResult, RemovalResult } from './CacheRetentionReport.js';
import { comeBackWords, removeLabel, removeQuestion } from './retention-words.js';
import { SECTIONS } from './sections.js';
import './cache-retention.css';

type FocusTarget = 'cancel' | 'remove' | 'result' | undefined;

/** Moves the focus to the named element once it is rendered: keyboard users land on the safe choice when asked, and back after answering. */
function useFocusTarget(refs: Record<NonNullable<FocusTarget>, RefObject<HTMLElement | null>>): (target: FocusTarget) => void {
  const [focus, setFocus] = useState<FocusTarget>();
  useEffect(() => {
    if (focus === undefined) return;
    refs[focus].current?.focus();
    setFocus(undefined);
  }, [focus, refs]);
  return setFocus;
}

/**
 * A manual pass of the retention window (`Cache.Prune`): a dry run first, then removal only after an
 * explicit second confirmation. The manual pass applies the effective window, the 365-day default
 * included, so a person who imported everything must see what would go before anything goes.
 */
export function CacheRetention(): ReactElement {
  const ids = useId();
  const check = useAction('Cache.Prune');
  const removal = useAction('Cache.Prune');
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);
  const [refs] = useState(() => ({ cancel: cancelRef, remove: removeRef, result: resultRef }));
  const focus = useFocusTarget(refs);
  const busy = check.busy || removal.busy;

  const runCheck = () => {
    setConfirming(false);
    removal.reset();
    void check.run({ dryRun: true });
  };
  const runRemove = () =>
    void removal.run({}).then((report) => {
      setConfirming(false);
      if (!report) return;
      check.reset();
      focus('result');
    });

  return (
    <Panel title={SECTIONS.cacheRetention.title} id={SECTIONS.cacheRetention.id}>
      <div className="cache-retention" data-testid="cache-retention" aria-busy={busy}>
        <p className="field__hint" id={`${ids}-about`}>
          Scheduled checks import conversations from the retention window (365 days unless you change it above; 0 keeps everything). Stored conversations are removed on
          their own only when you have set a window; here you can apply the window now, the default included. Only what is older than the window goes. Projects and their
          notes are kept, and the transcripts on disk are untouched: Steward reads them and never changes them. {comeBackWords()}
        </p>
        <div className="cache-retention__actions">
          <Button onClick={runCheck} disabled={busy} aria-describedby={`${ids}-about`}>
            {check.busy ? 'Checking…' : 'Check'}
          </Button>
        </div>
        {check.data && <CheckResult report={check.data} />}
        {check.data && check.data.removedParts > 0 && !confirming && (
          <div className="cache-retention__actions">
            <Button ref={removeRef} variant="danger" disabled={busy} onClick={() => (setConfirming(true), focus('cancel'))}>
              {removeLabel(check.data)}
            </Button>
          </div>
        )}
        {check.data && confirming && (
          <div className="cache-retention__confirm" role="group" aria-labelledby={`${ids}-question`} data-testid="cache-retention-confirm">
            <p id={`${ids}-question`}>
              <strong>{removeQuestion(check.data)}</strong> The transcripts on disk stay as they are. {comeBackWords()} Whatever is older than the window at the moment
              you confirm is removed, so the count may differ slightly if the cache changed since the check.
            </p>
            <div className="cache-retention__actions">
              <Button variant="danger" onClick={runRemove} disabled={busy}>
                {removal.busy ? 'Removing…' : 'Yes, remove them'}
              </Button>
              <Button ref={cancelRef} disabled={busy} onClick={() => (setConfirming(false), focus('remove'))}>
                Cancel
              </Button>
            </div>
          </div>
        )}
        {removal.data && <RemovalResult report={removal.data} resultRef={resultRef} />}
        <ErrorBanner title="The cache could not be checked." error={check.error} />
        <ErrorBanner title="The old messages could not be removed." error={removal.error} />
      </div>
    </Panel>
  );
}
