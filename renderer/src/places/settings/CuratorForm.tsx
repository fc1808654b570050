import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { Button, ErrorBanner, Field, plainText } from '../../components/index.js';
import { fieldErrors, useAction } from '../../hooks.js';
import { ApiKeyField, keyDraftOf } from './ApiKeyField.js';
import { keepDraft, sameTrimmed, useDraft } from './drafts.js';
import { UnsavedMark } from './SaveRow.js';

type Curator = Params<'Settings.SetCurator'>['curator'];
export type SweeperView = Result<'Settings.Get'>['sweeper'];

/** Each curator, where transcript text goes with it said plainly, and what it needs. */
export const CURATORS: ReadonlyArray<{ id: Curator; label: string; boundary: string; needs: string }> = [
  { id: 'offline', label: 'Offline (no model)', boundary: 'Nothing leaves this computer.', needs: 'Notes are built from the conversations by extraction on this computer. It never writes CLAUDE.md.' },
  { id: 'anthropic', label: 'Anthropic', boundary: 'Transcript text, with secrets removed, is sent to Anthropic over the internet.', needs: 'Needs an Anthropic API key.' },
  {
    id: 'openai-compatible',
    label: 'OpenAI-compatible',
    boundary: 'Transcript text, with secrets removed, is sent to the server at the base URL: your own computer or network for a local server such as Ollama, a company for a hosted one.',
    needs: 'Needs the model name, and the base URL unless it is OpenAI itself.',
  },
];

/** A new kind starts from its own defaults: an Anthropic model name never follows the person to Ollama. */
const DEFAULTS: Record<Curator, { model: string; baseUrl: string }> = { offline: { model: '', baseUrl: '' }, anthropic: { model: 'claude-haiku-4-5', baseUrl: '' }, 'openai-compatible': { model: '', baseUrl: '' } };

function choiceOf(curator: Curator, model: string, baseUrl: string): Params<'Settings.SetCurator'> {
  if (curator === 'offline') return { curator };
  if (curator === 'anthropic') return { curator, model: model.trim() || DEFAULTS.anthropic.model };
  return { curator, model: model.trim(), baseUrl: baseUrl.trim() === '' ? null : baseUrl.trim() };
}

/**
 * The curator choice: the form resets model and endpoint when the kind changes, requires what the
 * kind needs, and tries the endpoint before saving; a failed try names the host and offers Save anyway.
 * What is chosen and typed and not saved yet is kept while the person is elsewhere (useDraft), said
 * unsaved, with Discard changes.
 */
export function CuratorForm({ view, onSaved }: { view: SweeperView; onSaved: () => void }): ReactElement {
  const ids = useId();
  const probe = useAction('Settings.TestCurator');
  const save = useAction('Settings.SetCurator');
  const draft = useDraft('curator', { curator: view.curator, model: view.curator === 'offline' ? '' : view.model, baseUrl: view.baseUrl ?? '' }, sameTrimmed);
  const curator = draft.values.curator as Curator;
  const { model, baseUrl } = draft.values;
  const [missing, setMissing] = useState(false);
  // Only the key field shown keeps a typed key: one for a curator no longer chosen (another chosen,
  // the choice discarded) would otherwise sit unseen, and closing the page would ask about it.
  useEffect(() => {
    for (const { id } of CURATORS) if (id !== 'offline' && id !== curator) keepDraft(keyDraftOf(id), {});
  }, [curator]);

  const putAway = () => (probe.reset(), save.reset(), setMissing(false));
  const choose = (next: Curator) => {
    draft.set('curator', next);
    draft.set('model', next === view.curator && next !== 'offline' ? view.model : DEFAULTS[next].model);
    draft.set('baseUrl', next === view.curator ? (view.baseUrl ?? '') : DEFAULTS[next].baseUrl);
    putAway();
  };
  const commit = () => {
    // The model saved for an empty Anthropic one is shown as the default, so the save read back makes the field saved.
    if (curator === 'anthropic' && model.trim() === '') draft.set('model', DEFAULTS.anthropic.model);
    void save.run(choiceOf(curator, model, baseUrl)).then((done) => done && (probe.reset(), onSaved()));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (curator === 'openai-compatible' && model.trim() === '') return setMissing(true);
    setMissing(false);
    if (curator === 'offline') return commit();
    void probe.run(choiceOf(curator, model, baseUrl)).then((tried) => tried?.ok && commit());
  };
  const problems = fieldErrors(save.error);
  const modelProblem = missing ? 'Name the model your endpoint serves (for Ollama, for example llama3.2).' : problems['sweeper.model'] && `This ${problems['sweeper.model'].message}.`;
  const urlProblem = problems['sweeper.base_url'] && `This ${problems['sweeper.base_url'].message}.`;
  const tried = probe.data;
  return (
    <div className="curator-settings">
      <form id={`${ids}-form`} className="curator-settings__form" onSubmit={submit} aria-label="Project notes curator">
        <fieldset>
          <legend>Who writes the notes</legend>
          {CURATORS.map((c) => (
            <div key={c.id} className="curator-settings__choice">
              <label>
                <input type="radio" name={`${ids}-curator`} value={c.id} checked={curator === c.id} onChange={() => choose(c.id)} /> {c.label}
              </label>
              <p className="field__hint">
                <strong>{c.boundary}</strong> {c.needs}
              </p>
            </div>
          ))}
        </fieldset>
        {curator !== 'offline' && (
          <Field label="Model" hint={curator === 'anthropic' ? 'claude-haiku-4-5 unless you name another.' : 'The model name as your endpoint knows it.'} error={modelProblem}>
            {(control) => <input {...control} className="input" value={model} onChange={(e) => draft.set('model', e.currentTarget.value)} placeholder={curator === 'anthropic' ? 'claude-haiku-4-5' : 'llama3.2'} />}
          </Field>
        )}
        {curator === 'openai-compatible' && (
          <Field label="Base URL" hint="For Ollama on this computer: http://localhost:11434/v1. Empty means OpenAI (api.openai.com)." error={urlProblem}>
            {(control) => <input {...control} className="input" type="url" value={baseUrl} onChange={(e) => draft.set('baseUrl', e.currentTarget.value)} placeholder="http://localhost:11434/v1" />}
          </Field>
        )}
      </form>
      {/* Its own form (a key is stored on its own), so it sits between the choice and the button that saves it. */}
      {curator !== 'offline' && <ApiKeyField curator={curator} view={view} onChanged={onSaved} />}
      <div className="settings-save">
        <Button type="submit" form={`${ids}-form`} variant="primary" disabled={probe.busy || save.busy}>
          {probe.busy ? 'Trying the endpoint…' : save.busy ? 'Saving…' : curator === 'offline' ? 'Save curator' : 'Try and save'}
        </Button>
        {tried && !tried.ok && !save.busy && (
          <Button onClick={commit} disabled={save.busy}>
            Save anyway
          </Button>
        )}
        {!probe.busy && !save.busy && <UnsavedMark draft={{ unsaved: draft.unsaved, discard: () => (draft.discard(), putAway()) }} />}
        {save.data && !save.busy && !draft.unsaved && (
          <span role="status" className="settings-save__said">
            Saved to config.json. The next sweep uses this curator.
          </span>
        )}
      </div>
      {tried && (
        <p role={tried.ok ? 'status' : 'alert'} className={tried.ok ? 'curator-settings__tried' : 'curator-settings__tried curator-settings__tried--failed'} data-testid="curator-tried">
          {plainText(tried.message)}
        </p>
      )}
      <ErrorBanner title="The curator could not be changed." error={save.error} />
      <ErrorBanner title="The endpoint could not be tried." error={probe.error} />
    </div>
  );
}
