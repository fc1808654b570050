import { useEffect, useId, useRef, useState, type ReactElement, type RefObject } from 'react';
import type { ProjectListed } from '../../../../core/api/index.js';
import { Button, countOf, DataTable, EmptyState, ErrorBanner, formatCount, formatRelativeTime, Panel, PathText, PlaceHeader, type Column } from '../../components/index.js';
import { useCall, useSectionLanding } from '../../hooks.js';
import { replaceRoute, usePanel } from '../../store.js';
import { projectHref, sessionHref } from '../../navigation.js';
import { lastActiveAt, NO_CONVERSATIONS } from './activity.js';
import { filterFrom, listHref, projectMatches } from './filter.js';
import { ImportHistory } from './ImportHistory.js';
import { IMPORT_SECTION } from './importing.js';
import { NotesLabel } from './NotesLabel.js';
import { forgottenProjectShown, forgottenSentence, lastForgottenProject, lastOpenedProject, listShown, openedFromList } from './opened.js';
import { SweepAll } from './SweepAll.js';
import { Unforget, useLift } from './Unforget.js';
import { WipeStatus } from './WipeStatus.js';
import './projects.css';

const NO_PARAMS: Record<string, string> = {};

const COLUMNS: readonly Column<ProjectListed>[] = [
  {
    header: 'Project',
    sortValue: (p) => p.name,
    // Where its notes stand, always under the name (no column of its own to crowd a narrow table); in a narrow
    // table the folder and conversations columns give way and are shown here too (projects.css).
    cell: (p) => (
      <>
        <a className="project-link" href={projectHref(p.projectKey)} data-project={p.projectKey} onClick={() => openedFromList(p.projectKey)}>
          {p.name}
        </a>
        <NotesLabel notes={p.notes} />
        <span className="project-under-name project-under-name--folder">
          <PathText path={p.cwd} />
        </span>
        <span className="project-under-name project-under-name--count">{p.sessions === 0 ? 'No conversations left' : countOf(p.sessions, 'conversation')}</span>
      </>
    ),
  },
  { header: 'Folder', sortValue: (p) => p.cwd, cell: (p) => <PathText path={p.cwd} /> },
  // A repository id (`gitlab.com/group/sub/name`) wraps at its slashes as a folder does, so a long one does not widen the table.
  { header: 'Repository', sortValue: (p) => p.repoId, cell: (p) => (p.repoBacked ? (p.repoId ? <PathText path={p.repoId} /> : 'git, no origin') : '—') },
  // A project whose conversations were all forgotten or pruned keeps its notes: it says none are left, not "0".
  { header: 'Conversations', align: 'end', sortValue: (p) => p.sessions, cell: (p) => (p.sessions === 0 ? <span className="muted">none left</span> : formatCount(p.sessions)) },
  {
    header: 'Latest conversation',
    sortValue: (p) => p.latestSession?.name ?? null,
    // Its title (a rename, the agent's title, a summary, Claude Desktop's), else the first thing asked.
    // A first request can be a paragraph: two lines of it, the whole in the tooltip and on the conversation's page.
    cell: (p) =>
      p.latestSession ? (
        <a className="project-latest" href={sessionHref(p.latestSession.sessionId)} title={p.latestSession.name ?? undefined}>
          {p.latestSession.name ?? 'Untitled conversation'}
        </a>
      ) : (
        '—'
      ),
  },
  {
    header: 'Last activity',
    sortValue: lastActiveAt,
    cell: (p) => {
      const at = lastActiveAt(p);
      if (at !== null) return <time dateTime={new Date(at).toISOString()}>{formatRelativeTime(at)}</time>;
      return p.sessions === 0 ? <span className="muted">{NO_CONVERSATIONS}</span> : '—';
    },
  },
];

/** A filter that matches no project: said with what was typed, instead of an empty table, with the way back to the whole list. */
export function NoProjectMatches({ filter, onClear }: { filter: string; onClear: () => void }): ReactElement {
  return (
    <p className="project-no-match">
      No project matches “{filter}”.{' '}
      <Button variant="quiet" onClick={onClear}>
        Clear filter
      </Button>
    </p>
  );
}

/**
 * The list's table, and the sentence instead when the filter matches nothing. The table stays in the page then,
 * hidden: it keeps the column it is sorted by, so the list comes back as it was once the filter is changed.
 */
export function ProjectTable({ rows, filter, onClear, selected, tableRef }: { rows: readonly ProjectListed[]; filter: string; onClear: () => void; selected: string | undefined; tableRef: RefObject<HTMLDivElement | null> }): ReactElement {
  return (
    <>
      {rows.length === 0 && <NoProjectMatches filter={filter} onClear={onClear} />}
      <div ref={tableRef} className="project-table" hidden={rows.length === 0}>
        <DataTable caption="Projects" columns={COLUMNS} rows={rows} rowKey={(p) => p.projectKey} selectedKey={selected} initialSort={{ header: 'Last activity', direction: 'descending' }} />
      </div>
    </>
  );
}

/**
 * Every working directory the agents worked in, from `Projects.List`, refreshed after every sweep
 * tick: filtered by a box, sorted by any column, the project opened last highlighted.
 */
export function ProjectList(): ReactElement {
  // Each latest conversation named with its secrets redacted: the list is read on a shared screen too.
  const list = useCall('Projects.List', { redact: true }, { refreshOn: ['sweep.tick', 'history.changed'] });
  // The filter lives in the address (`#/projects?filter=…`), as every view's state does: Back from Search or a project, and a reload, keep it.
  const params = usePanel((state) => (state.route.view === 'projects' ? state.route.params : NO_PARAMS));
  const filter = filterFrom(params);
  const setFilter = (text: string) => replaceRoute(listHref(params, text));
  const filterId = useId();
  const filterBox = useRef<HTMLInputElement>(null);
  // Clear filter goes with the line that held it: the box, now empty, takes the focus.
  const clearFilter = () => (setFilter(''), filterBox.current?.focus());
  const table = useRef<HTMLDivElement>(null);
  const projects = list.data?.projects ?? [];
  const shown = projects.filter((p) => projectMatches(p, filter));
  const selected = lastOpenedProject();
  // A project forgotten from its view: its row is gone, so the list says what happened, with the focus.
  const [forgotten] = useState(lastForgottenProject);
  const notice = useRef<HTMLParagraphElement>(null);
  const lift = useLift();

  // An address that names a section (Import earlier history) lands there, not on the row opened last.
  const section = useSectionLanding(list.data !== undefined);

  useEffect(listShown, []);
  useEffect(() => {
    forgottenProjectShown();
    notice.current?.focus();
  }, []);
  useEffect(() => {
    // Back from a project: its row's link takes the focus again.
    if (list.data === undefined || selected === undefined || forgotten !== undefined || section !== undefined) return;
    // Only a focus the view left behind: the list chosen in the side menu has its heading focused (shell/focus.ts).
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    table.current?.querySelector<HTMLAnchorElement>(`a[data-project="${CSS.escape(selected)}"]`)?.focus();
  }, [list.data === undefined, selected, forgotten, section]);

  return (
    <>
      <PlaceHeader title="Projects" description="Every folder your coding agents have worked in, with its conversations and the notes Steward keeps for it." />
      {forgotten && (
        <div className="project-forgotten">
          {/* Once Unforget lifts it, its sentence gives way to Unforget's, which takes the focus. */}
          {lift.data === undefined && (
            <p role="status" tabIndex={-1} ref={notice}>
              {forgottenSentence(forgotten)}
            </p>
          )}
          {forgotten.wipeAsked && <WipeStatus />}
          <Unforget kind="project" id={forgotten.projectKey} lift={lift} />
        </div>
      )}
      <ErrorBanner title="Projects could not be loaded." error={list.error} onRetry={list.reload} />
      {list.data !== undefined && projects.length === 0 && (
        <EmptyState icon="projects" title="No projects yet" command="steward backfill" commandLabel="Import earlier history now">
          <p>
            Projects appear once transcripts are captured. Steward reads the session transcripts of Claude Code, Claude Desktop&rsquo;s local agent sessions, OpenClaw,
            Codex CLI and Gemini CLI, and groups them by the folder each session ran in.
          </p>
          <p>Nothing has been captured yet, so there is nothing to list. New sessions are picked up by the regular check of the transcript folders.</p>
        </EmptyState>
      )}
      {projects.length > 0 && (
        <>
          <div className="project-filter">
            <label htmlFor={filterId}>Filter</label>
            <input ref={filterBox} id={filterId} className="input" type="search" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} placeholder="Name, folder, repository or notes" />
            <span className="muted" role="status">
              {filter === '' ? countOf(projects.length, 'project') : `${formatCount(shown.length)} of ${countOf(projects.length, 'project')}`}
            </span>
          </div>
          <ProjectTable rows={shown} filter={filter} onClear={clearFilter} selected={selected} tableRef={table} />
          <Panel title="Project notes">
            <SweepAll onDone={list.reload} />
          </Panel>
        </>
      )}
      {/* One stable position, so the import's progress and result survive the list filling in. */}
      {list.data !== undefined && (
        <Panel id={IMPORT_SECTION} title={projects.length === 0 ? 'Import history' : 'Import earlier history'}>
          <ImportHistory onDone={list.reload} />
        </Panel>
      )}
    </>
  );
}
