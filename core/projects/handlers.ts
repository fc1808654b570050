import type { Handlers } from '../api/index.js';
import type { ProjectStore } from './store.js';

/** The projects room's part of the contract. */
export function projectsHandlers(projects: ProjectStore): Pick<Handlers, 'Projects.List'> {
  return {
    'Projects.List': () => ({ projects: projects.list().map(({ slug: _slug, ...project }) => project) }),
  };
}
