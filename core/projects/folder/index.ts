// Owns: which project a folder belongs to, from paths alone: the folder itself or its nearest ancestor that has a project.
// Never: answers for a filesystem root or the user's home folder, and never opens the projects table (the session-start hook must start fast).
export { forgottenProjectContaining, projectForFolder } from './folder.js';
export { isTooWideForProject, userHomeDir } from '../containing.js';
export { normalizeCwd, projectKeyOf, projectSlugOf, projectNameOf, detectRepo } from '../derive.js';
