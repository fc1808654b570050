import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { Button, ErrorBanner } from '../../components/index.js';
import { useClient } from '../../hooks.js';

type View = Result<'Settings.Get'>['sweeper'];
type Offer = Result<'Settings.LocalModels'>;

/** The daily budget of model calls across every project (remote curators only). */
export function ModelBudget({ view, onChanged }: { view: View; onChanged: () => void }): ReactElement {
  const client = useClient();
  const ids = useId();
  const [draft, setDraft] = useState(String(view.budget.limit));
  const [done, setDone] = useState<string | undefined>();
  const [error, setError] = useState<Error | undefined>();
  useEffect(() => setDraft(String(view.budget.limit)), [view.budget.limit]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(draft);
    if (!client || !Number.isInteger(value) || value < 0) return setError(new Error('The budget is a whole number of calls, 0 or more.'));
    setError(undefined);
    client.call('Settings.SetBudget', { dailyModelCalls: value }).then(
      () => {
        setDone('Saved to config.json.');
        onChanged();
      },
      (e: unknown) => setError(e instanceof Error ? e : new Error('The budget could not be saved.')),
    );
  };

  return (
    <form className="curator-budget" onSubmit={submit} aria-label="Daily budget of model calls">
      <label className="field__label" htmlFor={`${ids}-budget`}>
        Model calls a day, across all projects
      </label>
      <div className="curator-budget__row">
        <input id={`${ids}-budget`} className="input" type="number" min={0} step={1} value={draft} onChange={(e) => setDraft(e.currentTarget.value)} />
        <Button type="submit">Save budget</Button>
      </div>
      <p className="field__hint">
        {view.budget.usedToday} used today. Past the budget, a remote curator pauses until tomorrow (or until you raise it); the offline curator
        costs nothing and is never limited.
      </p>
      {done !== undefined && <p role="status">{done}</p>}
      <ErrorBanner title="The budget could not be changed." error={error} />
    </form>
  );
}

/**
 * Models of a local Ollama server, offered as an OpenAI-compatible curator. Looking is a click and
 * choosing is another: nothing is chosen for the user.
 */
export function LocalModels({ onChosen }: { onChosen: () => void }): ReactElement {
  const client = useClient();
  const ids = useId();
  const [offer, setOffer] = useState<Offer | undefined>();
  const [model, setModel] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | undefined>();
  const [error, setError] = useState<Error | undefined>();

  const look = () => {
    if (!client) return;
    setBusy(true);
    setDone(undefined);
    client.call('Settings.LocalModels', {}).then(
      (o) => {
        setBusy(false);
        setOffer(o);
        setModel(o.models[0] ?? '');
      },
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof Error ? e : new Error('Steward did not answer.'));
      },
    );
  };

  const use = () => {
    if (!client || !offer || model === '') return;
    client.call('Settings.SetCurator', { curator: 'openai-compatible', model, baseUrl: offer.baseUrl }).then(
      () => {
        setDone(`The curator is now ${model} on this computer's Ollama. Transcript text goes to it, on your local network, not to the internet.`);
        onChosen();
      },
      (e: unknown) => setError(e instanceof Error ? e : new Error('The curator could not be changed.')),
    );
  };

  return (
    <div className="local-models" role="group" aria-label="Local models">
      <p className="field__hint">A model served by Ollama on this computer can curate too, with nothing sent to the internet.</p>
      <div className="local-models__row">
        <Button disabled={busy || !client} onClick={look}>
          {busy ? 'Looking…' : 'Find local models'}
        </Button>
      </div>
      {offer && !offer.available && <p role="status">{offer.message}</p>}
      {offer && offer.available && (
        <>
          <p role="status">
            {offer.message} Data boundary: <code>{offer.dataBoundary}</code>.
          </p>
          <div className="local-models__row">
            <label className="field__label" htmlFor={`${ids}-model`}>
              Model
            </label>
            <select id={`${ids}-model`} className="input" value={model} onChange={(e) => setModel(e.currentTarget.value)}>
              {offer.models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <Button variant="primary" disabled={model === ''} onClick={use}>
              Use this model
            </Button>
          </div>
        </>
      )}
      {done !== undefined && <p role="status">{done}</p>}
      <ErrorBanner title="Local models could not be offered." error={error} />
    </div>
  );
}
