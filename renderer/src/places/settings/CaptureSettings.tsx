import { useRef, useState, type FormEvent, type ReactElement } from 'react';
import type { PruneReport } from '../../../../core/api/index.js';
import { ErrorBanner, Field, Glossary, Panel } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { ConfirmRemoval } from './ConfirmRemoval.js';
import { sameSetting, useDraft, type Same } from './drafts.js';
import { removingWindow, wouldRemove } from './retention-words.js';
import { SaveRow } from './SaveRow.js';
import { intervalMs, intervalWords, lines, problemWords, useSave, type ConfigView } from './saving.js';
import { SECTIONS } from './sections.js';
import './cache-retention.css';

const RETENTION = 'query.cache.retention.default_days';

/** The interval as the save reads it ("5", "5 min" and "5 minutes" are one setting); the rest by sameSetting's rule. */
const sameLines = sameSetting(['exclude']);
const sameCapture: Same = (key, draft, saved) => (key === 'interval' ? draft.trim() === saved || (intervalMs(draft) !== undefined && intervalMs(draft) === intervalMs(saved)) : sameLines(key, draft, saved));

/** A save held back until the person confirms what the new retention window would remove. */
interface Held {
  changes: Record<string, unknown>;
  days: number;
  report: PruneReport;
}

/** How far back conversations are kept, how often folders are checked, and folders never imported. */
export function CaptureSettings({ config, onSaved }: { config: ConfigView; onSaved: () => void }): ReactElement {
  const saving = useSave(onSaved);
  // A saved window removes what is older than it from the next start on: counted first, saved only once confirmed.
  const check = useAction('Cache.Prune');
  const [held, setHeld] = useState<Held>();
  // Where the focus goes back once the question is put away: the window, to choose another.
  const daysInput = useRef<HTMLInputElement>(null);
  const putAway = () => (setHeld(undefined), daysInput.current?.focus());
  const { saved } = config;
  const draft = useDraft('capture', { days: String(saved.retentionDays), interval: intervalWords(saved.sweepIntervalMs), exclude: saved.captureExclude.join('\n') }, sameCapture);
  const { days, interval, exclude } = draft.values;
  const intervalByEnv = config.environment.find((e) => e.key === 'sweep.interval_ms');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The last attempt's refusal and failed count belong to the value then typed: a corrected value
    // (which may stop at the question, not at a save that clears them) must not keep them beside it.
    saving.clear();
    check.reset();
    // Sent as typed: the config schema is the one judge of what is allowed, and says so per field.
    const changes: Record<string, unknown> = {};
    const d = days.trim() === '' ? Number.NaN : Number(days);
    const ms = intervalMs(interval);
    if (d !== saved.retentionDays) changes['query.cache.retention.default_days'] = Number.isFinite(d) ? d : days;
    if (ms !== saved.sweepIntervalMs) changes['sweep.interval_ms'] = ms ?? interval;
    if (lines(exclude).join('\n') !== saved.captureExclude.join('\n')) changes['capture.exclude'] = lines(exclude);
    if (Object.keys(changes).length > 0) void saveOrAsk(changes);
  };
  const saveOrAsk = async (changes: Record<string, unknown>) => {
    const windowDays = changes[RETENTION];
    if (removingWindow(windowDays)) {
      const report = await check.run({ dryRun: true, retentionDays: windowDays });
      // Not counted, not saved: the banner says why.
      if (!report) return;
      if (wouldRemove(report)) return setHeld({ changes, days: windowDays, report });
    }
    saving.save(changes);
  };
  const confirm = () => {
    if (held) saving.save(held.changes);
    putAway();
  };

  return (
    <Panel title={SECTIONS.importing.title} id={SECTIONS.importing.id}>
      <form className="settings-form" onSubmit={submit} aria-label="Importing conversations">
        <Field
          label="Retention window, in days"
          hint="Conversations are imported from this many days back; 0 keeps everything. A window you save here also removes stored conversations older than it, from the next start on: you are told how many first."
          error={problemWords(saving.problem('query.cache.retention.default_days'), 'days')}
        >
          {(control) => <input {...control} ref={daysInput} className="input settings-number" inputMode="numeric" value={days} onChange={(e) => draft.set('days', e.currentTarget.value)} data-setting="query.cache.retention.default_days" />}
        </Field>
        <Glossary term="Retention window">how far back Steward keeps conversations. Agents delete their own transcripts (Claude Code after 30 days), so a longer window keeps what they forget.</Glossary>
        <Field
          label="Check the agents' folders every …"
          hint={intervalByEnv ? `${intervalByEnv.env} is set in Steward's environment and decides this; what you save here applies once it is unset and Steward starts again.` : 'New and changed transcripts are imported on this schedule, such as every 5 minutes or 90 seconds. A new interval applies as soon as it is saved.'}
          error={problemWords(saving.problem('sweep.interval_ms'), 'interval')}
        >
          {(control) => <input {...control} className="input settings-number" value={interval} onChange={(e) => draft.set('interval', e.currentTarget.value)} data-setting="sweep.interval_ms" />}
        </Field>
        <Field label="Never import conversations from these folders" hint="One folder pattern per line, such as /home/me/private/** ; matching sessions are skipped before anything is stored." error={problemWords(saving.problem('capture.exclude'))}>
          {(control) => <textarea {...control} className="input settings-lines" rows={3} value={exclude} onChange={(e) => draft.set('exclude', e.currentTarget.value)} data-setting="capture.exclude" />}
        </Field>
        {held ? (
          <ConfirmRemoval days={held.days} report={held.report} busy={saving.busy} onConfirm={confirm} onCancel={putAway} />
        ) : (
          <SaveRow saving={saving} label="Save import settings" disabled={check.busy} draft={draft} />
        )}
        <ErrorBanner title="What the new retention window would remove could not be counted; nothing was saved." error={check.error} />
      </form>
    </Panel>
  );
}
