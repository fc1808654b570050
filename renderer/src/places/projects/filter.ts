import type { ProjectListed } from '../../../../core/api/index.js';
import { notesLabelOf } from './NotesLabel.js';

/** The address's name for the list's Filter box (`#/projects?filter=api`). */
const FILTER = 'filter';

/** Words most notes labels share: a typed one matches a label only as the whole word, never as a few letters of it. */
const SHARED_WORDS = new Set(['notes', 'no', 'yet', 'project']);

/** Whether a typed word names the notes label: a whole word of it, or the start of one of its own words ("fail", "wait"). */
function inLabel(word: string, label: readonly string[]): boolean {
  return label.some((w) => w === word || (!SHARED_WORDS.has(w) && w.startsWith(word)));
}

/**
 * Whether a row of the project list holds every word typed in its Filter box: in its name, folder or
 * repository (anywhere), or in the notes label the row shows ("failed", "paused", "waiting"), read
 * from the label's own words so the two never drift. A word every label shares ("notes") matches
 * only whole, so "n" or "not" still narrow by name. The tooltip's sentence is not searched: it is not on screen.
 */
export function projectMatches(project: ProjectListed, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const hay = `${project.name} ${project.cwd} ${project.repoId ?? ''}`.toLowerCase();
  const label = notesLabelOf(project.notes).toLowerCase().split(/[\s,]+/);
  return words.every((word) => hay.includes(word) || inLabel(word, label));
}

/** The Filter box's text as the address holds it (none: empty). */
export function filterFrom(params: Record<string, string>): string {
  return params[FILTER] ?? '';
}

/**
 * The list's address with `filter` in it (and the other parameters it had, a section), so a reload, and
 * Back from Search (Ctrl-K) or a project, shows the list as it was filtered. An empty box leaves it out.
 */
export function listHref(params: Record<string, string>, filter: string): string {
  const kept = Object.entries(params).filter(([key]) => key !== FILTER);
  const query = new URLSearchParams(filter === '' ? kept : [...kept, [FILTER, filter]]).toString();
  return query === '' ? '#/projects' : `#/projects?${query}`;
}
