import { realpathSync } from 'node:fs';
import type { ConflictPlan, ConflictView, RegistrationStatus, Result, SetupApplied, SetupPlan, SetupRequest, WaitingPlan } from '../api/index.js';
import type { Logger } from '../log/index.js';
import { WriterAdmission, type Admitted, type WriterKind } from './admission.js';
import { cacheInspector, type CacheInspection } from './cache.js';
import { Enrollment, type AddParams, type AddResult, type EnrollParams, type EnrollResult } from './enrollment.js';
import { loadInstallSecret } from './hashing.js';
import { canonicalize } from './identity.js';
import { JobRunner, type StageRunner } from './jobs.js';
import type { Tally } from './lanes/index.js';
import { migrateV1 } from './migrate.js';
import { Reconciler } from './reconciler.js';
import { RegistryStore } from './registry.js';
import { Resolution, type AppliedResolution } from './resolution.js';
import { removeRegistration, type RemoveParams, type RemoveResult } from './removal.js';
import { builtinFacts, Setup, type ApplyParams, type PlanFacts } from './plan/index.js';
import type { Room } from './room.js';
import type { StageName } from '../api/index.js';
import { DEFAULT_CONFIG_SNAPSHOT, type Job } from './schema.js';
import { registrationStatus } from './status.js';

export type { AddParams, AddResult, EnrollParams, EnrollResult } from './enrollment.js';

export interface MaintenanceOptions {
  home: string;
  logger: Logger;
  clock?: () => number;
  /** The stages' work. A stage without a runner does not run (and is never reported as run). */
  runners?: Partial<Record<StageName, StageRunner>>;
  /** How often the owner's timer reconciles: the next-run times in status count in these steps. */
  timerIntervalMs?: number;
  /** Told after every registry write (the Core turns it into the `maintenance.changed` event). */
  onChange?: (summary: { at: number; registrations: number; conflicts: number }) => void;
  onProgress?: (registrationId: string, lane: Job['lane'], tally: Tally) => void;
  /** What plans need to know about this machine (owner, start at login, profiles, tokens); built-in facts otherwise. */
  planFacts?: PlanFacts;
  /** Told when the plans waiting for a person change (the Core turns it into a status item). */
  onWaiting?: (waiting: WaitingPlan[]) => void;
}

/**
 * The maintenance coordinator (spec 004), a thin façade over its parts: enrollment, the reconciler
 * (validate identity -> sync -> observe generations -> RAG -> publish status) and conflict
 * resolution, sharing one registry, one writer fence and one path fingerprinter.
 */
export class Maintenance {
  readonly admission = new WriterAdmission();
  readonly store: RegistryStore;
  readonly #room: Room;
  readonly #enrollment: Enrollment;
  readonly #reconciler: Reconciler;
  readonly #resolution: Resolution;
  readonly #setup: Setup;
  readonly #facts: PlanFacts;
  readonly #abort = new AbortController();

  constructor(options: MaintenanceOptions) {
    const secret = loadInstallSecret(options.home);
    // Without its secret no fingerprint can be checked: the registry is held degraded, never rewritten.
    const { fingerprint, inspect, tryInspect } = cacheInspector(secret);
    this.store = new RegistryStore(
      options.home,
      (legacy) => migrateV1(legacy, tryInspect),
      (registry) => canonicalize(registry),
      (registry) => options.onChange?.({ at: Date.now(), registrations: registry.registrations.length, conflicts: registry.conflicts.length }),
      secret ? undefined : 'install_secret_damaged',
    );
    const clock = options.clock ?? Date.now;
    this.#room = { home: options.home, store: this.store, admission: this.admission, logger: options.logger, clock, fingerprint, inspect };
    const runners = options.runners ?? {};
    const holder: { reconciler?: Reconciler } = {};
    const jobs = new JobRunner({
      store: this.store,
      admission: this.admission,
      runners,
      clock,
      logger: options.logger,
      // A job's private context (cache handles, signal) is the reconciler's to build.
      context: (...args) => holder.reconciler!.context(...args),
    });
    this.#reconciler = holder.reconciler = new Reconciler(this.#room, jobs, {
      runners,
      timerIntervalMs: options.timerIntervalMs ?? 300_000,
      signal: this.#abort.signal,
      onProgress: options.onProgress,
    });
    this.#enrollment = new Enrollment(this.#room);
    this.#resolution = new Resolution(this.#room);
    this.#facts = options.planFacts ?? builtinFacts({ default: DEFAULT_CONFIG_SNAPSHOT });
    this.#setup = new Setup(this.#room, this.#enrollment, this.#facts, (id) => this.reconcileNow(id), () => options.onWaiting?.(this.#setup.waiting()));
    // Plans recorded before this start (or by another process) still wait: the owner says so at once.
    const waiting = this.#setup.waiting();
    if (waiting.length > 0) options.onWaiting?.(waiting);
    const load = this.store.load;
    if (load.state === 'degraded') options.logger.warn('maintenance registry degraded; left untouched', { reason: load.reason });
    else {
      if (load.state === 'migrated') options.logger.info('maintenance registry migrated', { from: load.from, registrations: load.registry.registrations.length });
      this.#reconciler.recover();
    }
  }

  fingerprint(path: string): string {
    return this.#room.fingerprint(realpathSync(path));
  }

  inspect(path: string): CacheInspection {
    return this.#room.inspect(path);
  }

  list(): Result<'Maintenance.List'> {
    const load = this.store.load;
    if (load.state === 'degraded') {
      return { registry: { state: 'degraded', reason: load.reason, version: 2 }, registrations: [], conflicts: [], retired: 0, activeWriters: this.admission.activeCount() };
    }
    const registry = this.store.current();
    const now = this.#room.clock();
    return {
      registry: { state: load.state, reason: null, version: 2 },
      registrations: registry.registrations.map((r) => registrationStatus(r, registry.jobs, now)),
      conflicts: registry.conflicts.map((c) => ({ conflictId: c.conflictId, kind: c.kind, state: c.lossy ? 'blocked' : 'open', candidates: c.candidates.length })),
      retired: registry.retired.length,
      activeWriters: this.admission.activeCount(),
    };
  }

  resolveConfig(config: Record<string, unknown>): ReturnType<Enrollment['resolveConfig']> {
    return this.#enrollment.resolveConfig(config);
  }

  enroll(params: EnrollParams): EnrollResult {
    return this.#enrollment.enroll(params);
  }

  add(params: AddParams): AddResult {
    return this.#enrollment.add(params);
  }

  /** Stops scheduling a registration; the cache itself is never touched. */
  disable(registrationId: string): RegistrationStatus {
    return this.#enrollment.setEnabled(registrationId, false);
  }

  /** Stops maintaining a registration for good (it is retired, never deleted); see removal.ts. */
  remove(params: RemoveParams): Promise<RemoveResult> {
    return removeRegistration(this.#room, params);
  }

  enable(registrationId: string): RegistrationStatus {
    return this.#enrollment.setEnabled(registrationId, true);
  }

  /** The owner's timer pass; lanes run only when they are due. */
  reconcile(only?: string): ReturnType<Reconciler['reconcile']> {
    return this.#reconciler.reconcile(only, false);
  }

  /** The spec's immediate pass (`steward service reconcile`): every enabled lane with work runs now. */
  reconcileNow(only?: string): ReturnType<Reconciler['reconcile']> {
    return this.#reconciler.reconcile(only, true);
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

  conflicts(): ConflictView[] {
    return this.#resolution.conflicts();
  }

  /** What each candidate of a conflict holds, for the local panel. */
  conflictEvidence(conflictId: string): Result<'Conflicts.Evidence'> {
    return this.#resolution.evidence(conflictId);
  }

  plan(conflictId: string, candidateId: string): ConflictPlan {
    return this.#resolution.plan(conflictId, candidateId);
  }

  apply(planId: string, idempotencyKey: string): Promise<AppliedResolution> {
    return this.#resolution.apply(planId, idempotencyKey);
  }

  /** Spec 004's setup plan: read-only and deterministic; nothing changes until it is applied. */
  planSetup(request: SetupRequest): Promise<SetupPlan> {
    return this.#setup.plan(request, this.#abort.signal);
  }

  /** Applies exactly the plan named (or replays the key): enrollment, the smoke request and the first pass of that registration. */
  applySetup(params: ApplyParams): Promise<SetupApplied> {
    return this.#setup.apply(params, this.#abort.signal);
  }

  /** The configured embedding profiles with their data boundaries. */
  profiles(): Result<'Maintenance.Profiles'> {
    const profiles = Object.entries(this.#facts.profiles.profiles()).sort(([a], [b]) => (a < b ? -1 : 1));
    return {
      profiles: profiles.map(([name, snapshot]) => ({ name, provider: snapshot.embedding.provider, model: snapshot.embedding.model, dataBoundary: this.#facts.profiles.boundary(snapshot).boundary })),
    };
  }

  waitingPlans(): WaitingPlan[] {
    return this.#setup.waiting();
  }

  dismissWaiting(waitingId: string): boolean {
    return this.#setup.dismiss(waitingId);
  }

  /** Cancels long work between windows and waits for every writer to unwind. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.admission.settled();
  }
}
