import type { ProjectSummary } from '../../../../core/api/index.js';

/** What the list says in "Last activity" for a project that holds no conversation. */
export const NO_CONVERSATIONS = 'No conversations';

/**
 * When a project was last active, as the list shows and sorts it: null for a project holding no
 * conversation (all forgotten or past the retention window, or only subagents seen in its folder),
 * however recent the activity once recorded for it. Its row says so, and sorts last either way.
 */
export function lastActiveAt(project: Pick<ProjectSummary, 'sessions' | 'lastActivityAt'>): number | null {
  return project.sessions === 0 ? null : project.lastActivityAt;
}
