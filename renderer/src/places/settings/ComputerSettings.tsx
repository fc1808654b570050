import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { ErrorBanner, Field, Panel } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { SaveRow } from './SaveRow.js';
import { problemWords, useSave, type ConfigView } from './saving.js';

type Level = ConfigView['saved']['logLevel'];
type Login = Result<'Settings.GetStartAtLogin'>;

const LEVELS: ReadonlyArray<{ id: Level; label: string }> = [
  { id: 'info', label: 'Everything Steward does (the default)' },
  { id: 'warn', label: 'Warnings and errors' },
  { id: 'error', label: 'Errors only' },
];

function loginWords(login: Login): string {
  const what = login.launches === 'headless' ? 'Steward in the background (steward serve)' : 'the Steward app';
  return login.supported ? `Starts ${what} when you log in to this computer.` : 'This Steward cannot start itself at login here.';
}

/** Start at login, and how much Steward writes to its log. */
export function ComputerSettings({ config, onSaved }: { config: ConfigView; onSaved: () => void }): ReactElement {
  const login = useCall('Settings.GetStartAtLogin', {});
  const setLogin = useAction('Settings.SetStartAtLogin');
  const saving = useSave(onSaved);
  const [level, setLevel] = useState<Level>(config.saved.logLevel);
  useEffect(() => setLevel(config.saved.logLevel), [config.saved.logLevel]);
  const now = setLogin.data ?? login.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (level !== config.saved.logLevel) saving.save({ 'log.level': level });
  };
  return (
    <Panel title="This computer">
      <ErrorBanner title="Start at login could not be read." error={login.error} onRetry={login.reload} />
      {now && (
        <div className="settings-form">
          <label className="settings-check">
            <input type="checkbox" checked={now.enabled} disabled={!now.supported || setLogin.busy} onChange={(e) => void setLogin.run({ enabled: e.currentTarget.checked })} /> Start Steward when I log in
          </label>
          <p className="field__hint">
            {loginWords(now)} {now.message ?? ''} Off unless you turn it on.
          </p>
          <ErrorBanner title="Start at login could not be changed." error={setLogin.error} />
        </div>
      )}
      <form className="settings-form" onSubmit={submit} aria-label="Log level">
        <Field label="What Steward writes to its log" hint="The log never holds conversation text, keys or the folders of caches." error={problemWords(saving.problem('log.level'))}>
          {(control) => (
            <select {...control} className="select" value={level} onChange={(e) => setLevel(e.currentTarget.value as Level)} data-setting="log.level">
              {LEVELS.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <SaveRow saving={saving} label="Save log level" />
      </form>
    </Panel>
  );
}
