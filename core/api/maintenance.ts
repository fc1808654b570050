import { z } from 'zod';
import { DOCUMENT_SOURCES_LIMIT } from './document-sources.js';
import { COLLECTIONS, DATA_BOUNDARIES, EFFECT_CLASSES, EMBEDDING_BOUNDARIES, FORGE_KINDS, LANES, RAG_MODES, SETUP_STATUSES, STAGES, SYNC_MODES } from './lists.js';
import { ConflictView } from './conflicts.js';
import { IdempotencyKey, RepoId } from './ids.js';
import { HttpUrl } from './settings.js';

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

/**
 * Local document sources of a registration: a worktree as it is on disk, or a git repository at a
 * ref (`Maintenance.Enroll` and `Maintenance.Add`). The root is private once stored: status never shows it.
 */
/** A git ref as git reads it: one that starts with `-` would reach git as an option, never a ref. */
const SourceRef = z
  .string()
  .min(1)
  .max(300)
  .refine((ref) => !ref.startsWith('-'), 'a ref may not start with "-"');

export const DocumentSource = z.strictObject({ kind: z.enum(['git', 'worktree']), ref: SourceRef, root: z.string().min(1).max(4096) });
export type DocumentSource = z.infer<typeof DocumentSource>;
const DocumentSources = z.array(DocumentSource).max(DOCUMENT_SOURCES_LIMIT);

const Forge = z.enum(FORGE_KINDS);
/** A forge's API root is an endpoint like any other (HttpUrl); the forge's own rules (https off this machine) follow in the maintenance room. */
const BaseUrl = HttpUrl.max(2_000);

/**
 * What a setup plan is asked for (spec 004's setup surface): a repository on a forge — new, or the
 * registration already maintaining it — or an existing registration by id, and the policy wanted.
 * A policy field left out keeps the registration's current value (a new one gets `add`'s defaults).
 */
export const SetupRequest = z.strictObject({
  repo: Repo.optional(),
  forge: Forge.optional(),
  /** The API root, as `Maintenance.Add` takes it; private once stored (status shows only the host). */
  baseUrl: BaseUrl.optional(),
  registrationId: Id.optional(),
  policy: MaintenancePolicy.optional(),
  /** Plan start at login when it is off (the default); false leaves it out (`--no-service-install`). */
  serviceInstall: z.boolean().optional(),
  /** Plan a model download the profile needs (the default); false makes a missing model a blocker (`--no-model-download`). */
  modelDownload: z.boolean().optional(),
  /**
   * Local document folders of a repository being added, as `Maintenance.Add` takes them; each is
   * checked (a folder, in a git work tree, a ref git reads as one) before anything is planned. A
   * person's input only: plans count them, never name them, and an agent's request may not carry them.
   */
  sources: DocumentSources.optional(),
});
export type SetupRequest = z.infer<typeof SetupRequest>;

export const SetupEffect = z.strictObject({
  class: z.enum(EFFECT_CLASSES),
  /** One sentence a person understands; never a path, an address with credentials, or a token. */
  description: z.string(),
  /** Only a person may confirm it: a service installed or started, a model downloaded, text sent off this machine. */
  needsPerson: z.boolean(),
});
export type SetupEffect = z.infer<typeof SetupEffect>;

/** Why a plan cannot be applied as it stands: a typed class, a sanitized diagnostic and what to do about it. */
export const SetupBlocker = z.strictObject({ code: z.string(), message: z.string(), remediation: z.string() });
export type SetupBlocker = z.infer<typeof SetupBlocker>;

const ProfileView = z.strictObject({
  name: z.string(),
  provider: z.string(),
  model: z.string(),
  /** Where the profile sends repository text when it embeds: this process, this machine's network, a remote service. */
  dataBoundary: z.enum(DATA_BOUNDARIES),
});

export const SetupPlan = z.strictObject({
  /** Deterministic for the identity, binding, configuration, protocol, provider revision, service state and policy it was made for. */
  planId: z.string(),
  /** The same, without whether an owner must be started: how a newly started owner's plan is checked against the confirmed one. */
  basis: z.string(),
  status: z.enum(SETUP_STATUSES),
  /** `create` a cache and registration, `update` a registration's policy, `resume` a paused one, or `none` (already so). */
  action: z.enum(['create', 'update', 'resume', 'none']),
  /** The registration it creates (null: its id follows from the new cache's UUID) or changes. */
  registrationId: z.string().nullable(),
  repo: z.string(),
  forge: z.strictObject({ kind: Forge, host: z.string() }).nullable(),
  policy: RegistrationStatus.shape.policy,
  profile: ProfileView,
  /** Hash of the full effective non-secret configuration the registration would run with. */
  configHash: z.string(),
  dataBoundary: z.enum(DATA_BOUNDARIES),
  effects: z.array(SetupEffect),
  blocker: SetupBlocker.nullable(),
  /** The exact command a person runs to confirm this plan in a terminal. */
  handoff: z.string(),
});
export type SetupPlan = z.infer<typeof SetupPlan>;

export const SetupApplied = z.strictObject({
  planId: z.string(),
  status: z.enum(SETUP_STATUSES),
  registrationId: z.string(),
  repo: z.string(),
  /** Whether enrollment completed, and what it did; never a claim about how much history is cached. */
  enrollment: z.strictObject({ completed: z.boolean(), created: z.boolean(), cacheCreated: z.boolean(), updated: z.boolean(), replayed: z.boolean() }),
  /** The registration's initial jobs; `coalesced` ones joined work already running under the same job key. */
  jobs: z.array(z.strictObject({ jobId: z.string(), stage: z.enum(STAGES), lane: z.enum(LANES), state: JobStatus.shape.state, coalesced: z.boolean() })),
  /** True when the first pass was started and left running (`--detach`). */
  detached: z.boolean(),
  /** How much history the cache holds now: `complete` only when every backfill reached its end. */
  history: z.enum(['complete', 'backfilling', 'recent_only', 'not_synced']),
  serviceInstalled: z.boolean(),
  modelDownloaded: z.boolean(),
  /** The embedding smoke request that ran before enrollment (null when RAG is off). */
  smoke: z.strictObject({ provider: z.string(), dimensions: z.number().int() }).nullable(),
  /** How many local document folders the registration reads: counted, never named. */
  documentFolders: z.number().int(),
  registration: RegistrationStatus,
});
export type SetupApplied = z.infer<typeof SetupApplied>;

/** A plan an agent asked to apply that needs a person: kept by the owner until confirmed or dismissed. */
export const WaitingPlan = z.strictObject({
  waitingId: z.string(),
  /** Never with document folders: a waiting plan is read by the panel and survives in a file, so it holds no path. */
  request: SetupRequest.omit({ sources: true }),
  repo: z.string(),
  askedAt: z.number().int(),
  /** The effects only a person may confirm, in words. */
  needs: z.array(z.string()),
});
export type WaitingPlan = z.infer<typeof WaitingPlan>;

export const maintenanceMethods = {
  'Maintenance.Enroll': {
    params: z.strictObject({
      cachePath: z.string().min(1).max(4096),
      /** OWNER/NAME or a canonical id (HOST/OWNER/NAME), resolved through the cache's own bindings. */
      repo: RepoId,
      policy: MaintenancePolicy.optional(),
      config: SnapshotInput.optional(),
      sources: DocumentSources.optional(),
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
      baseUrl: BaseUrl.optional(),
      policy: MaintenancePolicy.optional(),
      sources: DocumentSources.optional(),
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
  /**
   * Stops maintaining a registration for good: it is retired (as a rejected conflict candidate is),
   * so its receipts, jobs and legacy ids keep resolving, but it is no longer listed or scheduled.
   * `deleteCache` deletes the cache file only when Steward created it in STEWARD_HOME/caches/ and no
   * other registration uses it. `dryRun` answers what would be done and changes nothing.
   */
  'Maintenance.Remove': {
    params: z.strictObject({ registrationId: Id, deleteCache: z.boolean().optional(), dryRun: z.boolean().optional(), idempotencyKey: IdempotencyKey.optional() }),
    result: z.strictObject({
      registrationId: z.string(),
      canonicalRepoId: z.string(),
      /** False for a dry run: nothing was changed. */
      removed: z.boolean(),
      /** What happens (or happened) to the cache file: `kept`, or `deleted` (only ever a cache Steward created). */
      cache: z.enum(['kept', 'deleted']),
      /** True when Steward created the cache in STEWARD_HOME/caches/ (so `deleteCache` may delete it). */
      cacheCreatedBySteward: z.boolean(),
      /** Other registrations that use the same cache file (it is never deleted while they do). */
      cacheSharedWith: z.number().int(),
      replayed: z.boolean(),
    }),
  },
  /** Read-only and deterministic: what setting up (or changing) maintenance of a repository would do. */
  'Maintenance.Plan': { params: SetupRequest, result: SetupPlan },
  /**
   * Applies exactly the plan `planId` names (re-rendered and compared: any change is stale_plan),
   * composed from enrollment, config resolution and reconciliation of that one registration.
   */
  'Maintenance.Apply': {
    params: SetupRequest.extend({
      planId: Id,
      idempotencyKey: IdempotencyKey,
      /** Who confirmed: an agent may not confirm a service, a download or a remote transfer (confirmation_required). */
      confirmedBy: z.enum(['person', 'agent']).default('person'),
      /** Start the first pass and return without waiting for it. */
      detach: z.boolean().optional(),
    }),
    result: SetupApplied,
  },
  /** The embedding profiles a registration may use, each with its data boundary. */
  'Maintenance.Profiles': {
    params: z.strictObject({}),
    result: z.strictObject({ profiles: z.array(ProfileView) }),
  },
  /** Plans agents asked for that wait for a person (the panel shows them; confirming one goes through Plan and Apply). */
  'Maintenance.Waiting': { params: z.strictObject({}), result: z.strictObject({ waiting: z.array(WaitingPlan) }) },
  'Maintenance.Dismiss': { params: z.strictObject({ waitingId: Id }), result: z.strictObject({ dismissed: z.boolean() }) },
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
