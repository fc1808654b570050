import type { ReactElement } from 'react';
import { Button, countOf, ErrorBanner, Panel } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { CuratorForm } from '../settings/CuratorForm.js';
import { AgentContext } from '../settings/AgentContext.js';
import { StartAtLoginChoice } from '../settings/StartAtLogin.js';
import { ImportRest } from './ImportRest.js';
import { Listing } from './Listing.js';
import { useStoredTotals } from './Stored.js';
import { WatchedFolders } from './Watched.js';
import { windowWords } from './window.js';

/** What the scheduled import brought in so far (it started with Steward, with the default window). */
function Imported(): ReactElement {
  const stats = useStoredTotals();
  const s = stats.data;
  return (
    <p data-testid="first-run-stored" data-conversations={s?.conversations}>
      {s === undefined
        ? 'Counting…'
        : s.conversations === 0
          ? 'Nothing was imported yet: no conversation in these folders falls inside the window.'
          : `Imported so far: ${countOf(s.conversations, 'conversation')} with ${countOf(s.messages, 'message')}, from ${countOf(s.projects, 'project')}.`}
    </p>
  );
}

/**
 * The first visit: Steward began importing the moment it started (agents delete their own
 * transcripts, so waiting loses history). This says where it looked and what it found, offers the
 * rest or a narrower window, then who writes the notes and how agents get them.
 */
export function FirstRun({ onDone }: { onDone: () => void }): ReactElement {
  const survey = useCall('Providers.Survey', {}, { refreshOn: ['sweep.tick'] });
  const settings = useCall('Settings.Get', {});
  const done = useAction('App.SetFirstRunDone');
  const span = survey.data && windowWords(survey.data);
  return (
    <section className="first-run" aria-label="Getting started" data-testid="first-run">
      <Panel title="Getting started">
        <div className="first-run">
          <p>
            Steward started importing your agents&rsquo; conversations as soon as it started{span ? `, from ${span}` : ''}: agents delete their own transcripts (Claude
            Code after 30 days), so waiting would lose them. Everything stays on this computer.
          </p>
          <h3 className="first-run__step">1. Where Steward looked</h3>
          <WatchedFolders survey={survey.data} />
          <h3 className="first-run__step">2. What the folders hold, and what was imported</h3>
          <ErrorBanner title="The folders could not be listed." error={survey.error} onRetry={survey.reload} />
          {survey.data && <Listing survey={survey.data} />}
          <Imported />
          {survey.data && <ImportRest survey={survey.data} onImported={survey.reload} />}
          <h3 className="first-run__step">3. Who writes each project&rsquo;s notes</h3>
          {settings.data && <CuratorForm view={settings.data.sweeper} onSaved={settings.reload} />}
          <h3 className="first-run__step">4. How your agents get the notes</h3>
          <AgentContext />
          <h3 className="first-run__step">5. Whether Steward starts when you log in</h3>
          <StartAtLoginChoice />
          <div className="first-run__actions">
            <Button variant="primary" disabled={done.busy} onClick={() => void done.run({ done: true }).then((r) => r && onDone())}>
              Done
            </Button>
            <span className="muted">Everything here stays in Settings.</span>
          </div>
          <ErrorBanner title="This could not be saved." error={done.error} />
        </div>
      </Panel>
    </section>
  );
}
