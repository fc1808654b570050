import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Button, EmptyState, ErrorBanner, PathText, PlaceHeader } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { NotFoundTitle } from '../not-found/index.js';
import { NotesFolder, ProjectNotes } from './ProjectNotes.js';
import { ProjectFacts } from './ProjectFacts.js';
import { ForgetProject, ProjectSessions } from './ProjectSessions.js';
import { backToList, conversationToReturnTo, projectForgotten } from './opened.js';
import { SweepNow } from './SweepNow.js';
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
  const [returning] = useState(() => conversationToReturnTo(projectKey) !== undefined);
  useEscapeBack(projectKey);
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
        <PlaceHeader title={p?.name ?? 'Project'} description={p ? <PathText path={p.cwd} /> : project.error ? 'Not loaded.' : 'Loading…'} actions={back} />
      </div>
      {unknown ? (
        <EmptyState icon="projects" title="This project is not in Steward">
          <NotFoundTitle />
          <p>It may have been forgotten, or its conversations removed by the cache retention window. All projects lists what Steward still holds.</p>
        </EmptyState>
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
          <ProjectSessions projectKey={projectKey} />
          <ProjectNotes project={p} />
        </>
      )}
    </section>
  );
}
