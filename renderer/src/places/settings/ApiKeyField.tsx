import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { Badge, Button, ErrorBanner, Field } from '../../components/index.js';
import { useAction } from '../../hooks.js';

type RemoteCurator = Params<'Settings.SetApiKey'>['curator'];
type View = Result<'Settings.Get'>['sweeper'];

const LABEL: Record<RemoteCurator, string> = { anthropic: 'Anthropic API key', 'openai-compatible': 'OpenAI-compatible API key' };

function presenceBadge(presence: View['apiKeys'][RemoteCurator]): ReactElement {
  if (presence.source === 'keychain') return <Badge tone="good">Key stored in the system keychain</Badge>;
  if (presence.source === 'environment') return <Badge tone="good">Using {presence.envVar} from the environment</Badge>;
  return <Badge tone="warn">No key</Badge>;
}

/**
 * The chosen remote curator's key. With the app's keychain the panel can store or clear one; the key
 * is write-only here (a password field, emptied once sent, never read back). Headless mode has no
 * store, so the panel names the environment variable to set instead.
 */
export function ApiKeyField({ curator, view, onChanged }: { curator: RemoteCurator; view: View; onChanged: () => void }): ReactElement {
  const setKey = useAction('Settings.SetApiKey');
  const [draft, setDraft] = useState('');
  const presence = view.apiKeys[curator];
  const { reset } = setKey;

  // A half-typed key never follows the person to another curator.
  useEffect(() => {
    setDraft('');
    reset();
  }, [curator, reset]);

  const send = (key: string | null) =>
    void setKey.run({ curator, key }).then((result) => {
      if (!result) return;
      setDraft('');
      onChanged();
    });
  const result = setKey.data;
  const done = result ? (result.stored ? 'Saved in the system keychain. The next sweep uses it.' : result.source === 'environment' ? `Cleared. ${presence.envVar} from the environment applies again.` : 'Cleared.') : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim() !== '') send(draft.trim());
  };

  const localNote = curator === 'openai-compatible' ? ' Local servers need no key.' : '';
  if (!view.keyStore.writable) {
    return (
      <div className="api-key" aria-label={LABEL[curator]} role="group">
        <p className="field__hint">
          {presenceBadge(presence)} {view.keyStore.message} Set <code>{presence.envVar}</code> in Steward&apos;s environment and restart it.{localNote}
        </p>
      </div>
    );
  }
  return (
    <form className="api-key" onSubmit={submit} aria-label={LABEL[curator]}>
      <Field label={LABEL[curator]} hint={<>{presenceBadge(presence)} Kept encrypted by the operating system&apos;s keychain, never in config.json.{localNote}</>}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            placeholder={presence.source === 'keychain' ? 'Paste a new key to replace the stored one' : 'Paste a key'}
          />
        )}
      </Field>
      <div className="api-key__actions">
        <Button type="submit" variant="primary" disabled={setKey.busy || draft.trim() === ''}>
          {setKey.busy ? 'Saving…' : 'Save key'}
        </Button>
        {presence.source === 'keychain' && (
          <Button variant="danger" disabled={setKey.busy} onClick={() => send(null)}>
            Clear key
          </Button>
        )}
      </div>
      {done !== undefined && <p role="status">{done}</p>}
      <ErrorBanner title="The key could not be changed." error={setKey.error} />
    </form>
  );
}
