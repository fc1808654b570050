// Maintenance (spec 004): the managed-cache registry, cache identity and conflicts, writer admission, jobs and sanitized status, over forges/ and lanes/.
// Never puts a cache path, a token or a forge address into status, logs or errors; never writes a cache outside its writer admission.
export { Maintenance, type MaintenanceOptions, type EnrollParams, type EnrollResult, type AddParams, type AddResult } from './maintenance.js';
export { namespaceOf, type StageContext, type StageOutcome, type StageRunner, type LaneDue } from './jobs.js';
export { syncStage } from './stages.js';
export { DEFAULT_LANE_SETTINGS, type LaneSettings, type Tally } from './lanes/index.js';
export { TOKEN_NAMES, DEFAULT_TRANSPORT, type TransportOptions, type ForgeKind } from './forges/index.js';
export { WriterAdmission, type Admitted, type WriterKind } from './admission.js';
export { createRepositoryCache, inspectCache, openCacheForWrite, CACHE_SCHEMA_VERSION, IDENTITY_SCHEMA_VERSION, type CacheInspection, type RepositorySeed } from './cache.js';
export { RegistryStore, serializeRegistry, type RegistryLoad } from './registry.js';
export { migrateV1, type LegacyInspector } from './migrate.js';
export { canonicalize, followRedirects, registrationIdFor, configHashOf } from './identity.js';
export { backoffMs, errorClassOf, validateSnapshot, BACKOFF_CAP_MINUTES } from './policy.js';
export { loadInstallSecret, pathFingerprinter, SECRET_FILE } from './hashing.js';
export { RegistryV1, RegistryV2, REGISTRY_VERSION, DEFAULT_CONFIG_SNAPSHOT, type Registration, type ConfigSnapshot } from './schema.js';
export { maintenanceHandlers, scheduleReconcile } from './handlers.js';
