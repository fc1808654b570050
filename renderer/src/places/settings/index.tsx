import type { ReactElement } from 'react';
import { ErrorBanner, PlaceHeader } from '../../components/index.js';
import { useCall, useSectionLanding } from '../../hooks.js';
import { AboutBox } from './AboutBox.js';
import { AgentContext } from './AgentContext.js';
import { CacheRetention } from './CacheRetention.js';
import { CaptureSettings } from './CaptureSettings.js';
import { ComputerSettings } from './ComputerSettings.js';
import { CuratorSettings } from './CuratorSettings.js';
import { FilesPanel } from './FilesPanel.js';
import { ForgottenList } from './ForgottenList.js';
import { NotesSettings } from './NotesSettings.js';
import { SettingsSections } from './SettingsSections.js';
import { TranscriptFolders } from './TranscriptFolders.js';
import './settings.css';

/**
 * Settings a person changes, each checked by the same schema as config.json and saved through its
 * one writer, with what applies now and what at the next start said beside Save; where the files
 * are; and the developer facts in an About box at the end. A list of its sections at the top links
 * each at its own address (`#/settings?section=…`), which opens the page there.
 */
export function SettingsPlace(): ReactElement {
  const config = useCall('Settings.Config', {});
  const budget = useCall('Settings.Get', {});
  const c = config.data;
  // Once config.json is read (or could not be), every section there is to land on is drawn.
  useSectionLanding(c !== undefined || config.error !== undefined);
  return (
    <>
      <PlaceHeader title="Settings" description="What Steward reads, keeps and writes, saved in config.json in Steward's home folder." />
      <SettingsSections configRead={c !== undefined} />
      <ErrorBanner title="The settings could not be read." error={config.error} onRetry={config.reload} />
      {c && (
        <>
          <FilesPanel config={c} />
          <TranscriptFolders config={c} onSaved={config.reload} />
          <CaptureSettings config={c} onSaved={config.reload} />
          <ForgottenList />
          <CuratorSettings>
            <NotesSettings config={c} budgetUsed={budget.data?.sweeper.budget.usedToday ?? 0} onSaved={() => (config.reload(), budget.reload())} />
          </CuratorSettings>
          <AgentContext />
          <ComputerSettings config={c} onSaved={config.reload} />
        </>
      )}
      <CacheRetention />
      <AboutBox />
    </>
  );
}
