import { realpathSync } from 'node:fs';
import { methods, StewardError, type ConflictPlan, type ConflictView, type ParsedParams, type ReconcileResult, type RegistrationStatus, type Result, type StageName } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { WriterAdmission, type Admitted, type WriterKind } from './admission.js';
import { inspectCache, type CacheInspection } from './cache.js';
import { applyResolution, findCandidate, planOf, revalidate, type Applied } from './conflicts.js';
import { hashOf, loadInstallSecret, pathFingerprinter, type PathFingerprinter } from './hashing.js';
import { JobRunner, LANES, namespaceOf, observe, type StageRunner } from './jobs.js';
import { receiptOf, replayReceipt } from './receipts.js';
import { canonicalize, canonicalSourceId, configHashOf, followRedirects, registrationIdFor } from './identity.js';
import { conflictMessage, heldBy, placeProposal, proposedRegistration, type EnrollmentIntent } from './enroll.js';
import { migrateV1 } from './migrate.js';
import { RegistryStore } from './registry.js';
import { conflictView, jobStatus, publicRepoId, registrationStatus } from './status.js';
import { validateSnapshot } from './policy.js';
import { DEFAULT_CONFIG_SNAPSHOT, Policy, type DegradedKind, type Registration, type RegistryV2 } from './schema.js';

export interface MaintenanceOptions {
  home: string;
  logger: Logger;
  clock?: () => number;
  runners?: Partial<Record<StageName, StageRunner>>;
  /** Told after every registry write (the Core turns it into the `maintenance.changed` event). */
  onChange?: (summary: { at: number; registrations: number; conflicts: number }) => void;
}

export type EnrollParams = ParsedParams<'Maintenance.Enroll'>;
export type EnrollResult = Result<'Maintenance.Enroll'>;
type ConflictApplied = Result<'Conflicts.Apply'>;

type ReconcileJob = ReconcileResult['jobs'][number];
type Skip = ReconcileResult['skipped'][number];

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
  readonly #jobs: JobRunner;

  constructor(options: MaintenanceOptions) {
    this.#logger = options.logger;
    this.#clock = options.clock ?? Date.now;
    const secret = loadInstallSecret(options.home);
    // Without its secret no fingerprint can be checked: the registry is held degraded, never rewritten.
    this.#fingerprint = pathFingerprinter(secret ?? Buffer.alloc(0));
    this.store = new RegistryStore(
      options.home,
      (legacy) => migrateV1(legacy, (path) => this.#tryInspect(path)),
      (registry) => canonicalize(registry),
      (registry) => options.onChange?.({ at: Date.now(), registrations: registry.registrations.length, conflicts: registry.conflicts.length }),
      secret ? undefined : 'install_secret_damaged',
    );
    const runners = { sync: options.runners?.sync ?? observe, rag: options.runners?.rag ?? observe };
    this.#jobs = new JobRunner({ store: this.store, admission: this.admission, runners, clock: this.#clock, logger: this.#logger });
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
      for (const r of draft.registrations) if (invalid.some((i) => i.registrationId === r.registrationId && i.pathFingerprint === r.pathFingerprint)) markSnapshotInvalid(r, now);
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

  list(): Result<'Maintenance.List'> {
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
    // Aliases are lookup metadata only: they find a registration when exactly one carries them.
    const byAlias = registry.registrations.filter((r) => r.aliases.some((a) => a.toLowerCase() === registrationId.toLowerCase()));
    if (byAlias.length === 1) return byAlias[0]!;
    if (byAlias.length > 1) throw new StewardError('invalid_params', 'That alias names several registrations; use a registration id.');
    const held = registry.conflicts.find((c) => c.candidates.some((k) => k.bundles.some((b) => b.registration?.registrationId === id)));
    if (held) throw new StewardError(held.kind, 'That registration is held by an open conflict; resolve it first.', { conflictId: held.conflictId });
    throw new StewardError('not_found', 'No registration has that id or alias.');
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
    const intent = this.#intent(params);
    const { inspection } = intent;
    const requestHash = hashOf({
      op: 'enroll',
      fp: inspection.pathFingerprint,
      repo: intent.canonicalRepoId,
      policy: intent.policy,
      configHash: intent.configHash,
      sources: intent.sources.map((s) => s.sourceId).sort(),
    });
    const replay = replayReceipt(registry, params.idempotencyKey, 'enroll', requestHash);
    if (replay) return methods['Maintenance.Enroll'].result.parse({ ...replay, replayed: true });

    const elsewhere = registry.conflicts.find(
      (c) => !c.lossy && c.kind !== 'cache_clone_conflict' && c.cacheUuid === inspection.cacheUuid && c.candidates.some((k) => k.pathFingerprint !== inspection.pathFingerprint),
    );
    // A clone of a cache whose registrations are held elsewhere cannot be judged yet: fail closed.
    if (elsewhere) {
      throw new StewardError('cache_clone_conflict', 'This cache UUID has an open conflict at another path; resolve that conflict first.', {
        conflictId: elsewhere.conflictId,
        pathFingerprint: inspection.pathFingerprint,
      });
    }
    const now = this.#clock();
    const registrationId = registrationIdFor(inspection.cacheUuid, intent.canonicalRepoId);
    const existing = registry.registrations.find((r) => r.registrationId === registrationId && r.pathFingerprint === inspection.pathFingerprint);
    const proposed = proposedRegistration(intent, existing, now);
    const result: EnrollResult = {
      registrationId,
      cacheUuid: inspection.cacheUuid,
      pathFingerprint: inspection.pathFingerprint,
      canonicalRepoId: publicRepoId(intent.canonicalRepoId),
      configHash: intent.configHash,
      created: !existing,
      replayed: false,
    };
    let failure: StewardError | undefined;
    this.store.commit((draft) => {
      placeProposal(draft, proposed, existing);
      Object.assign(draft, canonicalize(draft));
      const held = heldBy(draft, registrationId, inspection.pathFingerprint);
      if (held) failure = new StewardError(held.kind, conflictMessage(held.kind), { conflictId: held.conflictId, pathFingerprint: inspection.pathFingerprint });
      const outcome = failure ? { ok: false as const, code: failure.code, message: failure.message, details: failure.details } : { ok: true as const, result: { ...result } };
      return receiptOf(params.idempotencyKey, 'enroll', requestHash, inspection.pathFingerprint, now, outcome);
    });
    if (failure) {
      this.#logger.warn('maintenance enrollment held by a conflict', { code: failure.code, pathFingerprint: inspection.pathFingerprint });
      throw failure;
    }
    this.#logger.info('maintenance registration enrolled', { registrationId, pathFingerprint: inspection.pathFingerprint, created: result.created });
    return result;
  }

  /** Validates an enrollment: snapshot, policy, the real cache path, its schema, UUID and binding. */
  #intent(params: EnrollParams): EnrollmentIntent {
    const snapshot = validateSnapshot(params.config ?? DEFAULT_CONFIG_SNAPSHOT);
    const policy = Policy.parse(params.policy ?? {});
    const inspection = this.inspect(params.cachePath);
    const canonicalRepoId = inspection.resolveRepository(params.repo);
    if (!canonicalRepoId) throw new StewardError('identity_unresolved', 'The cache has no binding for that repository.', { pathFingerprint: inspection.pathFingerprint });
    const sources = (params.sources ?? []).map((s) => {
      const authority = { kind: s.kind, ref: s.ref, localAuthority: this.#sourceFingerprint(s.root), profile: policy.profile };
      return { sourceId: canonicalSourceId(authority), authority };
    });
    return { inspection, canonicalRepoId, alias: params.repo, policy, snapshot, configHash: configHashOf(snapshot), sources };
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
          const { result, coalesced } = await this.#jobs.run(r, stage, lane, inspection);
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
    let cause: string | undefined;
    try {
      inspection = this.inspect(r.cachePath);
      const same = inspection.cacheUuid === r.cacheUuid && inspection.pathFingerprint === r.pathFingerprint && inspection.resolveRepository(r.canonicalRepoId) === r.canonicalRepoId;
      if (!same) problem = 'identity_replaced';
    } catch (error) {
      problem = 'cache_unreadable';
      // cache_invalid carries the driver's code (SQLITE_CORRUPT, EACCES …) apart from its message.
      const details = error instanceof StewardError ? error.details : undefined;
      cause = typeof details?.systemCode === 'string' ? details.systemCode : errorCode(error);
    }
    const degraded: DegradedKind[] = r.degraded.filter((d) => d !== 'identity_replaced' && d !== 'cache_unreadable');
    if (problem) degraded.push(problem);
    const frontiers = inspection && !problem ? inspection.frontiers.filter((f) => f.repoId === r.canonicalRepoId).map(({ repoId: _repoId, ...f }) => f) : r.frontiers;
    if (hashOf([degraded, frontiers]) !== hashOf([r.degraded, r.frontiers])) {
      this.store.commit((draft) => {
        const target = draft.registrations.find((x) => x.registrationId === r.registrationId && x.pathFingerprint === r.pathFingerprint);
        if (target) Object.assign(target, { degraded, frontiers });
      });
      if (problem) this.#logger.warn('maintenance registration degraded', { registrationId: r.registrationId, kind: problem, code: cause });
    }
    return problem ? null : inspection;
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

  async apply(planId: string, idempotencyKey: string): Promise<ConflictApplied> {
    const registry = this.store.current();
    const requestHash = hashOf({ op: 'conflict_apply', planId });
    const replay = replayReceipt(registry, idempotencyKey, 'conflict_apply', requestHash);
    if (replay) return methods['Conflicts.Apply'].result.parse({ ...replay, replayed: true });
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

