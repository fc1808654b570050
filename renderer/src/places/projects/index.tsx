import { useState, type ReactElement } from 'react';
import type { ProjectSummary } from '../../../../core/api/index.js';
import { DataTable, EmptyState, ErrorBanner, formatCount, formatRelativeTime, Panel, PlaceHeader, type Column } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { ImportHistory } from './ImportHistory.js';
import { ProjectDetail } from './ProjectDetail.js';
import { SweepAll } from './SweepAll.js';
import './projects.css';

const columns = (open: (projectKey: string) => void): readonly Column<ProjectSummary>[] => [
  {
    header: 'Project',
    cell: (p) => (
      <button type="button" className="project-link" onClick={() => open(p.projectKey)}>
        {p.name}
      </button>
    ),
  },
  { header: 'Folder', cell: (p) => <span className="project-cwd">{p.cwd}</span> },
  { header: 'Repository', cell: (p) => (p.repoBacked ? (p.repoId ?? 'git, no origin') : '—') },
  { header: 'Sessions', align: 'end', cell: (p) => formatCount(p.sessions) },
  {
    header: 'Latest session',
    // Its title (a rename, the agent's title, a summary, Claude Desktop's), else the first thing asked.
    cell: (p) => (p.latestSession ? <span className="project-session">{p.latestSession.name ?? 'Untitled'}</span> : '—'),
  },
  {
    header: 'Last activity',
    cell: (p) => (p.lastActivityAt === null ? '—' : <time dateTime={new Date(p.lastActivityAt).toISOString()}>{formatRelativeTime(p.lastActivityAt)}</time>),
  },
];

/**
 * Projects: one row per working directory the agents worked in, from `Projects.List`, refreshed
 * after every sweep tick. On first run it offers the onboarding "Import history".
 */
export function ProjectsPlace(): ReactElement {
  const list = useCall('Projects.List', {}, { refreshOn: ['sweep.tick', 'history.changed'] });
  const projects = list.data?.projects ?? [];
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <>
      <PlaceHeader title="Projects" description="Every folder your coding agents have worked in, with its sessions and the notes Steward keeps for it." />
      <ErrorBanner title="Projects could not be loaded." error={list.error} onRetry={list.reload} />
      {list.data !== undefined && projects.length === 0 && (
        <EmptyState icon="projects" title="No projects yet" command="steward backfill" commandLabel="Import earlier history now">
          <p>
            Projects appear once transcripts are captured. Steward reads the session transcripts of Claude Code, Claude Desktop&rsquo;s local
            agent sessions, OpenClaw, Codex CLI and Gemini CLI, and groups them by the folder each session ran in.
          </p>
          <p>Nothing has been captured yet, so there is nothing to list. New sessions are picked up by the regular transcript sweep.</p>
        </EmptyState>
      )}
      {projects.length > 0 && (
        <>
          <DataTable caption="Projects" columns={columns(setSelected)} rows={projects} rowKey={(p) => p.projectKey} />
          {selected !== null && <ProjectDetail key={selected} projectKey={selected} onClose={() => setSelected(null)} />}
          <Panel title="Project notes">
            <SweepAll onDone={list.reload} />
          </Panel>
        </>
      )}
      {/* One stable position, so the import's progress and result survive the list filling in. */}
      {list.data !== undefined && (
        <Panel title={projects.length === 0 ? 'Import history' : 'Import earlier history'}>
          <ImportHistory onDone={list.reload} />
        </Panel>
      )}
    </>
  );
}
