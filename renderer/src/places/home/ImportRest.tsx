import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import type { PruneReport, Result } from '../../../../core/api/index.js';
import { Button, ErrorBanner, formatDuration, Glossary } from '../../components/index.js';
import { useNow } from '../../clock.js';
import { useAction, useCall } from '../../hooks.js';
import { ImportProgress } from '../projects/ImportHistory.js';
import { importSentence, useImport, useImportFocus } from '../projects/importing.js';
import { ConfirmRemoval } from '../settings/ConfirmRemoval.js';
import { wouldRemove } from '../settings/retention-words.js';
import { keepWords, savedCleanUpWords, savedForNextStart, savedWindowSentence, startingChoice } from './saved-window.js';
import { cleanUpWords, estimateMs, everythingWords, narrowerChoices, narrowerNote, narrowerWords, spanWords, storedOlderAt, windowMeaning, windowWords } from './window.js';

type Survey = Result<'Providers.Survey'>;

const NARROWER = [30, 90] as const;

/** Everything (the files older than the window, with a bar and the time left) or a narrower window from the next start. */
export function ImportRest({ survey, onImported }: { survey: Survey; onImported: () => void }): ReactElement {
  const name = useId();
  // The start-up import may still be running when the first run opens: its tick brings the pace.
  const ticks = useCall('Telemetry.Recent', { kind: 'sweep.tick', limit: 20 }, { refreshOn: ['sweep.tick'] });
  const importing = useImport(onImported);
  const focus = useImportFocus(importing.running);
  const narrow = useAction('Settings.Update');
  // A narrower window removes stored conversations from the next start on: counted first, saved only once confirmed.
  const check = useAction('Cache.Prune');
  const [held, setHeld] = useState<{ days: number; report: PruneReport }>();
  const choices = useRef<HTMLFieldSetElement>(null);
  // A window saved for the next start (here or in Settings) is what the configuration says, not this view's last save.
  const config = useCall('Settings.Config', {});
  const saved = savedForNextStart(narrow.data?.config ?? config.data);
  const offered = narrowerChoices(survey, NARROWER);
  const [chosen, setChoice] = useState<'all' | 'keep' | `${(typeof NARROWER)[number]}`>();
  // Opened on the setting in force (the window as it is, or the narrower one saved): nothing to do.
  // (After a save here the button stays, keeping the focus.)
  const choice = chosen ?? startingChoice(saved, offered);
  // The window as it is has a choice of its own unless it is one of the narrower ones offered (saved for the next start).
  const keepOffered = !offered.some((days) => days === saved);
  // Files an import of everything already read whole are not offered again; they are called imported
  // only where no clean-up removes their messages (a window written in config.json does).
  const imported = survey.providers.reduce((n, s) => n + (s.cleanUpDays === 0 ? s.older.imported.files : 0), 0);
  const readOnce = survey.providers.reduce((n, s) => n + (s.cleanUpDays > 0 ? s.older.imported.files : 0), 0);
  // A file that could not be read holds what no import brought in (Home's "Needs you" names it).
  const unreadable = useCall('Sweep.Unreadable', {}, { refreshOn: ['sweep.tick'] }).data?.total ?? 0;
  const older = survey.providers.reduce((n, s) => n + s.older.files - s.older.imported.files, 0);
  const olderBytes = survey.providers.reduce((n, s) => n + s.older.bytes - s.older.imported.bytes, 0);
  // Older messages in files changed since: the file times alone would call everything imported.
  const olderMessages = survey.providers.reduce((n, s) => n + s.olderMessages, 0);
  // Files whose older messages were never counted: importing everything brings in any there are.
  const uncounted = survey.providers.reduce((n, s) => n + s.olderUncounted, 0);
  // Messages Steward holds from before the window, in files whose times are all within it: never "nothing is older".
  const storedBefore = storedOlderAt(survey, useNow(3_600_000));
  // Importing everything reads every file of every agent watched, not only the older ones: the estimate counts them all.
  const total = survey.providers.reduce((n, s) => n + s.files, 0);
  const estimate = estimateMs(total, [...(ticks.data?.entries ?? [])].reverse());
  const saveNarrower = (days: number) => void narrow.run({ changes: { 'query.cache.retention.default_days': days } });
  const narrowOrAsk = async (days: number) => {
    const report = await check.run({ dryRun: true, retentionDays: days });
    // Not counted, not saved: the banner says why.
    if (!report) return;
    if (wouldRemove(report)) return setHeld({ days, report });
    saveNarrower(days);
  };
  // Cancel gives the focus back to the choice, once the choices are enabled again (a disabled input takes no focus).
  const [returning, setReturning] = useState(false);
  const putAway = () => (setHeld(undefined), setReturning(true));
  useEffect(() => {
    if (!returning || held) return;
    setReturning(false);
    choices.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
  }, [returning, held]);
  const go = () => (choice === 'all' ? importing.start({ provider: 'all', all: true }, total) : choice !== 'keep' && void narrowOrAsk(Number(choice)));
  return (
    <div className="first-run__import" data-testid="first-run-import">
      <Glossary term="Window">{windowMeaning(windowWords(survey) ?? spanWords(365), imported)}</Glossary>
      <fieldset ref={choices} className="first-run__choices" disabled={importing.running || held !== undefined}>
        <legend>Keep more, or less?</legend>
        {keepOffered && (
          <label>
            <input type="radio" name={name} checked={choice === 'keep'} onChange={() => setChoice('keep')} /> {keepWords(survey, saved)}
          </label>
        )}
        <label>
          <input type="radio" name={name} checked={choice === 'all'} onChange={() => setChoice('all')} /> {everythingWords(older, olderBytes, estimate === undefined ? undefined : formatDuration(estimate), imported, olderMessages, uncounted, {
            unreadable,
            readOnce,
            storedBefore,
            reads: total,
            cleanUp: [cleanUpWords(survey), saved === undefined ? undefined : savedCleanUpWords(saved, survey)].filter(Boolean).join('; ') || undefined,
          })}
        </label>
        {offered.map((days) => (
          <label key={days}>
            <input type="radio" name={name} checked={choice === String(days)} onChange={() => setChoice(`${days}`)} /> {narrowerWords(days, survey)}
          </label>
        ))}
      </fieldset>
      {held && (
        <ConfirmRemoval
          days={held.days}
          report={held.report}
          note={narrowerNote(survey)}
          busy={narrow.busy}
          onConfirm={() => (saveNarrower(held.days), setHeld(undefined))}
          onCancel={putAway}
        />
      )}
      <div className="first-run__actions" hidden={held !== undefined}>
        {/* Nothing older: keeping everything asks for nothing to be done. */}
        {chosen !== undefined && choice !== 'keep' && (choice !== 'all' || older > 0 || olderMessages > 0 || uncounted > 0 || importing.running) && (
          <Button ref={focus.submit} variant="primary" onClick={go} disabled={importing.running || narrow.busy || check.busy}>
            {importing.running ? 'Importing…' : choice === 'all' ? 'Import everything' : 'Save the narrower window'}
          </Button>
        )}
        {importing.running && (
          <Button ref={focus.cancel} onClick={importing.cancel} disabled={importing.cancelling}>
            {importing.cancelling ? 'Cancelling…' : 'Cancel'}
          </Button>
        )}
      </div>
      {importing.running && <ImportProgress importing={importing} />}
      {importing.result && !importing.running && (
        <p ref={focus.result} tabIndex={-1} role="status" data-testid="first-run-imported">
          {importSentence(importing.result)}
        </p>
      )}
      {saved !== undefined && <p role="status">{savedWindowSentence(saved, survey)}</p>}
      <ErrorBanner title="The import did not finish." error={importing.error} />
      <ErrorBanner title="The window was not changed." error={narrow.error} />
      <ErrorBanner title="What the narrower window would remove could not be counted; nothing was saved." error={check.error} />
    </div>
  );
}
