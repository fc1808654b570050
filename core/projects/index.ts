// Owns: working directories → project keys and slugs, repository detection, and the projects table.
// Never: reads transcripts or writes anything outside STEWARD_HOME; sessions are counted through the gateway's read API.
export { projectKeyOf, projectSlugOf, normalizeCwd, detectRepo, canonicalRepoId } from './derive.js';
export { ProjectStore, type ProjectRecord } from './store.js';
export { projectsHandlers } from './handlers.js';
