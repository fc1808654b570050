import type { ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { Badge, countOf, DetailList, ErrorBanner, formatDateTime, formatRelativeTime, Glossary, Panel, plainText, type BadgeTone } from '../../components/index.js';
import { useAction } from '../../hooks.js';

type Project = Result<'Projects.Get'>;
type Degraded = NonNullable<Project['state']['degraded']>;

const OUTCOME: Record<string, { label: string; tone: BadgeTone }> = {
  ok: { label: 'Updated', tone: 'good' },
  nochange: { label: 'No change', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'danger' },
  paused: { label: 'Paused', tone: 'warn' },
  skipped: { label: 'Skipped', tone: 'neutral' },
};

const CURATOR: Record<string, string> = { offline: 'Offline (no model)', anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible' };

/** What happened to a damaged sweep-state.json, and what it means for the scratch setting. */
function degradedText(d: Degraded): string {
  const what = d.keptAs ? `was damaged; Steward kept it as ${d.keptAs} and started afresh.` : 'could not be read; Steward left it in place.';
  const scratch = d.scratch === 'recovered' ? 'The scratch setting was read back from it.' : 'The scratch setting could not be read back, so the project is held as scratch until you change it.';
  return `The saved sweep state ${what} ${scratch}`;
}

function facts(project: Project): Array<{ term: string; value: ReactElement | string }> {
  const s = project.state;
  const outcome = s.lastOutcome ? OUTCOME[s.lastOutcome] : undefined;
  const items = [
    { term: 'Last sweep', value: s.lastSweepAt === null ? 'Never' : <time dateTime={new Date(s.lastSweepAt).toISOString()} title={formatDateTime(s.lastSweepAt)}>{formatRelativeTime(s.lastSweepAt)}</time> },
    { term: 'Outcome', value: outcome ? <Badge tone={outcome.tone}>{outcome.label}</Badge> : '—' },
    { term: 'Curator', value: s.lastMode === null ? '—' : `${CURATOR[s.lastMode] ?? s.lastMode}${s.lastModel && s.lastMode !== 'offline' ? ` (${s.lastModel})` : ''}` },
    { term: 'Model tokens so far', value: `${countOf(s.tokensIn, 'token')} sent, ${countOf(s.tokensOut, 'token')} received` },
  ];
  if (s.lastError) items.push({ term: 'Last error', value: plainText(s.lastError.message) });
  if (s.consecutiveFailures > 0) items.push({ term: 'Failures in a row', value: String(s.consecutiveFailures) });
  if (s.nextAttemptAt !== null && s.consecutiveFailures > 0) items.push({ term: 'Next attempt', value: formatDateTime(s.nextAttemptAt) });
  if (s.overviewPreserved) items.push({ term: 'Overview', value: 'Kept your edit: lines you add to OVERVIEW.md move into its manual block, which every sweep keeps.' });
  if (s.degraded) items.push({ term: 'Sweep state', value: degradedText(s.degraded) });
  return items;
}

/** The last sweep and its outcome, a paused curator, and the scratch switch with what it means. */
export function ProjectFacts({ project, onChanged }: { project: Project; onChanged: () => void }): ReactElement {
  const scratch = useAction('Projects.SetScratch');
  const set = (value: boolean) => void scratch.run({ projectKey: project.projectKey, scratch: value }).then(onChanged);
  return (
    <Panel title="Notes">
      {project.paused && (
        <p className="project-detail__paused" role="status">
          <Badge tone="warn">Paused</Badge> The {CURATOR[project.paused.curator] ?? project.paused.curator} curator is paused: {plainText(project.paused.message)}
          {project.paused.reason === 'daily_budget' ? '' : ' Fix the account or key, then save the curator again in Settings, or use Sweep now and Sweep anyway.'}
        </p>
      )}
      <DetailList label="Last sweep" items={facts(project)} />
      <label className="project-detail__scratch">
        <input type="checkbox" checked={project.state.scratch} disabled={scratch.busy} onChange={(e) => set(e.currentTarget.checked)} /> Scratch project: never write notes for it
      </label>
      <Glossary term="Scratch project">a folder for throwaway work. Its conversations are kept and searchable, but Steward never writes notes for it.</Glossary>
      <ErrorBanner title="The setting could not be changed." error={scratch.error} />
    </Panel>
  );
}
