import type { ReactElement } from 'react';
import type { NotesState, ProjectNotes } from '../../../../core/api/index.js';
import { Badge, plainText } from '../../components/index.js';

/**
 * Each notes state in the words the list shows (one per NOTES_STATES entry: the type says when one
 * is missing). A failure or a pause is a badge, as the panel marks other problems; the rest is quiet.
 */
export const NOTES_LABELS: Readonly<Record<NotesState, { label: string; tone?: 'danger' | 'warn' }>> = {
  current: { label: 'Notes current' },
  waiting: { label: 'Notes waiting' },
  failed: { label: 'Notes failed', tone: 'danger' },
  paused: { label: 'Notes paused', tone: 'warn' },
  scratch: { label: 'Scratch project' },
  ignored: { label: 'Ignored, no notes' },
  off: { label: 'Notes off' },
  none: { label: 'No notes yet' },
};

/** The words of a project's notes label, as the list shows them and its Filter box matches them. */
export function notesLabelOf(notes: ProjectNotes): string {
  return NOTES_LABELS[notes.state].label;
}

/**
 * The sweeper's sentence in the panel's words: where it names the CLI's `steward sweeper run`, the
 * panel has its own action for the same (Sweep now on the project's page, or Sweep all projects now…).
 */
export function panelNotesWords(words: string): string {
  return words.replace(/`steward sweeper run` (writes them|curates it) now\./, "Sweep now on the project's page, or Sweep all projects now below the list, $1.");
}

/**
 * The sentence read out after the label: where it starts with the label's own words ("No notes yet;
 * …"), a screen reader would say them twice, so it is read from what follows them.
 */
function afterLabel(label: string, words: string): string {
  if (!words.toLowerCase().startsWith(label.toLowerCase())) return words;
  return words.slice(label.length).replace(/^[\s:;,.]+/, '');
}

/**
 * Where a project's notes stand, as a short label under its name: the sweeper's whole sentence is
 * its tooltip and is read out after it, so the label never stands alone for a screen reader.
 */
export function NotesLabel({ notes }: { notes: ProjectNotes }): ReactElement {
  const { label, tone } = NOTES_LABELS[notes.state];
  const words = plainText(panelNotesWords(notes.words));
  return (
    <span className="project-notes" data-notes={notes.state} title={words}>
      {tone ? <Badge tone={tone}>{label}</Badge> : label}
      <span className="visually-hidden">: {afterLabel(label, words)}</span>
    </span>
  );
}
