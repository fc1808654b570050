import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { ErrorBanner, Panel } from '../../components/index.js';
import { useCall, useClient } from '../../hooks.js';
import { ApiKeyField } from './ApiKeyField.js';
import { LocalModels, ModelBudget } from './CuratorExtras.js';
import './settings.css';

type Curator = Params<'Settings.SetCurator'>['curator'];
type View = Result<'Settings.Get'>['sweeper'];

const BOUNDARY: Record<View['dataBoundary'], string> = {
  local_process: 'Nothing leaves this computer.',
  local_network: "Transcript text (redacted) goes to a model server on this computer's network.",
  remote: 'Transcript text (redacted) goes to a remote model service.',
  unknown: 'Where transcript text goes is not known.',
};

const CURATORS: ReadonlyArray<{ id: Curator; label: string; hint: string }> = [
  { id: 'offline', label: 'Offline (no model)', hint: 'Extractive summaries built on this computer. Nothing leaves the machine. Never writes CLAUDE.md.' },
  { id: 'anthropic', label: 'Anthropic', hint: 'Claude through the Anthropic API. Needs ANTHROPIC_API_KEY (headless) or a key stored by the desktop app.' },
  { id: 'openai-compatible', label: 'OpenAI-compatible', hint: 'OpenAI, or a local server such as Ollama, LM Studio, llama.cpp or vLLM, by base URL.' },
];

const DEFAULT_MODEL: Record<Curator, string> = { offline: 'claude-haiku-4-5', anthropic: 'claude-haiku-4-5', 'openai-compatible': 'llama3.2' };

/**
 * The sweeper's curator choice, written to config.json by `Settings.SetCurator`. API keys never go
 * to config.json: the desktop app keeps them in the system keychain (`Settings.SetApiKey`), headless
 * mode reads them from the environment.
 */
export function CuratorSettings(): ReactElement {
  const client = useClient();
  const settings = useCall('Settings.Get', {});
  const ids = useId();
  const [curator, setCurator] = useState<Curator>('offline');
  const [model, setModel] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const [error, setError] = useState<Error | undefined>();

  const view: View | undefined = settings.data?.sweeper;
  const savedCurator = view?.curator;
  const savedModel = view?.model;
  const savedBaseUrl = view?.baseUrl;
  // Follows the saved choice only when it changes: a reload after saving a key keeps the radio as chosen.
  useEffect(() => {
    if (savedCurator === undefined) return;
    setCurator(savedCurator);
    setModel(savedModel ?? '');
    setBaseUrl(savedBaseUrl ?? '');
  }, [savedCurator, savedModel, savedBaseUrl]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!client) return;
    setSaving(true);
    setSaved(undefined);
    setError(undefined);
    const params: Params<'Settings.SetCurator'> = { curator, model: model.trim() || DEFAULT_MODEL[curator] };
    if (curator === 'openai-compatible') params.baseUrl = baseUrl.trim() === '' ? null : baseUrl.trim();
    client.call('Settings.SetCurator', params).then(
      () => {
        setSaving(false);
        setSaved('Saved to config.json. The next sweep uses this curator.');
        settings.reload();
      },
      (e: unknown) => {
        setSaving(false);
        setError(e instanceof Error ? e : new Error('The setting could not be saved.'));
      },
    );
  };

  return (
    <Panel title="Project notes curator">
      <ErrorBanner title="The curator settings could not be loaded." error={settings.error} onRetry={settings.reload} />
      {view?.paused.map((pause) => (
        <p key={pause.curator} role="status">
          <span className="badge badge--paused">Paused</span> The {pause.curator} curator is paused: {pause.message}
          {pause.reason === 'daily_budget' ? '' : ' Saving the choice again resumes it.'}
        </p>
      ))}
      <form className="curator-settings" onSubmit={submit} aria-label="Project notes curator">
        <fieldset>
          <legend>Curator</legend>
          {CURATORS.map((c) => (
            <div key={c.id} className="field">
              <label>
                <input type="radio" name={`${ids}-curator`} value={c.id} checked={curator === c.id} onChange={() => setCurator(c.id)} /> {c.label}
              </label>
              <p className="field__hint">{c.hint}</p>
            </div>
          ))}
        </fieldset>
        {curator !== 'offline' && (
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-model`}>
              Model
            </label>
            <input id={`${ids}-model`} className="input" value={model} onChange={(e) => setModel(e.currentTarget.value)} placeholder={DEFAULT_MODEL[curator]} />
          </div>
        )}
        {curator === 'openai-compatible' && (
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-url`}>
              Base URL
            </label>
            <input id={`${ids}-url`} className="input" type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.currentTarget.value)} placeholder="http://localhost:11434/v1" />
          </div>
        )}
        <p className="field__hint">
          Transcript text is redacted for secrets before it is sent, and a remote curator runs only when you choose it here: a key in the environment never turns one on.
        </p>
        <button type="submit" className="button button--primary" disabled={saving || !view}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        {saved !== undefined && <p role="status">{saved}</p>}
      </form>
      <ErrorBanner title="The curator could not be changed." error={error} />
      {view && (
        <p className="field__hint" data-testid="curator-boundary">
          Data boundary of the saved curator: <code>{view.dataBoundary}</code>. {BOUNDARY[view.dataBoundary]}
        </p>
      )}
      {view && curator !== 'offline' && <ApiKeyField curator={curator} view={view} onChanged={settings.reload} />}
      <LocalModels onChosen={settings.reload} />
      {view && <ModelBudget view={view} onChanged={settings.reload} />}
    </Panel>
  );
}
