import { type FormEvent, type ReactElement } from 'react';
import { Field, Panel } from '../../components/index.js';
import { useDraft } from './drafts.js';
import { SaveRow } from './SaveRow.js';
import { problemWords, useSave, type ConfigView } from './saving.js';
import { StartAtLoginChoice } from './StartAtLogin.js';
import { SECTIONS } from './sections.js';

type Level = ConfigView['saved']['logLevel'];

const LEVELS: ReadonlyArray<{ id: Level; label: string }> = [
  { id: 'info', label: 'Everything Steward does (the default)' },
  { id: 'warn', label: 'Warnings and errors' },
  { id: 'error', label: 'Errors only' },
];

/** Start at login, and how much Steward writes to its log. */
export function ComputerSettings({ config, onSaved }: { config: ConfigView; onSaved: () => void }): ReactElement {
  const saving = useSave(onSaved);
  const draft = useDraft('log', { level: config.saved.logLevel });
  const level = draft.values.level as Level;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (level !== config.saved.logLevel) saving.save({ 'log.level': level });
  };
  return (
    <Panel title={SECTIONS.computer.title} id={SECTIONS.computer.id}>
      <StartAtLoginChoice />
      <form className="settings-form" onSubmit={submit} aria-label="Log level">
        <Field label="What Steward writes to its log" hint="The log never holds conversation text, keys or the folders of caches." error={problemWords(saving.problem('log.level'))}>
          {(control) => (
            <select {...control} className="select" value={level} onChange={(e) => draft.set('level', e.currentTarget.value)} data-setting="log.level">
              {LEVELS.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <SaveRow saving={saving} label="Save log level" draft={draft} />
      </form>
    </Panel>
  );
}
