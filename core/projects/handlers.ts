import type { Handlers, ProjectListed, ProjectNotes, ProjectSummary } from '../api/index.js';
import type { LatestLabels, ProjectRecord, ProjectStore } from './store.js';

/**
 * Names conversations with secrets redacted, each its title else its first request, the request read
 * whole and redacted before it is cut. History does it (it reads the parts); the owner wires it in.
 */
export type RedactedNames = (labels: readonly LatestLabels[]) => Promise<Array<string | null>>;

/**
 * Where each project's notes stand, in the list's order: the sweeper judges it (its gate, its state
 * files, the settings); the owner wires it in, so the list carries it and no one asks per project.
 */
export type NotesOf = (records: readonly ProjectRecord[]) => Promise<ProjectNotes[]>;

function summaryOf({ slug: _slug, latestLabels: _labels, ...project }: ProjectRecord): ProjectSummary {
  return project;
}

/** Every project, each latest conversation named with its secrets redacted. */
async function redactedList(records: readonly ProjectRecord[], redactedNames: RedactedNames): Promise<ProjectSummary[]> {
  const names = await redactedNames(records.flatMap((p) => p.latestLabels ?? []));
  let next = 0;
  return records.map((p) => {
    const summary = summaryOf(p);
    // latestLabels and latestSession come from the same row: both or neither.
    if (!p.latestLabels || !summary.latestSession) return summary;
    return { ...summary, latestSession: { ...summary.latestSession, name: names[next++] ?? null } };
  });
}

/** Each summary with its notes' state, in one pass over the records the list already read. */
async function withNotes(records: readonly ProjectRecord[], summaries: readonly ProjectSummary[], notesOf: NotesOf): Promise<ProjectListed[]> {
  const notes = await notesOf(records);
  return summaries.map((summary, i) => ({ ...summary, notes: notes[i]! }));
}

/** The projects room's part of the contract. */
export function projectsHandlers(projects: ProjectStore, redactedNames: RedactedNames, notesOf: NotesOf): Pick<Handlers, 'Projects.List'> {
  return {
    'Projects.List': async ({ redact }) => {
      const records = projects.list();
      const summaries = redact === true ? await redactedList(records, redactedNames) : records.map(summaryOf);
      return { projects: await withNotes(records, summaries, notesOf) };
    },
  };
}
