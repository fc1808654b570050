// Owns: repository-cache maintenance (spec 004): the registry, identity, conflicts, writer admission, jobs and sanitized status, over forges/ and lanes/.
// Never: returns or logs a cache path, credential or forge address; never writes a cache outside its writer admission; status says only what ran.
export { Maintenance, type EnrollResult } from './maintenance.js';
export { WriterAdmission } from './admission.js';
export { createRepositoryCache } from './cache.js';
export { syncStage } from './stages.js';
export { type Registration } from './schema.js';
export { distinctSources, gitSource, SourceProblemError, worktreeSource, type SourceProblem } from './sources.js';
export { operationKeyOf, planReadOnly, providerFacts, snapshotsOf, setupStatusOf, type PlanFacts, type ModelState } from './plan/index.js';
export { maintenanceHandlers, scheduleReconcile } from './handlers.js';
export { ragStage, RepositorySearch, repositoryHandlers, profileDeps, type RagStage } from './rag/index.js';
