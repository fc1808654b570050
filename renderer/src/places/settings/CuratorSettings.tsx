import type { ReactElement } from 'react';
import { Badge, ErrorBanner, Panel, plainText } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { CURATORS, CuratorForm } from './CuratorForm.js';
import { LocalModels } from './LocalModels.js';
import { SECTIONS } from './sections.js';
import './curator.css';

/**
 * Who writes the project notes, written to config.json by `Settings.SetCurator`. API keys never go
 * to config.json: the desktop app keeps them in the system keychain, headless mode reads them from
 * the environment.
 */
export function CuratorSettings({ children }: { children?: ReactElement }): ReactElement {
  const settings = useCall('Settings.Get', {});
  const view = settings.data?.sweeper;
  const saved = CURATORS.find((c) => c.id === view?.curator);
  return (
    <Panel title={SECTIONS.projectNotes.title} id={SECTIONS.projectNotes.id}>
      <ErrorBanner title="The curator settings could not be loaded." error={settings.error} onRetry={settings.reload} />
      {view?.paused.map((pause) => (
        <p key={pause.curator} role="status">
          <Badge tone="warn">Paused</Badge> The {CURATORS.find((c) => c.id === pause.curator)?.label ?? pause.curator} curator is paused: {plainText(pause.message)}
          {pause.reason === 'daily_budget' ? '' : ' Saving the choice again resumes it.'}
        </p>
      ))}
      {view && <CuratorForm view={view} onSaved={settings.reload} />}
      {view && saved && (
        <p className="field__hint" data-testid="curator-boundary">
          Now: {saved.label}. {saved.boundary}
        </p>
      )}
      <LocalModels onChosen={settings.reload} />
      {children}
    </Panel>
  );
}
