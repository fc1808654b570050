import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { Field, Glossary, Panel } from '../../components/index.js';
import { SaveRow } from './SaveRow.js';
import { lines, problemWords, useSave, type ConfigView } from './saving.js';

const MINUTE = 60_000;

/** How far back conversations are kept, how often folders are checked, and folders never imported. */
export function CaptureSettings({ config, onSaved }: { config: ConfigView; onSaved: () => void }): ReactElement {
  const saving = useSave(onSaved);
  const { saved } = config;
  const [days, setDays] = useState(String(saved.retentionDays));
  const [minutes, setMinutes] = useState(String(saved.sweepIntervalMs / MINUTE));
  const [exclude, setExclude] = useState(saved.captureExclude.join('\n'));
  // Keyed on the saved text, not the list: every reload (another form's save) brings a new list, and
  // must not erase what a person is typing here.
  const savedExclude = saved.captureExclude.join('\n');
  useEffect(() => {
    setDays(String(saved.retentionDays));
    setMinutes(String(saved.sweepIntervalMs / MINUTE));
    setExclude(savedExclude);
  }, [saved.retentionDays, saved.sweepIntervalMs, savedExclude]);
  const intervalByEnv = config.environment.find((e) => e.key === 'sweep.interval_ms');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Sent as typed: the config schema is the one judge of what is allowed, and says so per field.
    const changes: Record<string, unknown> = {};
    const d = days.trim() === '' ? Number.NaN : Number(days);
    const ms = minutes.trim() === '' ? Number.NaN : Math.round(Number(minutes) * MINUTE);
    if (d !== saved.retentionDays) changes['query.cache.retention.default_days'] = Number.isFinite(d) ? d : days;
    if (ms !== saved.sweepIntervalMs) changes['sweep.interval_ms'] = Number.isFinite(ms) ? ms : minutes;
    if (lines(exclude).join('\n') !== saved.captureExclude.join('\n')) changes['capture.exclude'] = lines(exclude);
    if (Object.keys(changes).length > 0) saving.save(changes);
  };

  return (
    <Panel title="Importing conversations">
      <form className="settings-form" onSubmit={submit} aria-label="Importing conversations">
        <Field label="Retention window, in days" hint="Conversations are imported from this many days back; 0 keeps everything." error={problemWords(saving.problem('query.cache.retention.default_days'), 'days')}>
          {(control) => <input {...control} className="input settings-number" inputMode="numeric" value={days} onChange={(e) => setDays(e.currentTarget.value)} data-setting="query.cache.retention.default_days" />}
        </Field>
        <Glossary term="Retention window">how far back Steward keeps conversations. Agents delete their own transcripts (Claude Code after 30 days), so a longer window keeps what they forget.</Glossary>
        <Field
          label="Check the agents' folders every … minutes"
          hint={intervalByEnv ? `${intervalByEnv.env} is set in Steward's environment and decides this; what you save here applies once it is unset.` : 'New and changed transcripts are imported on this schedule.'}
          error={problemWords(saving.problem('sweep.interval_ms'), 'ms')}
        >
          {(control) => <input {...control} className="input settings-number" inputMode="decimal" value={minutes} onChange={(e) => setMinutes(e.currentTarget.value)} data-setting="sweep.interval_ms" />}
        </Field>
        <Field label="Never import conversations from these folders" hint="One folder pattern per line, such as /home/me/private/** ; matching sessions are skipped before anything is stored." error={problemWords(saving.problem('capture.exclude'))}>
          {(control) => <textarea {...control} className="input settings-lines" rows={3} value={exclude} onChange={(e) => setExclude(e.currentTarget.value)} data-setting="capture.exclude" />}
        </Field>
        <SaveRow saving={saving} label="Save import settings" />
      </form>
    </Panel>
  );
}
