import { useId, useState, type ReactElement } from 'react';
import { Button, ErrorBanner } from '../../components/index.js';
import { useAction } from '../../hooks.js';

/**
 * Models of a local Ollama server, offered as an OpenAI-compatible curator. Looking is a click and
 * choosing is another: nothing is chosen for the person.
 */
export function LocalModels({ onChosen }: { onChosen: () => void }): ReactElement {
  const ids = useId();
  const look = useAction('Settings.LocalModels');
  const choose = useAction('Settings.SetCurator');
  const [model, setModel] = useState('');
  const offer = look.data;
  const find = () => void look.run({}).then((o) => setModel(o?.models[0] ?? ''));
  const use = () => offer && model !== '' && void choose.run({ curator: 'openai-compatible', model, baseUrl: offer.baseUrl }).then((done) => done && onChosen());
  return (
    <div className="local-models" role="group" aria-label="Local models">
      <p className="field__hint">A model served by Ollama on this computer can write the notes too, with nothing sent to the internet.</p>
      <div className="local-models__row">
        <Button disabled={look.busy} onClick={find}>
          {look.busy ? 'Looking…' : 'Find local models'}
        </Button>
      </div>
      {offer && !offer.available && <p role="status">{offer.message}</p>}
      {offer?.available && (
        <>
          <p role="status">{offer.message}</p>
          <div className="local-models__row">
            <label className="field__label" htmlFor={`${ids}-model`}>
              Model
            </label>
            <select id={`${ids}-model`} className="select" value={model} onChange={(e) => setModel(e.currentTarget.value)}>
              {offer.models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <Button variant="primary" disabled={model === '' || choose.busy} onClick={use}>
              Use this model
            </Button>
          </div>
        </>
      )}
      {choose.data && <p role="status">The curator is now {model} on this computer&rsquo;s Ollama. Transcript text goes to it on your own network, not to the internet.</p>}
      <ErrorBanner title="Local models could not be offered." error={look.error ?? choose.error} />
    </div>
  );
}
