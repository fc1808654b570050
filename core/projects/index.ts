export { projectKeyOf, projectSlugOf, projectNameOf, normalizeCwd, detectRepo, canonicalRepoId, type RepoInfo } from './derive.js';
export { ProjectStore, type ProjectSummary } from './store.js';
export { projectContaining, isTooWideForProject, userHomeDir } from './containing.js';
