import { useState, type ReactElement } from 'react';
import { Button, CopyButton, DetailList, ErrorBanner, Panel, PathText } from '../../components/index.js';
import { folderOpener, type FolderTarget } from '../../desktop.js';
import type { ConfigView } from './saving.js';
import { SECTIONS } from './sections.js';

function PathValue({ path, what, folder }: { path: string; what: string; folder?: FolderTarget }): ReactElement {
  const open = folder ? folderOpener() : undefined;
  const [error, setError] = useState<string | undefined>();
  return (
    <span className="settings-path">
      <PathText path={path} />
      <span className="settings-path__actions">
        <CopyButton text={path} what={what} />
        {open && folder && (
          <Button variant="quiet" onClick={() => open(folder).catch((e: unknown) => setError(String((e as { message?: unknown }).message ?? 'It could not be opened.')))}>
            Open folder
          </Button>
        )}
      </span>
      <ErrorBanner title="The folder could not be opened." error={error} />
    </span>
  );
}

/** Where this Steward keeps everything: the actual folders, to copy (and, in the app, to open). */
export function FilesPanel({ config }: { config: ConfigView }): ReactElement {
  const { paths } = config;
  return (
    <Panel title={SECTIONS.files.title} id={SECTIONS.files.id}>
      <DetailList
        label="Where Steward keeps its files"
        items={[
          { term: 'Home folder', value: <PathValue path={paths.home} what="the home folder" folder={{ kind: 'home' }} /> },
          { term: 'Settings file', value: <PathValue path={paths.config} what="the settings file" /> },
          { term: 'Project notes', value: <PathValue path={paths.notes} what="the notes folder" /> },
          { term: 'Logs', value: <PathValue path={paths.logs} what="the logs folder" folder={{ kind: 'logs' }} /> },
        ]}
      />
      <p className="field__hint">
        {config.homeKind === 'env' ? 'The home folder is set by the STEWARD_HOME environment variable.' : "The home folder is this computer's usual place for app data."} Everything
        here stays on this computer.
      </p>
    </Panel>
  );
}
