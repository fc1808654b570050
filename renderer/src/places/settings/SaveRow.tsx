import { useLayoutEffect, useRef, type ReactElement } from 'react';
import { Button, ErrorBanner } from '../../components/index.js';
import type { useSave } from './saving.js';

/** Save, what the save did said beside it, and a refusal's summary (each field's problem sits next to the field). */
export function SaveRow({ saving, label = 'Save', disabled = false }: { saving: ReturnType<typeof useSave>; label?: string; disabled?: boolean }): ReactElement {
  const refused = saving.error?.code === 'config_invalid';
  const button = useRef<HTMLButtonElement>(null);
  const pressed = useRef(false);
  useLayoutEffect(() => {
    // The button is disabled while saving, which drops the focus to the page. A layout effect still
    // sees it focused (the browser moves the focus away later); once the save is done it takes the
    // focus back, so a keyboard user stays beside the sentence that says what happened.
    if (saving.busy) pressed.current = document.activeElement === button.current || pressed.current;
    else if (pressed.current) {
      pressed.current = false;
      if (document.activeElement === document.body) button.current?.focus();
    }
  }, [saving.busy]);
  return (
    <>
      <div className="settings-save">
        <Button ref={button} type="submit" variant="primary" disabled={saving.busy || disabled}>
          {saving.busy ? 'Saving…' : label}
        </Button>
        {saving.said !== undefined && !saving.busy && (
          <span role="status" className="settings-save__said">
            {saving.said}
          </span>
        )}
      </div>
      <ErrorBanner title={refused ? 'Not saved: fix what is marked above. Nothing changed.' : 'The settings could not be saved.'} error={saving.error} />
    </>
  );
}
