import { useState, type ReactElement } from 'react';
import Markdown from 'react-markdown';
import type { Result } from '../../../../core/api/index.js';
import { DetailList, ErrorBanner, formatDateTime, formatRelativeTime, Panel } from '../../components/index.js';
import { useCall, useClient, useEvent } from '../../hooks.js';
import { ForgetProject, ProjectSessions } from './ProjectSessions.js';
import './project-detail.css';

type Project = Result<'Projects.Get'>;
type SweeperRunResult = Result<'Sweeper.Run'>;

const OUTCOME: Record<string, { label: string; tone: string }> = {
  ok: { label: 'Updated', tone: 'good' },
  nochange: { label: 'No change', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'danger' },
  paused: { label: 'Paused', tone: 'paused' },
  skipped: { label: 'Skipped', tone: 'neutral' },
};

const SKIP_REASON: Record<string, string> = {
  'no-activity': 'No new activity since the last sweep.',
  backoff: 'Waiting after recent failures.',
  scratch: 'This is a scratch project; it is never swept.',
  ignored: 'This folder matches sweeper.ignore in config.json.',
  disabled: 'The sweeper is turned off in config.json.',
  'daily-budget': "Today's budget of model calls is spent; remote curation resumes tomorrow, or when you raise the budget in Settings.",
};

/** Markdown from the notes, rendered without raw HTML: any HTML in a note is dropped, never run. */
function Note({ title, text, empty }: { title: string; text: string | null; empty: string }): ReactElement {
  return (
    <Panel title={title}>
      {text === null || text.trim() === '' ? <p className="muted">{empty}</p> : <div className="note-markdown"><Markdown skipHtml>{text}</Markdown></div>}
    </Panel>
  );
}

type Degraded = NonNullable<Project['state']['degraded']>;

/** What happened to a damaged sweep-state.json, and what it means for the scratch setting. */
function degradedText(d: Degraded): string {
  const what = d.keptAs ? `was damaged; Steward kept it as ${d.keptAs} and started afresh.` : 'could not be read; Steward left it in place.';
  const scratch = d.scratch === 'recovered' ? 'The scratch setting was read back from it.' : 'The scratch setting could not be read back, so the project is held as scratch until you change it.';
  return `The saved sweep state ${what} ${scratch}`;
}

function lastSweep(project: Project): ReactElement {
  const s = project.state;
  const outcome = s.lastOutcome ? OUTCOME[s.lastOutcome] : undefined;
  const items = [
    { term: 'Last sweep', value: s.lastSweepAt === null ? 'Never' : <time dateTime={new Date(s.lastSweepAt).toISOString()} title={formatDateTime(s.lastSweepAt)}>{formatRelativeTime(s.lastSweepAt)}</time> },
    { term: 'Outcome', value: outcome ? <span className={`badge badge--${outcome.tone}`}>{outcome.label}</span> : '—' },
    { term: 'Curator', value: s.lastMode === null ? '—' : `${s.lastMode}${s.lastModel ? ` (${s.lastModel})` : ''}` },
    { term: 'Tokens so far', value: `${s.tokensIn} in, ${s.tokensOut} out` },
  ];
  if (s.lastError) items.push({ term: 'Last error', value: `${s.lastError.message} (${s.lastError.code})` });
  if (s.consecutiveFailures > 0) items.push({ term: 'Failures in a row', value: String(s.consecutiveFailures) });
  if (s.nextAttemptAt !== null && s.consecutiveFailures > 0) items.push({ term: 'Next attempt', value: formatDateTime(s.nextAttemptAt) });
  if (s.overviewPreserved) items.push({ term: 'Overview', value: 'Kept your edit; the last sweep did not overwrite it.' });
  if (s.degraded) items.push({ term: 'Sweep state', value: degradedText(s.degraded) });
  return <DetailList label="Last sweep" items={items} />;
}

/**
 * One project's notes (spec 001): OVERVIEW.md and CHANGELOG.md as Markdown, CLAUDE.md where Steward
 * keeps one, the last sweep and its outcome, Sweep now, and the scratch toggle.
 */
export function ProjectDetail({ projectKey, onClose }: { projectKey: string; onClose: () => void }): ReactElement {
  const client = useClient();
  const project = useCall('Projects.Get', { projectKey }, { refreshOn: ['sweeper.finished', 'sweeper.failed'] });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const p = project.data;
  // A sweep the owner started on its own (after new turns) shows here too.
  const [running, setRunning] = useState(false);
  useEvent('sweeper.started', (e) => e.projectKey === projectKey && setRunning(true));
  useEvent('sweeper.finished', (e) => e.projectKey === projectKey && setRunning(false));
  useEvent('sweeper.failed', (e) => e.projectKey === projectKey && setRunning(false));

  const sweep = (force: boolean) => {
    if (!client) return;
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    client.call('Sweeper.Run', { projectKey, force }).then(
      (r: SweeperRunResult) => {
        setMessage(r.outcome === 'skipped' ? (SKIP_REASON[r.reason ?? ''] ?? 'Nothing to do.') : r.outcome === 'ok' ? 'Notes updated.' : 'Swept; nothing changed.');
        setBusy(false);
        project.reload();
      },
      (e: unknown) => {
        setError(e instanceof Error ? e : new Error('The sweep failed.'));
        setBusy(false);
        project.reload();
      },
    );
  };

  const setScratch = (scratch: boolean) => {
    client?.call('Projects.SetScratch', { projectKey, scratch }).then(project.reload, (e: unknown) => setError(e instanceof Error ? e : new Error('Could not change the setting.')));
  };

  const actions = (
    <>
      <button type="button" className="button button--primary" disabled={busy || running || !p || p.state.scratch || p.ignored} onClick={() => sweep(false)}>
        {busy || running ? 'Sweeping…' : 'Sweep now'}
      </button>
      <button type="button" className="button button--quiet" onClick={onClose}>
        Close
      </button>
      {p && <ForgetProject projectKey={projectKey} name={p.name} onForgotten={onClose} />}
    </>
  );

  return (
    <section className="project-detail" aria-label={p ? `Project ${p.name}` : 'Project'}>
      <ErrorBanner title="The project could not be loaded." error={project.error} onRetry={project.reload} />
      <Panel title={p ? p.name : 'Project'} actions={actions}>
        {p === undefined ? (
          <p className="muted">Loading…</p>
        ) : (
          <>
            <p className="project-cwd">{p.cwd}</p>
            {p.paused && (
              <p className="project-detail__paused" role="status">
                <span className="badge badge--paused">Paused</span> The sweeper is paused for {p.paused.curator}: {p.paused.message}
                {p.paused.reason === 'daily_budget' ? '' : ' Fix the account or key, then save the curator again in Settings, or try Sweep now and Sweep anyway.'}
              </p>
            )}
            {lastSweep(p)}
            <label className="project-detail__scratch">
              <input type="checkbox" checked={p.state.scratch} onChange={(e) => setScratch(e.currentTarget.checked)} /> Scratch project: never sweep it
            </label>
            {message !== undefined && (
              <p className="project-detail__message" role="status">
                {message}{' '}
                {message === SKIP_REASON['no-activity'] || message === SKIP_REASON.backoff ? (
                  <button type="button" className="button button--quiet" disabled={busy} onClick={() => sweep(true)}>
                    Sweep anyway
                  </button>
                ) : null}
              </p>
            )}
          </>
        )}
      </Panel>
      <ErrorBanner title="The sweep did not complete; nothing was written." error={error} />
      {(error as { code?: unknown } | undefined)?.code === 'curator_paused' && (
        <p>
          <button type="button" className="button" disabled={busy} onClick={() => sweep(true)}>
            Sweep anyway
          </button>
        </p>
      )}
      <ProjectSessions projectKey={projectKey} />
      {p && (
        <>
          <Note title="OVERVIEW.md" text={p.overview} empty="No overview yet. It is written after the next sweep of new activity." />
          <Note title="CHANGELOG.md" text={p.changelog} empty="No changelog entries yet." />
          {p.claudeMd !== null && <Note title="CLAUDE.md" text={p.claudeMd} empty="" />}
        </>
      )}
    </section>
  );
}
