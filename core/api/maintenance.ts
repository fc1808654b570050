import { z } from 'zod';
import { COLLECTIONS, EMBEDDING_BOUNDARIES, FORGE_KINDS, LANES, RAG_MODES, STAGES, SYNC_MODES } from './lists.js';
import { ConflictView } from './conflicts.js';
import { IdempotencyKey } from './ids.js';

/**
 * Spec 004's low-level maintenance surface. Every shape here is public:
 * path fingerprints and hashes only — never a cache path, credential, cookie or destination URL.
 */
const Id = z.string().min(1).max(200);
const Repo = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/[A-Za-z0-9._-]{1,100}$/, 'expected OWNER/NAME');

export const MaintenancePolicy = z.strictObject({
  sync: z.enum(SYNC_MODES).optional(),
  collections: z.array(z.enum(COLLECTIONS)).max(COLLECTIONS.length).optional(),
  rag: z.enum(RAG_MODES).optional(),
  profile: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).optional(),
  /** The widest data boundary confirmed for embedding requests (default `local_network`). */
  embeddingBoundary: z.enum(EMBEDDING_BOUNDARIES).optional(),
});

/** Validated in depth by the maintenance room (which answers config_snapshot_invalid), not here. */
const SnapshotInput = z.record(z.string(), z.unknown());

const StageStatus = z.strictObject({
  errorClass: z.string().nullable(),
  failures: z.number().int(),
  lastFailureAt: z.number().int().nullable(),
  lastSuccessAt: z.number().int().nullable(),
  nextAttemptAt: z.number().int().nullable(),
});

export const JobStatus = z.strictObject({
  jobId: z.string(),
  stage: z.enum(STAGES),
  lane: z.enum(LANES),
  state: z.enum(['running', 'succeeded', 'failed', 'interrupted', 'skipped', 'waiting']),
  startedAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
  errorClass: z.string().nullable(),
  rescheduledAs: z.string().nullable(),
  rescheduledFrom: z.string().nullable(),
});
export type JobStatus = z.infer<typeof JobStatus>;

/**
 * One collection of a registration as its last sync job found it: live items (tombstoned ones
 * apart), head freshness (the last proven-fresh time), tail coverage, and why it is not moving.
 */
export const CollectionStatus = z.strictObject({
  collection: z.string(),
  items: z.number().int(),
  tombstones: z.number().int(),
  /** Malformed records or pages too large to read: counted, never dropped silently. */
  skipped: z.number().int(),
  head: z.strictObject({ state: z.enum(['off', 'never', 'fresh', 'catching-up']), freshAt: z.number().int().nullable() }),
  tail: z.strictObject({
    state: z.enum(['backfilling', 'complete', 'off']),
    pagesDone: z.number().int(),
    pagesKnown: z.number().int().nullable(),
    verifiedAt: z.number().int().nullable(),
  }),
  /** `token_missing`, `rate_limited`, `forge_unknown`, `absent` (no wiki), `unsupported`, `source_unavailable`, or null. */
  reason: z.string().nullable(),
});
export type CollectionStatus = z.infer<typeof CollectionStatus>;

export const Waiting = z.strictObject({
  reason: z.enum(['rate_limited', 'token_missing', 'forge_unknown']),
  until: z.number().int().nullable(),
  host: z.string().nullable(),
});

export const RegistrationStatus = z.strictObject({
  registrationId: z.string(),
  cacheUuid: z.string(),
  pathFingerprint: z.string(),
  canonicalRepoId: z.string(),
  aliases: z.array(z.string()),
  legacyIds: z.array(z.string()),
  policy: z.strictObject({
    sync: z.enum(SYNC_MODES),
    collections: z.array(z.string()),
    rag: z.enum(RAG_MODES),
    profile: z.string(),
  }),
  configHash: z.string(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  /**
   * `ready` only when every configured lane has run and proven what it claims; `pending` before the
   * first sync; `waiting` on a rate limit or a missing token.
   */
  state: z.enum(['ready', 'refreshing', 'indexing', 'backfilling', 'blocked', 'disabled', 'degraded', 'pending', 'waiting']),
  degraded: z.array(z.string()),
  stages: z.strictObject({ sync: StageStatus, rag: StageStatus }),
  generations: z.strictObject({ content: z.number().int().nullable(), covered: z.number().int().nullable() }),
  frontiers: z.array(
    z.strictObject({
      collection: z.string(),
      lane: z.enum(['head', 'tail']),
      nextPage: z.number().int().nullable(),
      watermark: z.number().int().nullable(),
      complete: z.boolean(),
    }),
  ),
  jobs: z.array(JobStatus),
  /** Kind and web host of the forge; never its API address. Null when the cache names no known forge. */
  forge: z.strictObject({ kind: z.enum(FORGE_KINDS), host: z.string() }).nullable(),
  collections: z.array(CollectionStatus),
  waiting: Waiting.nullable(),
  /** The next time the scheduler runs something for this registration (backoff, rate limit or interval). */
  nextRunAt: z.number().int().nullable(),
});
export type RegistrationStatus = z.infer<typeof RegistrationStatus>;

const RegistryState = z.strictObject({
  state: z.enum(['ok', 'missing', 'migrated', 'degraded']),
  reason: z.string().nullable(),
  version: z.number().int(),
});

const ReconcileResult = z.strictObject({
  visited: z.number().int(),
  jobs: z.array(JobStatus.extend({ registrationId: z.string(), coalesced: z.boolean() })),
  skipped: z.array(
    z.strictObject({
      registrationId: z.string(),
      stage: z.enum(STAGES).nullable(),
      lane: z.enum(LANES).nullable(),
      reason: z.string(),
      nextAttemptAt: z.number().int().nullable(),
    }),
  ),
});
export type ReconcileResult = z.infer<typeof ReconcileResult>;

const EnrollResult = z.strictObject({
  registrationId: z.string(),
  cacheUuid: z.string(),
  pathFingerprint: z.string(),
  canonicalRepoId: z.string(),
  configHash: z.string(),
  created: z.boolean(),
  replayed: z.boolean(),
});

const RegistrationRef = z.strictObject({ registrationId: Id });

const Forge = z.enum(FORGE_KINDS);

export const maintenanceMethods = {
  'Maintenance.Enroll': {
    params: z.strictObject({
      cachePath: z.string().min(1).max(4096),
      repo: Repo,
      policy: MaintenancePolicy.optional(),
      config: SnapshotInput.optional(),
      sources: z
        .array(z.strictObject({ kind: z.enum(['git', 'worktree']), ref: z.string().min(1).max(300), root: z.string().min(1).max(4096) }))
        .max(32)
        .optional(),
      idempotencyKey: IdempotencyKey,
    }),
    result: EnrollResult,
  },
  /** Creates a cache in STEWARD_HOME/caches/ bound to one forge repository, then enrolls it. */
  'Maintenance.Add': {
    params: z.strictObject({
      repo: Repo,
      forge: Forge.optional(),
      /** The API root; defaults per forge (Gitea has none). Private once stored: status shows only the host. */
      baseUrl: z.string().min(1).max(2_000).optional(),
      policy: MaintenancePolicy.optional(),
      idempotencyKey: IdempotencyKey,
    }),
    result: EnrollResult.extend({ cacheCreated: z.boolean() }),
  },
  'Maintenance.List': {
    params: z.strictObject({}),
    result: z.strictObject({
      registry: RegistryState,
      registrations: z.array(RegistrationStatus),
      conflicts: z.array(z.strictObject({ conflictId: z.string(), kind: ConflictView.shape.kind, state: z.enum(['open', 'blocked']), candidates: z.number().int() })),
      retired: z.number().int(),
      activeWriters: z.number().int(),
    }),
  },
  'Maintenance.Reconcile': { params: z.strictObject({}), result: ReconcileResult },
  'Maintenance.ReconcileRegistration': { params: RegistrationRef, result: ReconcileResult },
  'Maintenance.ResolveConfig': {
    params: z.strictObject({ config: SnapshotInput }),
    result: z.strictObject({
      configHash: z.string(),
      rag: z.strictObject({ profile: z.string(), namespace: z.string(), embeddingProvider: z.string(), model: z.string() }),
    }),
  },
  'Maintenance.Disable': { params: RegistrationRef, result: z.strictObject({ registration: RegistrationStatus }) },
  'Maintenance.Enable': { params: RegistrationRef, result: z.strictObject({ registration: RegistrationStatus }) },
} as const;

export const maintenanceEvents = {
  /** The registry changed (enrollment, a job started or finished, a conflict appeared or was resolved). */
  'maintenance.changed': z.strictObject({
    at: z.number().int(),
    registrations: z.number().int(),
    conflicts: z.number().int(),
  }),
  /** A sync job moved: after each window or head pass (counts only, never content or addresses). */
  'maintenance.progress': z.strictObject({
    at: z.number().int(),
    registrationId: z.string(),
    lane: z.enum(['head', 'tail']),
    requests: z.number().int(),
    inserted: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    skipped: z.number().int(),
    tombstoned: z.number().int(),
  }),
} as const;
