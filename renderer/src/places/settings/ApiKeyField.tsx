import { type FormEvent, type ReactElement } from 'react';
import type { Params, Result } from '../../../../core/api/index.js';
import { Badge, Button, ErrorBanner, Field } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { sameTrimmed, useDraft } from './drafts.js';
import { UnsavedMark } from './SaveRow.js';

type RemoteCurator = Params<'Settings.SetApiKey'>['curator'];
type View = Result<'Settings.Get'>['sweeper'];

const LABEL: Record<RemoteCurator, string> = { anthropic: 'Anthropic API key', 'openai-compatible': 'OpenAI-compatible API key' };

function presenceBadge(presence: View['apiKeys'][RemoteCurator]): ReactElement {
  if (presence.source === 'keychain') return <Badge tone="good">Key stored in the system keychain</Badge>;
  if (presence.source === 'environment') return <Badge tone="good">Using {presence.envVar} from the environment</Badge>;
  return <Badge tone="warn">No key</Badge>;
}

/** The draft a typed key is kept under, one per curator. */
export function keyDraftOf(curator: RemoteCurator): string {
  return `api-key.${curator}`;
}

/** What is saved, as far as the field knows: nothing (a stored key is never read back). */
const NONE_TYPED = { key: '' };

/** Said of a typed key not saved yet: where it is kept, and where not. */
const KEPT_WORDS = 'Not saved yet: the key is kept only while this window is open, never on disk, until you save or discard it.';

type Props = { curator: RemoteCurator; view: View; onChanged: () => void };

/**
 * The chosen remote curator's key. With the app's keychain the panel can store or clear one; the key
 * is write-only here (a password field, emptied once sent, never read back). Headless mode has no
 * store, so the panel names the environment variable to set instead. One field per curator (keyed by
 * it): a half-typed key never follows the person to another curator.
 */
export function ApiKeyField(props: Props): ReactElement {
  return <KeyField key={props.curator} {...props} />;
}

/**
 * A typed key not saved yet is kept like any Settings edit (useDraft): in the page's memory, so it is
 * still there, said unsaved, when the person comes back from another place, and closing the page asks.
 * Losing a pasted key without a word on a trip to Home is what a person would not expect; keeping it
 * where it outlives the page (localStorage, sessionStorage) would leave a secret on disk, unencrypted,
 * which the keychain exists to prevent. Memory dies with the page; Save or Discard drops it sooner.
 */
function KeyField({ curator, view, onChanged }: Props): ReactElement {
  const setKey = useAction('Settings.SetApiKey');
  const draft = useDraft(keyDraftOf(curator), NONE_TYPED, sameTrimmed);
  const typed = draft.values.key;
  const presence = view.apiKeys[curator];

  const send = (key: string | null) =>
    void setKey.run({ curator, key }).then((result) => {
      if (!result) return;
      // Never read back, so no reload makes it saved: it goes once sent.
      draft.discard();
      onChanged();
    });
  const result = setKey.data;
  const done = result ? (result.stored ? 'Saved in the system keychain. The next sweep uses it.' : result.source === 'environment' ? `Cleared. ${presence.envVar} from the environment applies again.` : 'Cleared.') : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() !== '') send(typed.trim());
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
            value={typed}
            onChange={(e) => draft.set('key', e.currentTarget.value)}
            placeholder={presence.source === 'keychain' ? 'Paste a new key to replace the stored one' : 'Paste a key'}
          />
        )}
      </Field>
      <div className="api-key__actions">
        <Button type="submit" variant="primary" disabled={setKey.busy || typed.trim() === ''}>
          {setKey.busy ? 'Saving…' : 'Save key'}
        </Button>
        {presence.source === 'keychain' && (
          <Button variant="danger" disabled={setKey.busy} onClick={() => send(null)}>
            Clear key
          </Button>
        )}
        {!setKey.busy && <UnsavedMark draft={draft} words={KEPT_WORDS} />}
      </div>
      {done !== undefined && <p role="status">{done}</p>}
      <ErrorBanner title="The key could not be changed." error={setKey.error} />
    </form>
  );
}
