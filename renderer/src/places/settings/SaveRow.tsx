import { useEffect, useRef, type ReactElement } from 'react';
import { Button, Icon, plainText } from '../../components/index.js';
import { fieldErrors } from '../../hooks.js';
import type { StewardRpcError } from '../../transport.js';
import type { useSave } from './saving.js';

/**
 * Why a save failed, in plain words. A refusal (each field's problem sits next to the field) says only
 * that; what the owner said in its own terms, dotted keys and error code, waits behind Details for a
 * report, where it troubles no one who is only fixing a number.
 */
function SaveError({ error }: { error: StewardRpcError }): ReactElement {
  const refused = error.code === 'config_invalid' && Object.keys(fieldErrors(error)).length > 0;
  return (
    <div className="error-banner" role="alert" data-testid="settings-save-error">
      <Icon name="alert" className="error-banner__icon" />
      <div className="error-banner__text">
        <strong>{refused ? 'Not saved: fix what is marked above. Nothing changed.' : 'The settings could not be saved.'}</strong>
        {!refused && <span>{plainText(error.message)}</span>}
        <details className="settings-error__details">
          <summary>Details</summary>
          {refused && <span>{error.message}</span>}
          <span className="error-banner__code">Code: {error.code}</span>
        </details>
      </div>
    </div>
  );
}

/** A form's edits not saved yet (useDraft): said beside Save, with a way back to what is saved. */
export interface DraftMark {
  unsaved: boolean;
  discard: () => void;
}

/**
 * Edits not saved yet (useDraft), said so beside the form's Save, with a way back to what is saved.
 * `words`: what the form keeps them for, when not the usual.
 */
export function UnsavedMark({ draft, words = 'Not saved yet: your changes stay here until you save or discard them.' }: { draft: DraftMark; words?: string }): ReactElement | null {
  if (!draft.unsaved) return null;
  return (
    <>
      <Button onClick={() => draft.discard()}>Discard changes</Button>
      <span role="status" className="settings-save__said" data-testid="settings-unsaved">
        {words}
      </span>
    </>
  );
}

/**
 * After a refusal, the focus goes to the first field marked (Field's aria-invalid) in the form holding
 * `row`: the summary says "fix what is marked above", and there is where to start.
 */
function useFocusRefused(saving: ReturnType<typeof useSave>) {
  const row = useRef<HTMLDivElement>(null);
  const refused = saving.error?.code === 'config_invalid' && Object.keys(saving.problems).length > 0 ? saving.error : undefined;
  useEffect(() => {
    if (refused) row.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refused]);
  return row;
}

/**
 * Save, what the save did said beside it, and a refusal's summary (each field's problem sits next to the
 * field). With `draft`, edits not saved yet are said so ("Not saved yet", kept while the person is
 * elsewhere in the panel), with Discard changes.
 */
export function SaveRow({ saving, label = 'Save', disabled = false, draft }: { saving: ReturnType<typeof useSave>; label?: string; disabled?: boolean; draft?: DraftMark }): ReactElement {
  const row = useFocusRefused(saving);
  const unsaved = draft?.unsaved === true && !saving.busy;
  return (
    <>
      <div className="settings-save" ref={row}>
        {/* Pressed from the keyboard, it keeps the focus while it saves (see Button), beside what the save says. */}
        <Button type="submit" variant="primary" disabled={saving.busy || disabled}>
          {saving.busy ? 'Saving…' : label}
        </Button>
        {unsaved && draft && <UnsavedMark draft={draft} />}
        {saving.said !== undefined && !saving.busy && !unsaved && (
          <span role="status" className="settings-save__said">
            {saving.said}
          </span>
        )}
      </div>
      {saving.error && <SaveError error={saving.error} />}
    </>
  );
}
