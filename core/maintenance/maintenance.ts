import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { StewardError } from '../api/index.js';
import type { ConflictPlan, ConflictView, ReconcileResult, RegistrationStatus } from '../api/maintenance.js';
import type { Logger } from '../log/index.js';
import { WriterAdmission, type Admitted, type WriterKind } from './admission.js';
import { inspectCache, type CacheInspection } from './cache.js';
import { applyResolution, findCandidate, planOf, revalidate, type Applied } from './conflicts.js';
import { hashOf, loadInstallSecret, opaqueId, pathFingerprinter, type PathFingerprinter } from './hashing.js';
import { canonicalize, canonicalSourceId, configHashOf, followRedirects, registrationIdFor } from './identity.js';
import { migrateV1 } from './migrate.js';
import { RegistryStore } from './registry.js';
import { conflictView, jobStatus, publicRepoId, registrationStatus } from './status.js';
import { backoffMs, errorClassOf, validateSnapshot } from './policy.js';
import {
  DEFAULT_CONFIG_SNAPSHOT,
  Policy,
  TERMINAL_JOB_LIMIT,
  type DegradedKind,
  type Job,
  type Receipt,
  type Registration,
  type RegistryV2,
  type StageName,
} from './schema.js';

export interface StageContext {
  registrationId: string;
  cacheUuid: string;
  canonicalRepoId: string;
  stage: StageName;
  lane: Job['lane'];
  policy: Policy;
  /** The confirmed snapshot: jobs never rediscover configuration from the environment. */
  configSnapshot: Registration['configSnapshot'];
  cachePath: string;
  inspection: CacheInspection;
}

export interface StageOutcome {
  contentGeneration?: number | null;
  coveredGeneration?: number | null;
}

export type StageRunner = (context: StageContext) => Promise<StageOutcome | void>;

/** Without sync lanes or RAG (later issues) a stage observes the cache's generations and frontiers. */
const observe: StageRunner = async ({ inspection, canonicalRepoId }) => {
  const repo = inspection.repositories.find((r) => r.repoId === canonicalRepoId);
  return { contentGeneration: repo?.contentGeneration ?? null, coveredGeneration: repo?.coveredGeneration ?? null };
};

export interface MaintenanceOptions {
  home: string;
  logger: Logger;
  clock?: () => number;
  runners?: Partial<Record<StageName, StageRunner>>;
  /** Told after every registry write (the Core turns it into the `maintenance.changed` event). */
  onChange?: (summary: { at: number; registrations: number; conflicts: number }) => void;
}

export interface EnrollParams {
  cachePath: string;
  repo: string;
  policy?: Partial<Policy>;
  config?: Record<string, unknown>;
  sources?: Array<{ kind: 'git' | 'worktree'; ref: string; root: string }>;
  idempotencyKey: string;
}

export interface EnrollResult {
  registrationId: string;
  cacheUuid: string;
  pathFingerprint: string;
  canonicalRepoId: string;
  configHash: string;
  created: boolean;
  replayed: boolean;
}

type ReconcileJob = ReconcileResult['jobs'][number];
type Skip = ReconcileResult['skipped'][number];

const LANES: Record<StageName, (policy: Policy) => Job['lane'][]> = {
  sync: (p) => (p.sync === 'off' ? [] : p.sync === 'head' ? ['head'] : ['head', 'tail']),
  rag: (p) => (p.rag === 'maintain' ? ['index'] : []),
};
const FAILED: Record<StageName, DegradedKind> = { sync: 'sync_failed', rag: 'index_failed' };

/**
 * The maintenance coordinator: the managed-cache registry, cache identity and conflicts, writer
 * admission, jobs with their backoff, and sanitized status. Order of a pass: validate identity ->
 * sync -> observe content generation -> RAG repair -> publish status.
 */
export class Maintenance {
  readonly admission = new WriterAdmission();
  readonly store: RegistryStore;
  readonly #fingerprint: PathFingerprinter;
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #runners: Record<StageName, StageRunner>;

  constructor(options: MaintenanceOptions) {
    this.#logger = options.logger;
    this.#clock = options.clock ?? Date.now;
    this.#runners = { sync: options.runners?.sync ?? observe, rag: options.runners?.rag ?? observe };
    this.#fingerprint = pathFingerprinter(loadInstallSecret(options.home));
    this.store = new RegistryStore(
      options.home,
      (legacy) => migrateV1(legacy, (path) => this.#tryInspect(path)),
      (registry) => canonicalize(registry),
      (registry) => options.onChange?.({ at: Date.now(), registrations: registry.registrations.length, conflicts: registry.conflicts.length }),
    );
    const load = this.store.load;
    if (load.state === 'degraded') this.#logger.warn('maintenance registry degraded; left untouched', { reason: load.reason });
    else {
      if (load.state === 'migrated') this.#logger.info('maintenance registry migrated', { from: load.from, registrations: load.registry.registrations.length });
      this.#recover();
    }
  }

  fingerprint(path: string): string {
    return this.#fingerprint(realpathSync(path));
  }

  inspect(path: string): CacheInspection {
    return inspectCache(path, this.#fingerprint);
  }

  #tryInspect(path: string): CacheInspection | null {
    try {
      return this.inspect(path);
    } catch {
      return null;
    }
  }

  /** Crash recovery: a job still `running` belonged to an owner that died; snapshots are rechecked. */
  #recover(): void {
    const registry = this.store.current();
    const running = registry.jobs.filter((j) => j.state === 'running');
    const invalid = registry.registrations.filter((r) => !this.#snapshotValid(r) && r.disabledReason !== 'config_snapshot_invalid');
    if (running.length === 0 && invalid.length === 0) return;
    const now = this.#clock();
    this.store.commit((draft) => {
      for (const job of draft.jobs) if (job.state === 'running') Object.assign(job, { state: 'interrupted', finishedAt: now, errorClass: 'interrupted' });
      for (const r of draft.registrations) if (invalid.some((i) => i.registrationId === r.registrationId)) markSnapshotInvalid(r, now);
    });
    if (running.length > 0) this.#logger.warn('maintenance jobs interrupted by a previous crash', { jobs: running.length });
    if (invalid.length > 0) this.#logger.warn('maintenance registrations disabled: config_snapshot_invalid', { registrations: invalid.length });
  }

  #snapshotValid(r: Registration): boolean {
    if (configHashOf(r.configSnapshot) !== r.configHash) return false;
    try {
      return this.fingerprint(r.cachePath) === r.pathFingerprint;
    } catch {
      // An unreadable cache is a degraded state of its own, not a broken snapshot.
      return true;
    }
  }

  // ---- status -------------------------------------------------------------------------------

  list(): {
    registry: { state: 'ok' | 'missing' | 'migrated' | 'degraded'; reason: string | null; version: number };
    registrations: RegistrationStatus[];
    conflicts: Array<{ conflictId: string; kind: ConflictView['kind']; state: 'open' | 'blocked'; candidates: number }>;
    retired: number;
    activeWriters: number;
  } {
    const load = this.store.load;
    if (load.state === 'degraded') {
      return { registry: { state: 'degraded', reason: load.reason, version: 2 }, registrations: [], conflicts: [], retired: 0, activeWriters: this.admission.activeCount() };
    }
    const registry = this.store.current();
    return {
      registry: { state: load.state, reason: null, version: 2 },
      registrations: registry.registrations.map((r) => registrationStatus(r, registry.jobs)),
      conflicts: registry.conflicts.map((c) => ({ conflictId: c.conflictId, kind: c.kind, state: c.lossy ? 'blocked' : 'open', candidates: c.candidates.length })),
      retired: registry.retired.length,
      activeWriters: this.admission.activeCount(),
    };
  }

  #find(registry: RegistryV2, registrationId: string): Registration {
    const id = followRedirects(registry.redirects, registrationId) ?? registrationId;
    const found = registry.registrations.find((r) => r.registrationId === id);
    if (found) return found;
    const held = registry.conflicts.find((c) => c.candidates.some((k) => k.bundles.some((b) => b.registration?.registrationId === id)));
    if (held) throw new StewardError(held.kind, 'That registration is held by an open conflict; resolve it first.', { conflictId: held.conflictId });
    throw new StewardError('not_found', 'No registration has that id.');
  }

  // ---- enrollment ---------------------------------------------------------------------------

  resolveConfig(config: Record<string, unknown>): { configHash: string; rag: { profile: string; namespace: string; embeddingProvider: string; model: string } } {
    const snapshot = validateSnapshot(config);
    return {
      configHash: configHashOf(snapshot),
      rag: {
        profile: snapshot.profile,
        namespace: namespaceOf(snapshot),
        embeddingProvider: snapshot.embedding.provider,
        model: snapshot.embedding.model,
      },
    };
  }

  enroll(params: EnrollParams): EnrollResult {
    const registry = this.store.current();
    const snapshot = validateSnapshot(params.config ?? DEFAULT_CONFIG_SNAPSHOT);
    const policy = Policy.parse(params.policy ?? {});
    const inspection = this.inspect(params.cachePath);
    const canonical = inspection.resolveRepository(params.repo);
    if (!canonical) throw new StewardError('identity_unresolved', 'The cache has no binding for that repository.', { pathFingerprint: inspection.pathFingerprint });
    const sources = (params.sources ?? []).map((s) => {
      const authority = { kind: s.kind, ref: s.ref, localAuthority: this.#sourceFingerprint(s.root), profile: policy.profile };
      return { sourceId: canonicalSourceId(authority), authority };
    });
    const configHash = configHashOf(snapshot);
    const requestHash = hashOf({ op: 'enroll', fp: inspection.pathFingerprint, repo: canonical, policy, configHash, sources: sources.map((s) => s.sourceId).sort() });
    const replay = replayReceipt(registry, params.idempotencyKey, 'enroll', requestHash);
    if (replay) return { ...(replay as unknown as EnrollResult), replayed: true };

    const now = this.#clock();
    const registrationId = registrationIdFor(inspection.cacheUuid, canonical);
    const existing = registry.registrations.find((r) => r.registrationId === registrationId && r.pathFingerprint === inspection.pathFingerprint);
    const proposed: Registration = {
      registrationId,
      cacheUuid: inspection.cacheUuid,
      canonicalRepoId: canonical,
      aliases: [params.repo],
      legacyIds: [],
      cachePath: inspection.realPath,
      pathFingerprint: inspection.pathFingerprint,
      policy,
      configSnapshot: snapshot,
      configHash,
      sources,
      enabled: true,
      disabledReason: null,
      degraded: [],
      stages: existing?.stages ?? { sync: emptyStageState(), rag: emptyStageState() },
      generations: existing?.generations ?? { content: null, covered: null },
      frontiers: existing?.frontiers ?? [],
      terminalJobIds: existing?.terminalJobIds ?? [],
      enrolledAt: existing?.enrolledAt ?? now,
      updatedAt: now,
      lastWriterAt: existing?.lastWriterAt ?? null,
    };
    const result: EnrollResult = {
      registrationId,
      cacheUuid: inspection.cacheUuid,
      pathFingerprint: inspection.pathFingerprint,
      canonicalRepoId: publicRepoId(canonical),
      configHash,
      created: !existing,
      replayed: false,
    };
    let failure: StewardError | null = null;
    this.store.commit((draft) => {
      if (existing?.disabledReason === 'config_snapshot_invalid') {
        // Re-enrollment with a revalidated snapshot is how a broken snapshot is repaired.
        draft.registrations = draft.registrations.filter((r) => r !== draft.registrations.find((x) => x.registrationId === registrationId && x.pathFingerprint === inspection.pathFingerprint));
        proposed.aliases = [...new Set([...existing.aliases, params.repo])].sort();
        proposed.legacyIds = existing.legacyIds;
      }
      draft.registrations.push(proposed);
      Object.assign(draft, canonicalize(draft));
      const held = draft.conflicts.find((c) => c.candidates.some((k) => k.bundles.some((b) => b.registration?.registrationId === registrationId && b.registration.pathFingerprint === inspection.pathFingerprint)));
      if (held) {
        failure = new StewardError(held.kind, conflictMessage(held.kind), { conflictId: held.conflictId, pathFingerprint: inspection.pathFingerprint });
        return receiptOf(params.idempotencyKey, 'enroll', requestHash, inspection.pathFingerprint, now, { ok: false, code: failure.code, message: failure.message, details: failure.details });
      }
      return receiptOf(params.idempotencyKey, 'enroll', requestHash, inspection.pathFingerprint, now, { ok: true, result: { ...result } });
    });
    if (failure) {
      this.#logger.warn('maintenance enrollment held by a conflict', { code: (failure as StewardError).code, pathFingerprint: inspection.pathFingerprint });
      throw failure;
    }
    this.#logger.info('maintenance registration enrolled', { registrationId, pathFingerprint: inspection.pathFingerprint, created: result.created });
    return result;
  }

  #sourceFingerprint(root: string): string {
    try {
      return this.#fingerprint(realpathSync(root));
    } catch {
      throw new StewardError('invalid_params', 'A repository-document source root cannot be found.');
    }
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /** Stops scheduling a registration; the cache itself is never touched. */
  disable(registrationId: string): RegistrationStatus {
    return this.#setEnabled(registrationId, false);
  }

  enable(registrationId: string): RegistrationStatus {
    return this.#setEnabled(registrationId, true);
  }

  #setEnabled(registrationId: string, enabled: boolean): RegistrationStatus {
    const target = this.#find(this.store.current(), registrationId);
    if (enabled && target.disabledReason === 'config_snapshot_invalid') {
      throw new StewardError('config_snapshot_invalid', 'This registration stays disabled until its configuration snapshot is repaired: validate it with Maintenance.ResolveConfig and enroll again.', {
        registrationId: target.registrationId,
      });
    }
    const now = this.#clock();
    const next = this.store.commit((draft) => {
      const r = draft.registrations.find((x) => x.registrationId === target.registrationId)!;
      r.enabled = enabled;
      r.disabledReason = enabled ? null : 'operator';
      r.updatedAt = now;
    });
    this.#logger.info(enabled ? 'maintenance registration enabled' : 'maintenance registration disabled', { registrationId: target.registrationId });
    const r = next.registrations.find((x) => x.registrationId === target.registrationId)!;
    return registrationStatus(r, next.jobs);
  }

  // ---- reconciliation -----------------------------------------------------------------------

  /** One scheduler pass. Same-cache registrations run oldest-writer-first; other caches run independently. */
  async reconcile(only?: string): Promise<ReconcileResult> {
    const registry = this.store.current();
    const targets = only === undefined ? registry.registrations : [this.#find(registry, only)];
    const byCache = new Map<string, Registration[]>();
    for (const r of targets) byCache.set(r.cacheUuid, [...(byCache.get(r.cacheUuid) ?? []), r]);
    const jobs: ReconcileJob[] = [];
    const skipped: Skip[] = [];
    await Promise.all(
      [...byCache.values()].map(async (group) => {
        for (const r of [...group].sort(oldestWriterFirst)) await this.#reconcileOne(r.registrationId, r.pathFingerprint, jobs, skipped);
      }),
    );
    return { visited: targets.length, jobs, skipped };
  }

  async #reconcileOne(registrationId: string, pathFingerprint: string, jobs: ReconcileJob[], skipped: Skip[]): Promise<void> {
    const current = () => this.store.current().registrations.find((r) => r.registrationId === registrationId && r.pathFingerprint === pathFingerprint);
    let r = current();
    if (!r) return;
    const skip = (stage: StageName | null, reason: string, nextAttemptAt: number | null = null) => skipped.push({ registrationId, stage, reason, nextAttemptAt });
    if (!this.#snapshotValid(r)) {
      const now = this.#clock();
      this.store.commit((draft) => markSnapshotInvalid(draft.registrations.find((x) => x.registrationId === registrationId && x.pathFingerprint === pathFingerprint)!, now));
      return void skip(null, 'config_snapshot_invalid');
    }
    if (!r.enabled) return void skip(null, r.disabledReason ?? 'disabled');
    const inspection = this.#validateIdentity(r);
    if (!inspection) return void skip(null, current()?.degraded.includes('identity_replaced') ? 'identity_replaced' : 'cache_unreadable');
    for (const stage of ['sync', 'rag'] as const) {
      r = current();
      if (!r) return;
      const lanes = LANES[stage](r.policy);
      if (lanes.length === 0) continue;
      const state = r.stages[stage];
      const now = this.#clock();
      // A backed-off stage waits alone: the other stage still runs.
      if (state.nextAttemptAt !== null && state.nextAttemptAt > now) {
        skip(stage, 'backoff', state.nextAttemptAt);
        continue;
      }
      for (const lane of lanes) {
        try {
          const { result, coalesced } = await this.#runJob(r, stage, lane, inspection);
          jobs.push({ ...jobStatus(result), registrationId, coalesced });
          if (result.state === 'failed') break;
        } catch (error) {
          if (error instanceof StewardError && error.code === 'cache_writer_busy') {
            skip(stage, 'cache_writer_busy');
            break;
          }
          throw error;
        }
      }
    }
  }

  /** Validate identity: the cache at the registered path must still carry the registered UUID and binding. */
  #validateIdentity(r: Registration): CacheInspection | null {
    let inspection: CacheInspection | null = null;
    let problem: DegradedKind | null = null;
    try {
      inspection = this.inspect(r.cachePath);
      const same = inspection.cacheUuid === r.cacheUuid && inspection.pathFingerprint === r.pathFingerprint && inspection.resolveRepository(r.canonicalRepoId) === r.canonicalRepoId;
      if (!same) problem = 'identity_replaced';
    } catch {
      problem = 'cache_unreadable';
    }
    const degraded: DegradedKind[] = r.degraded.filter((d) => d !== 'identity_replaced' && d !== 'cache_unreadable');
    if (problem) degraded.push(problem);
    const frontiers = inspection && !problem ? inspection.frontiers.filter((f) => f.repoId === r.canonicalRepoId).map(({ repoId: _repoId, ...f }) => f) : r.frontiers;
    if (hashOf([degraded, frontiers]) !== hashOf([r.degraded, r.frontiers])) {
      this.store.commit((draft) => {
        const target = draft.registrations.find((x) => x.registrationId === r.registrationId && x.pathFingerprint === r.pathFingerprint);
        if (target) Object.assign(target, { degraded, frontiers });
      });
      if (problem) this.#logger.warn('maintenance registration degraded', { registrationId: r.registrationId, kind: problem });
    }
    return problem ? null : inspection;
  }

  #runJob(r: Registration, stage: StageName, lane: Job['lane'], inspection: CacheInspection): Promise<Admitted<Job>> {
    // Job identity includes lane, profile, namespace and chunk policy: no cross-cache or cross-stage reuse.
    const jobKey = opaqueId('jk', [r.cacheUuid, r.registrationId, r.pathFingerprint, stage, lane, r.policy.profile, namespaceOf(r.configSnapshot), r.configSnapshot.chunk]);
    const kind: WriterKind = stage === 'sync' ? 'sync' : 'rag';
    return this.admission.admit(r.cacheUuid, jobKey, kind, async () => {
      const jobId = `job_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      const startedAt = this.#clock();
      this.store.commit((draft) => {
        const interrupted = draft.jobs.filter((j) => j.state === 'interrupted' && j.rescheduledAs === null && j.registrationId === r.registrationId && j.pathFingerprint === r.pathFingerprint && j.stage === stage && j.lane === lane);
        for (const j of interrupted) j.rescheduledAs = jobId;
        draft.jobs.push({
          jobId,
          jobKey,
          registrationId: r.registrationId,
          cacheUuid: r.cacheUuid,
          pathFingerprint: r.pathFingerprint,
          stage,
          lane,
          state: 'running',
          startedAt,
          finishedAt: null,
          errorClass: null,
          rescheduledAs: null,
          rescheduledFrom: interrupted[0]?.jobId ?? null,
        });
      });
      let outcome: StageOutcome | void = undefined;
      let errorClass: string | null = null;
      try {
        outcome = await this.#runners[stage]({
          registrationId: r.registrationId,
          cacheUuid: r.cacheUuid,
          canonicalRepoId: r.canonicalRepoId,
          stage,
          lane,
          policy: r.policy,
          configSnapshot: r.configSnapshot,
          cachePath: r.cachePath,
          inspection,
        });
      } catch (error) {
        errorClass = errorClassOf(error);
      }
      return this.#finishJob(r, jobId, stage, errorClass, outcome ?? {});
    });
  }

  #finishJob(r: Registration, jobId: string, stage: StageName, errorClass: string | null, outcome: StageOutcome): Job {
    const now = this.#clock();
    const next = this.store.commit((draft) => {
      const job = draft.jobs.find((j) => j.jobId === jobId);
      if (job) Object.assign(job, { state: errorClass ? 'failed' : 'succeeded', finishedAt: now, errorClass });
      const target = draft.registrations.find((x) => x.registrationId === r.registrationId && x.pathFingerprint === r.pathFingerprint);
      if (!target) return;
      const st = target.stages[stage];
      if (errorClass) {
        const failures = st.failures + 1;
        target.stages[stage] = { ...st, errorClass, failures, lastFailureAt: now, nextAttemptAt: now + backoffMs(failures) };
        if (!target.degraded.includes(FAILED[stage])) target.degraded.push(FAILED[stage]);
      } else {
        // Success of this stage clears this stage's failure state, and only this stage's.
        target.stages[stage] = { ...st, errorClass: null, failures: 0, lastSuccessAt: now, nextAttemptAt: null };
        target.degraded = target.degraded.filter((d) => d !== FAILED[stage]);
        if (outcome.contentGeneration !== undefined) target.generations.content = outcome.contentGeneration;
        if (outcome.coveredGeneration !== undefined) target.generations.covered = outcome.coveredGeneration;
      }
      target.lastWriterAt = now;
      target.terminalJobIds = [...target.terminalJobIds, jobId].slice(-TERMINAL_JOB_LIMIT);
    });
    if (errorClass) this.#logger.warn('maintenance job failed', { registrationId: r.registrationId, stage, errorClass });
    return next.jobs.find((j) => j.jobId === jobId)!;
  }

  /**
   * A direct writer request (an admin mutation, repository-document indexing) names a cache path:
   * the path is resolved to its durable UUID before admission so omitting the UUID cannot bypass
   * the writer fence.
   */
  admitPath<T>(cachePath: string, jobKey: string, kind: WriterKind, work: () => Promise<T>): Promise<Admitted<T>> {
    const { cacheUuid } = this.inspect(cachePath);
    return this.admission.admit(cacheUuid, jobKey, kind, work);
  }

  // ---- conflicts ----------------------------------------------------------------------------

  conflicts(): ConflictView[] {
    return this.store.current().conflicts.map(conflictView);
  }

  plan(conflictId: string, candidateId: string): ConflictPlan {
    const { conflict, candidate } = findCandidate(this.store.current(), conflictId, candidateId);
    return planOf(conflict, candidate, revalidate(conflict, candidate, (p) => this.inspect(p)));
  }

  async apply(planId: string, idempotencyKey: string): Promise<Applied & { planId: string; conflictId: string; replayed: boolean }> {
    const registry = this.store.current();
    const requestHash = hashOf({ op: 'conflict_apply', planId });
    const replay = replayReceipt(registry, idempotencyKey, 'conflict_apply', requestHash);
    if (replay) return { ...(replay as unknown as Applied & { planId: string; conflictId: string }), replayed: true };
    const target = this.#locatePlan(registry, planId);
    // Reserve the cache's writer lane first, then replan and write: nothing can slip in between.
    return this.admission.fence(target.cacheUuid, 'conflict_apply', () => {
      const { conflict, candidate } = findCandidate(this.store.current(), target.conflictId, target.candidateId);
      const revalidated = revalidate(conflict, candidate, (p) => this.inspect(p));
      if (planOf(conflict, candidate, revalidated).planId !== planId) throw new StewardError('stale_plan', 'The conflict or its caches changed since the plan was made. Plan again.');
      const now = this.#clock();
      let applied: Applied = { restored: [], retired: [], followUpConflicts: [] };
      this.store.commit((draft) => {
        applied = applyResolution(draft, conflict, candidate, revalidated, now);
        return receiptOf(idempotencyKey, 'conflict_apply', requestHash, candidate.pathFingerprint, now, { ok: true, result: { ...applied, planId, conflictId: conflict.conflictId } });
      });
      this.#logger.info('maintenance conflict resolved', { conflictId: conflict.conflictId, kind: conflict.kind, restored: applied.restored.length, retired: applied.retired.length });
      return { ...applied, planId, conflictId: conflict.conflictId, replayed: false };
    });
  }

  /** Plan ids are deterministic, so a plan made before a restart is found again by recomputing. */
  #locatePlan(registry: RegistryV2, planId: string): { conflictId: string; candidateId: string; cacheUuid: string } {
    for (const conflict of registry.conflicts) {
      if (conflict.lossy) continue;
      for (const candidate of conflict.candidates) {
        try {
          const revalidated = revalidate(conflict, candidate, (p) => this.inspect(p));
          if (planOf(conflict, candidate, revalidated).planId === planId) return { conflictId: conflict.conflictId, candidateId: candidate.candidateId, cacheUuid: revalidated.cacheUuid };
        } catch {
          // A candidate that no longer validates cannot be the plan's candidate.
        }
      }
    }
    throw new StewardError('stale_plan', 'That plan no longer matches any open conflict. Plan again.');
  }

  async stop(): Promise<void> {
    await this.admission.settled();
  }
}

function emptyStageState(): Registration['stages']['sync'] {
  return { errorClass: null, failures: 0, lastFailureAt: null, lastSuccessAt: null, nextAttemptAt: null };
}

function oldestWriterFirst(a: Registration, b: Registration): number {
  const aw = a.lastWriterAt ?? -1;
  const bw = b.lastWriterAt ?? -1;
  return aw !== bw ? aw - bw : a.registrationId < b.registrationId ? -1 : 1;
}

function markSnapshotInvalid(r: Registration, now: number): void {
  r.enabled = false;
  r.disabledReason = 'config_snapshot_invalid';
  if (!r.degraded.includes('config_snapshot_invalid')) r.degraded.push('config_snapshot_invalid');
  r.updatedAt = now;
}

export function namespaceOf(snapshot: Registration['configSnapshot']): string {
  return opaqueId('ns', [snapshot.profile, snapshot.embedding.provider, snapshot.embedding.model, snapshot.embedding.revision ?? null, snapshot.embedding.dimensions ?? null, snapshot.chunk], 12);
}

function conflictMessage(kind: string): string {
  if (kind === 'cache_clone_conflict') return 'This cache UUID is already registered at another path: the copy is reported as a clone. Pick a candidate with `steward maintenance conflicts`.';
  return 'This registration conflicts with an existing one for the same cache and repository; it is held until a candidate is chosen.';
}

function receiptOf(key: string, operation: Receipt['operation'], requestHash: string, pathFingerprint: string | null, at: number, outcome: Receipt['outcome']): Receipt {
  return { key, operation, requestHash, pathFingerprint, at, outcome };
}

/** Same key and same request replays; same key with different content is idempotency_conflict. */
function replayReceipt(registry: RegistryV2, key: string, operation: Receipt['operation'], requestHash: string): Record<string, unknown> | null {
  const receipt = registry.receipts.find((r) => r.key === key);
  if (!receipt) return null;
  if (receipt.operation !== operation || receipt.requestHash !== requestHash) {
    throw new StewardError('idempotency_conflict', 'That idempotency key was already used for a different request; use a new key.');
  }
  if (receipt.outcome.ok) return receipt.outcome.result;
  throw new StewardError(receipt.outcome.code as StewardError['code'], receipt.outcome.message, receipt.outcome.details);
}
