import { z } from 'zod';
import { COLLECTIONS, EMBEDDING_BOUNDARIES, EMBEDDING_PROVIDERS, FORGE_KINDS, RAG_MODES, STAGES, SYNC_MODES } from '../api/index.js';

/** Owner/name as typed by a person: the only alias shape accepted, so aliases are safe to display. */
export const RepoAlias = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/[A-Za-z0-9._-]{1,100}$/, 'expected OWNER/NAME');


export const Policy = z.strictObject({
  sync: z.enum(SYNC_MODES).default('head'),
  collections: z.array(z.enum(COLLECTIONS)).max(COLLECTIONS.length).default(['issues', 'issue-comments']),
  rag: z.enum(RAG_MODES).default('off'),
  profile: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).default('default'),
  /**
   * The widest data boundary a person confirmed for embedding requests. Absent means
   * `local_network`: a `remote` embedder is refused until a confirmed policy names `remote`.
   */
  embeddingBoundary: z.enum(EMBEDDING_BOUNDARIES).optional(),
});
export type Policy = z.output<typeof Policy>;

/**
 * The exact non-secret effective configuration a registration was confirmed with. The endpoint is a
 * destination and stays private; only the snapshot's hash and its RAG identifiers are ever shown.
 */
export const ConfigSnapshot = z.strictObject({
  profile: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  embedding: z.strictObject({
    provider: z.enum(EMBEDDING_PROVIDERS),
    model: z.string().regex(/^[A-Za-z0-9._:/@+-]{1,120}$/),
    revision: z.string().regex(/^[A-Za-z0-9._:+-]{1,64}$/).optional(),
    dimensions: z.number().int().min(1).max(16_384).optional(),
    endpoint: z.string().max(2_000).optional(),
    /** L2-normalize vectors before storing them (the default); part of the namespace key. */
    normalize: z.boolean().optional(),
  }),
  chunk: z.strictObject({
    max_chars: z.number().int().min(100).max(100_000),
    overlap: z.number().int().min(0).max(10_000),
  }),
});
export type ConfigSnapshot = z.output<typeof ConfigSnapshot>;

export const DEFAULT_CONFIG_SNAPSHOT: ConfigSnapshot = {
  profile: 'default',
  // The built-in embedder: retrieval by meaning works on a fresh machine with nothing installed.
  embedding: { provider: 'hash', model: 'hash-ngram' },
  chunk: { max_chars: 2_000, overlap: 200 },
};

export const SourceAuthority = z.strictObject({
  kind: z.enum(['git', 'worktree']),
  ref: z.string().min(1).max(300),
  /** Fingerprint of the local authority (a worktree's real path), never the path. */
  localAuthority: z.string().min(1).max(100),
  profile: z.string().min(1).max(64),
});
export type SourceAuthority = z.output<typeof SourceAuthority>;

export const RepositorySource = z.strictObject({
  sourceId: z.string().min(1).max(100),
  authority: SourceAuthority,
  /** Private, like the cache path: where the local authority lives. Never part of the authority or of status. */
  root: z.string().min(1).max(4096).optional(),
});
export type RepositorySource = z.output<typeof RepositorySource>;


export const StageState = z.strictObject({
  errorClass: z.string().max(64).nullable().default(null),
  failures: z.number().int().min(0).default(0),
  lastFailureAt: z.number().int().nullable().default(null),
  lastSuccessAt: z.number().int().nullable().default(null),
  nextAttemptAt: z.number().int().nullable().default(null),
});
export type StageState = z.output<typeof StageState>;
export const emptyStage = (): StageState => ({ errorClass: null, failures: 0, lastFailureAt: null, lastSuccessAt: null, nextAttemptAt: null });

export const DISABLED_REASONS = ['operator', 'config_snapshot_invalid', 'identity_conflict', 'identity_unresolved', 'cache_clone_conflict'] as const;
export const DEGRADED_KINDS = ['identity_replaced', 'cache_unreadable', 'sync_failed', 'index_failed', 'config_snapshot_invalid'] as const;
export type DegradedKind = (typeof DEGRADED_KINDS)[number];

export const Frontier = z.strictObject({
  collection: z.string().max(64),
  lane: z.enum(['head', 'tail']),
  nextPage: z.number().int().nullable(),
  watermark: z.number().int().nullable(),
  complete: z.boolean(),
});

/** Why sync is not running right now, when that is not a failure: a forge's rate limit, a missing token. */
export const Waiting = z.strictObject({
  reason: z.enum(['rate_limited', 'token_missing', 'forge_unknown']),
  until: z.number().int().nullable(),
  host: z.string().max(255).nullable(),
});
export type Waiting = z.output<typeof Waiting>;

/** What the last sync job found in the cache, per collection: published in status as it was recorded. */
export const CollectionStatus = z.strictObject({
  collection: z.string().max(64),
  items: z.number().int().min(0),
  tombstones: z.number().int().min(0),
  skipped: z.number().int().min(0),
  head: z.strictObject({ state: z.enum(['off', 'never', 'fresh', 'catching-up']), freshAt: z.number().int().nullable() }),
  tail: z.strictObject({
    state: z.enum(['backfilling', 'complete', 'off']),
    pagesDone: z.number().int().min(0),
    pagesKnown: z.number().int().min(0).nullable(),
    verifiedAt: z.number().int().nullable(),
  }),
  reason: z.string().max(64).nullable(),
});
export type CollectionStatus = z.output<typeof CollectionStatus>;

export const Registration = z.strictObject({
  registrationId: z.string(),
  cacheUuid: z.string(),
  canonicalRepoId: z.string(),
  aliases: z.array(z.string()).default([]),
  legacyIds: z.array(z.string()).default([]),
  /** Local service configuration: private, never leaves the registry file. */
  cachePath: z.string(),
  pathFingerprint: z.string(),
  policy: Policy,
  configSnapshot: ConfigSnapshot,
  configHash: z.string(),
  sources: z.array(RepositorySource).default([]),
  enabled: z.boolean(),
  disabledReason: z.enum(DISABLED_REASONS).nullable().default(null),
  degraded: z.array(z.enum(DEGRADED_KINDS)).default([]),
  stages: z.strictObject({ sync: StageState.prefault({}), rag: StageState.prefault({}) }).prefault({}),
  generations: z
    .strictObject({ content: z.number().int().nullable().default(null), covered: z.number().int().nullable().default(null) })
    .prefault({}),
  frontiers: z.array(Frontier).default([]),
  terminalJobIds: z.array(z.string()).default([]),
  enrolledAt: z.number().int(),
  updatedAt: z.number().int(),
  lastWriterAt: z.number().int().nullable().default(null),
  /** The forge as status may show it: kind and host, never the API address. */
  forge: z.strictObject({ kind: z.enum(FORGE_KINDS), host: z.string().max(255) }).nullable().default(null),
  collections: z.array(CollectionStatus).max(16).default([]),
  waiting: Waiting.nullable().default(null),
  lastHeadAt: z.number().int().nullable().default(null),
  nextRunAt: z.number().int().nullable().default(null),
});
export type Registration = z.output<typeof Registration>;

/** The sync fields of a registration that has not synced yet. */
export const unsynced = (): Pick<Registration, 'forge' | 'collections' | 'waiting' | 'lastHeadAt' | 'nextRunAt'> => ({
  forge: null,
  collections: [],
  waiting: null,
  lastHeadAt: null,
  nextRunAt: null,
});

export const ReceiptOutcome = z.union([
  z.strictObject({ ok: z.literal(true), result: z.record(z.string(), z.unknown()) }),
  z.strictObject({ ok: z.literal(false), code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
]);

export const Receipt = z.strictObject({
  key: z.string(),
  operation: z.enum(['enroll', 'conflict_apply', 'add', 'setup', 'remove']),
  requestHash: z.string(),
  /** The opaque physical authority the request named, so clone resolution can project it. */
  pathFingerprint: z.string().nullable().default(null),
  at: z.number().int(),
  outcome: ReceiptOutcome,
});
export type Receipt = z.output<typeof Receipt>;

/** `waiting`: the job did what it could and stopped at a forge rate limit; the reset is its next run. */
export const JOB_STATES = ['running', 'succeeded', 'failed', 'interrupted', 'skipped', 'waiting'] as const;
export const Job = z.strictObject({
  jobId: z.string(),
  jobKey: z.string(),
  registrationId: z.string(),
  cacheUuid: z.string(),
  pathFingerprint: z.string(),
  stage: z.enum(STAGES),
  lane: z.enum(['head', 'tail', 'index']),
  state: z.enum(JOB_STATES),
  startedAt: z.number().int(),
  finishedAt: z.number().int().nullable().default(null),
  errorClass: z.string().max(64).nullable().default(null),
  rescheduledAs: z.string().nullable().default(null),
  rescheduledFrom: z.string().nullable().default(null),
});
export type Job = z.output<typeof Job>;

/** A v1 record as the alias-derived registry stored it; kept verbatim inside unresolved bundles. */
export const LegacyRegistration = z.object({
  id: z.string().min(1).max(200),
  alias: z.string().min(1).max(200),
  cachePath: z.string().min(1).nullable().optional(),
  policy: Policy.prefault({}),
  config: ConfigSnapshot.optional(),
  configHash: z.string().optional(),
  enabled: z.boolean().default(true),
  updatedAt: z.number().int().default(0),
  stages: z.strictObject({ sync: StageState.prefault({}), rag: StageState.prefault({}) }).prefault({}),
  receipts: z.array(Receipt).default([]),
  terminalJobIds: z.array(z.string()).default([]),
  sources: z
    .array(z.strictObject({ sourceId: z.string(), kind: z.enum(['git', 'worktree']), ref: z.string(), localAuthority: z.string(), profile: z.string() }))
    .default([]),
});
export type LegacyRegistration = z.output<typeof LegacyRegistration>;

export const RegistryV1 = z.object({
  version: z.literal(1),
  registrations: z.array(LegacyRegistration).max(10_000),
  redirects: z.record(z.string(), z.string()).default({}),
  conflicts: z.array(z.object({ id: z.string(), aliases: z.array(z.string()).default([]) })).default([]),
});
export type RegistryV1 = z.output<typeof RegistryV1>;

export const CandidateBundle = z.strictObject({
  registration: Registration.nullable(),
  legacy: LegacyRegistration.nullable().default(null),
  priorEnabled: z.boolean(),
});
export type CandidateBundle = z.output<typeof CandidateBundle>;

export const CONFLICT_KINDS = ['identity_conflict', 'identity_unresolved', 'cache_clone_conflict'] as const;
export type ConflictKind = (typeof CONFLICT_KINDS)[number];

export const Candidate = z.strictObject({
  candidateId: z.string(),
  pathFingerprint: z.string().nullable(),
  bundles: z.array(CandidateBundle),
});
export type Candidate = z.output<typeof Candidate>;

export const Conflict = z.strictObject({
  conflictId: z.string(),
  kind: z.enum(CONFLICT_KINDS),
  createdAt: z.number().int(),
  cacheUuid: z.string().nullable(),
  canonicalRepoId: z.string().nullable(),
  aliases: z.array(z.string()).default([]),
  legacyIds: z.array(z.string()).default([]),
  /** A legacy conflict that arrived without paired private candidates: it stays blocked. */
  lossy: z.boolean().default(false),
  candidates: z.array(Candidate),
  /**
   * Set when an enrollment asked to change a maintained registration: that registration stays
   * maintained, as it is, until a person picks a candidate (holding it would stop its maintenance).
   */
  incumbent: z.strictObject({ registrationId: z.string(), pathFingerprint: z.string() }).optional(),
});
export type Conflict = z.output<typeof Conflict>;

export const RetiredRegistration = z.strictObject({
  registration: Registration,
  /** `removed`: a person stopped maintaining it (`Maintenance.Remove`); no conflict was involved. */
  reason: z.enum(['clone_rejected', 'identity_rejected', 'removed']),
  retiredAt: z.number().int(),
  conflictId: z.string().nullable(),
});
export type RetiredRegistration = z.output<typeof RetiredRegistration>;

export const REGISTRY_VERSION = 2;
export const RECEIPT_LIMIT = 256;
export const JOB_LIMIT = 500;
export const RETIRED_LIMIT = 256;
export const TERMINAL_JOB_LIMIT = 50;

export const RegistryV2 = z.strictObject({
  version: z.literal(2),
  registrations: z.array(Registration),
  redirects: z.record(z.string(), z.string()).default({}),
  sourceRedirects: z.record(z.string(), z.string()).default({}),
  conflicts: z.array(Conflict).default([]),
  retired: z.array(RetiredRegistration).default([]),
  receipts: z.array(Receipt).default([]),
  jobs: z.array(Job).default([]),
});
export type RegistryV2 = z.output<typeof RegistryV2>;

export const emptyRegistry = (): RegistryV2 => ({
  version: 2,
  registrations: [],
  redirects: {},
  sourceRedirects: {},
  conflicts: [],
  retired: [],
  receipts: [],
  jobs: [],
});
