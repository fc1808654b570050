// Owns: working directories → project keys and slugs, repository detection, and the projects table.
// Never: reads transcripts or writes anything outside STEWARD_HOME; sessions are counted through the gateway's read API.
export { canonicalRepoId, comparableFolder, displayFolder, folderHashOf, isAbsoluteFolder, isWindowsForm, normalizeCwd, projectKeyOf } from './derive.js';
export { ProjectStore } from './store.js';
export { projectsHandlers } from './handlers.js';
export { projectContaining, userHomeDir } from './containing.js';
