import type { Handlers, ProjectSummary } from '../api/index.js';
import type { LatestLabels, ProjectRecord, ProjectStore } from './store.js';

/**
 * Names conversations with secrets redacted, each its title else its first request, the request read
 * whole and redacted before it is cut. History does it (it reads the parts); the owner wires it in.
 */
export type RedactedNames = (labels: readonly LatestLabels[]) => Promise<Array<string | null>>;

function summaryOf({ slug: _slug, latestLabels: _labels, ...project }: ProjectRecord): ProjectSummary {
  return project;
}

/** Every project, each latest conversation named with its secrets redacted. */
async function redactedList(projects: ProjectStore, redactedNames: RedactedNames): Promise<ProjectSummary[]> {
  const records = projects.list();
  const names = await redactedNames(records.flatMap((p) => p.latestLabels ?? []));
  let next = 0;
  return records.map((p) => {
    const summary = summaryOf(p);
    // latestLabels and latestSession come from the same row: both or neither.
    if (!p.latestLabels || !summary.latestSession) return summary;
    return { ...summary, latestSession: { ...summary.latestSession, name: names[next++] ?? null } };
  });
}

/** The projects room's part of the contract. */
export function projectsHandlers(projects: ProjectStore, redactedNames: RedactedNames): Pick<Handlers, 'Projects.List'> {
  return {
    'Projects.List': async ({ redact }) => ({ projects: redact === true ? await redactedList(projects, redactedNames) : projects.list().map(summaryOf) }),
  };
}
