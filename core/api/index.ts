// Owns: the one contract — every method and event (zod schemas), the domain's word lists, typed errors, the dispatcher and the event bus.
// Never: imports another room or a Node built-in; every runtime (core, electron, the browser panel) can load it.
export * from './contract.js';
export * from './errors.js';
export * from './dispatcher.js';
export * from './events.js';
export * from './client.js';
export * from './lists.js';
export { PROVIDERS, PROVIDER_IDS, rootKinds, type ProviderId, type RootKey, type RootKind, type ProviderDescriptor } from './providers.js';
export { ProjectKey, IdempotencyKey } from './ids.js';
export { PROTOCOL_VERSION, AppStatus } from './app.js';
export { TelemetryEntry } from './telemetry.js';
export { ProviderSweepStats, SweepResult } from './sweep.js';
export { ProjectSummary } from './projects.js';
export { SweeperStateView, SweeperRunResult, CuratorPause } from './sweeper.js';
export { PruneReport } from './cache.js';
export { RegistrationStatus, JobStatus, MaintenancePolicy, type ReconcileResult } from './maintenance.js';
export { ConflictView, ConflictCandidate, ConflictPlan } from './conflicts.js';
export { RepositoryHit, SEARCH_DEGRADED, DEGRADED_TEXT, type SearchDegraded } from './repository.js';
