import type { ReactElement } from 'react';
import { usePanel } from '../../store.js';
import { ProjectList } from './ProjectList.js';
import { ProjectView } from './ProjectView.js';

/**
 * Projects: the list of every folder the agents worked in (`#/projects`), and each project as a view
 * of its own (`#/projects/<key>`), so a project has an address, Back returns to the list, and the
 * list gives the focus back to the row that was opened.
 */
export function ProjectsPlace(): ReactElement {
  const projectKey = usePanel((state) => (state.route.view === 'projects' ? state.route.projectKey : undefined));
  return projectKey === undefined ? <ProjectList /> : <ProjectView key={projectKey} projectKey={projectKey} />;
}
