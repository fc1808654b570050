import type { ProjectListed } from '../../../../core/api/index.js';
import { notesLabelOf } from './NotesLabel.js';

/**
 * Whether a row of the project list holds every word typed in its Filter box: in its name, folder,
 * repository, or the notes label the row shows ("failed", "paused", "waiting"), read from the label's
 * own words so the two never drift. The tooltip's sentence is not searched: it is not on screen.
 */
export function projectMatches(project: ProjectListed, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const hay = `${project.name} ${project.cwd} ${project.repoId ?? ''} ${notesLabelOf(project.notes)}`.toLowerCase();
  return words.every((word) => hay.includes(word));
}
