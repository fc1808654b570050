import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { Tombstone } from '../../../../core/api/index.js';
import { Button, EmptyState, ErrorBanner, formatPastTime, PathText, PlaceHeader } from '../../components/index.js';
import { useCall, useViewTitle } from '../../hooks.js';
import { usePanel } from '../../store.js';
import { NotFoundTitle } from '../not-found/index.js';
import { pagesFrom } from '../search/filters.js';
import { NotesFolder, ProjectNotes } from './ProjectNotes.js';
import { ProjectFacts } from './ProjectFacts.js';
import { ForgetProject, ProjectSessions } from './ProjectSessions.js';
import { backToList, conversationToReturnTo, forgottenProjectRecord, projectForgotten } from './opened.js';
import { SweepNow } from './SweepNow.js';
import { Unforget, useLift, type Lift } from './Unforget.js';
import './project-detail.css';

function typingIn(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return element !== null && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

/** Escape returns to the list, unless the person is typing or answering a question in place. */
function useEscapeBack(projectKey: string): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || typingIn(event.target)) return;
      if ((event.target as HTMLElement | null)?.closest('[data-asking]')) return;
      event.preventDefault();
      backToList(projectKey);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [projectKey]);
}

/** When the forget record was made, as a `<time>` a sentence can hold. */
function ForgottenWhen({ record }: { record: Tombstone }): ReactElement {
  return <time dateTime={new Date(record.createdAt).toISOString()}>{formatPastTime(record.createdAt)}</time>;
}

/**
 * Why a project is not in Steward: the person forgot it (its own record, `Forget.List`, says when, with
 * Unforget; once lifted, only what Unforget says stays), or nothing says why. `record`: undefined while
 * the records are read, null when none is the project's. `lift`: see useLift.
 */
export function ProjectNotHeld({ projectKey, record, lift: given }: { projectKey: string; record: Tombstone | null | undefined; lift?: Lift }): ReactElement {
  const lift = useLift(given);
  if (record === undefined) return <p className="muted">Looking for this project…</p>;
  if (record && lift.data !== undefined) return <Unforget kind="project" id={record.id} lift={lift} />;
  if (record) {
    return (
      <EmptyState icon="projects" title={`You forgot the project ${record.label ?? projectKey}`}>
        <p>
          Its conversations and notes were deleted from Steward <ForgottenWhen record={record} />, and it is not imported again while its transcripts stay on disk.
        </p>
        <Unforget kind="project" id={record.id} label="Unforget the project" lift={lift} />
      </EmptyState>
    );
  }
  return (
    <EmptyState icon="projects" title="This project is not in Steward">
      <NotFoundTitle />
      <p>
        No project in Steward is at <code>{projectKey}</code>. Its conversations may have been removed by the cache retention window, or the address is mistyped. All projects lists
        what Steward still holds.
      </p>
    </EmptyState>
  );
}

/** A project Steward does not hold, by its key (or the name an address gave): its forget record, if the person forgot it, says so. */
export function ProjectNotFound({ keyOrName }: { keyOrName: string }): ReactElement {
  const records = useCall('Forget.List', {});
  // Unreadable records say only what is known: it is not in Steward.
  const record = records.data ? (forgottenProjectRecord(records.data.tombstones, keyOrName) ?? null) : records.error ? null : undefined;
  return <ProjectNotHeld projectKey={keyOrName} record={record} />;
}

/**
 * One project at `#/projects/<key>`, as a view of its own: its heading takes the focus, Back and
 * Escape return to the list. Sweep now says what it did beside the button; the notes follow, with
 * the folder they live in.
 */
export function ProjectView({ projectKey }: { projectKey: string }): ReactElement {
  const project = useCall('Projects.Get', { projectKey }, { refreshOn: ['sweeper.finished', 'sweeper.failed'] });
  const heading = useRef<HTMLDivElement>(null);
  const p = project.data;
  // Back from one of its conversations, the conversation's link takes the focus (ProjectSessions), not the heading.
  const [returning] = useState(() => conversationToReturnTo() !== undefined);
  const pages = usePanel((state) => (state.route.view === 'projects' ? pagesFrom(state.route.params) : 1));
  useEscapeBack(projectKey);
  useViewTitle(p?.name);
  useEffect(() => {
    if (!returning) heading.current?.querySelector('h1')?.focus();
  }, [p === undefined, returning]);

  const back = (
    <Button variant="quiet" onClick={() => backToList(projectKey)} aria-keyshortcuts="Escape">
      ← All projects
    </Button>
  );
  // A bookmark to a project that was forgotten (or never captured here) says so, instead of an error to retry.
  const unknown = p === undefined && (project.error as { code?: unknown } | undefined)?.code === 'not_found';
  return (
    <section className="project-detail" aria-label={p ? `Project ${p.name}` : 'Project'} data-project-view={projectKey}>
      <div ref={heading} className="project-detail__heading">
        <PlaceHeader title={p?.name ?? 'Project'} description={p ? <PathText path={p.cwd} /> : unknown ? 'Steward does not hold the project at this address.' : project.error ? 'Not loaded.' : 'Loading…'} actions={back} />
      </div>
      {unknown ? (
        <ProjectNotFound keyOrName={projectKey} />
      ) : (
        <ErrorBanner title="The project could not be loaded." error={project.error} onRetry={project.reload} />
      )}
      {p && (
        <>
          <div className="project-detail__actions">
            <SweepNow project={p} onSwept={project.reload} />
            <ForgetProject
              projectKey={projectKey}
              name={p.name}
              onForgotten={(wipeAsked) => {
                projectForgotten({ projectKey, name: p.name, wipeAsked });
                backToList(projectKey);
              }}
            />
          </div>
          <ProjectFacts project={p} onChanged={project.reload} />
          <NotesFolder project={p} />
          <ProjectSessions projectKey={projectKey} pages={pages} />
          <ProjectNotes project={p} />
        </>
      )}
    </section>
  );
}
