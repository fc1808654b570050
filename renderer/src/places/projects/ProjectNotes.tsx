import { useState, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { Button, CopyButton, ErrorBanner, MarkdownText, Panel, PathText } from '../../components/index.js';
import { folderOpener } from '../../desktop.js';

type Project = Result<'Projects.Get'>;

/** Markdown from the notes, rendered without raw HTML: any HTML in a note is dropped, never run. */
function Note({ title, text, empty }: { title: string; text: string | null; empty: string }): ReactElement {
  return (
    <Panel title={title}>
      {text === null || text.trim() === '' ? <p className="muted">{empty}</p> : <div className="note-markdown"><MarkdownText text={text} /></div>}
    </Panel>
  );
}

/** OVERVIEW.md and CHANGELOG.md, and CLAUDE.md where Steward keeps one (folders that are not git repositories). */
export function ProjectNotes({ project }: { project: Project }): ReactElement {
  return (
    <>
      <Note title="OVERVIEW.md" text={project.overview} empty="No overview yet. It is written after the next sweep of new activity." />
      <Note title="CHANGELOG.md" text={project.changelog} empty="No changelog entries yet." />
      {project.claudeMd !== null && <Note title="CLAUDE.md" text={project.claudeMd} empty="" />}
    </>
  );
}

/** Where the notes live, to copy; in the desktop app also to open in the file manager. */
export function NotesFolder({ project }: { project: Project }): ReactElement {
  const open = folderOpener();
  const [error, setError] = useState<Error | undefined>();
  return (
    <div className="notes-folder" data-testid="notes-folder">
      <span className="notes-folder__label">Notes folder</span> <PathText path={project.notesPath} />
      <span className="notes-folder__actions">
        <CopyButton text={project.notesPath} what="the notes folder" />
        {open && (
          <Button variant="quiet" onClick={() => open({ kind: 'notes', projectKey: project.projectKey }).catch((e: unknown) => setError(e instanceof Error ? e : new Error(String((e as { message?: unknown }).message ?? 'It could not be opened.'))))}>
            Open folder
          </Button>
        )}
      </span>
      <ErrorBanner title="The folder could not be opened." error={error} />
    </div>
  );
}
