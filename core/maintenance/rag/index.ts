// Owns: retrieval over repository caches — chunking, embedding profiles and their data boundaries, namespaces and coverage, hybrid (BM25 + vector) search.
// Never: sends repository text across a data boundary the registration's confirmed policy does not allow, downloads a model, or returns a cache path.
export { ragStage, profileDeps, type RagStage, type RagStageOptions } from './stage.js';
export { boundaryOf, endpointOf, resolveProfile, revisionOf, type ProfileDeps } from './profiles.js';
export { RepositorySearch } from './search.js';
export { repositoryHandlers } from './handlers.js';
