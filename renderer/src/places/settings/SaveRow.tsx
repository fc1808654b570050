import type { ReactElement } from 'react';
import { Button, ErrorBanner } from '../../components/index.js';
import type { useSave } from './saving.js';

/** Save, what the save did said beside it, and a refusal's summary (each field's problem sits next to the field). */
export function SaveRow({ saving, label = 'Save', disabled = false }: { saving: ReturnType<typeof useSave>; label?: string; disabled?: boolean }): ReactElement {
  const refused = saving.error?.code === 'config_invalid';
  return (
    <>
      <div className="settings-save">
        {/* Pressed from the keyboard, it keeps the focus while it saves (see Button), beside what the save says. */}
        <Button type="submit" variant="primary" disabled={saving.busy || disabled}>
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
