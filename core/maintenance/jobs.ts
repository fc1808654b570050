import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Logger } from '../log/index.js';
import type { Admitted, WriterAdmission, WriterKind } from './admission.js';
import type { Tally } from './lanes/index.js';
import type { CacheInspection } from './cache.js';
import { opaqueId } from './hashing.js';
import { backoffMs, errorClassOf } from './policy.js';
import type { RegistryStore } from './registry.js';
import type { StageName } from '../api/index.js';
import { TERMINAL_JOB_LIMIT, type CollectionStatus, type DegradedKind, type Job, type Policy, type Registration, type Waiting } from './schema.js';

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
  /** Private: where repository-document sources live. */
  sources: Registration['sources'];
  lastHeadAt: number | null;
  /** True for the immediate pass a person asked for; false for the owner's timer. */
  explicit: boolean;
  /** The forge's rate-limit reset while the sync stage waits for it (local documents go on meanwhile). */
  forgeHeldUntil?: number | null;
  /** The cache opened for writing and migrated forward; only inside the job's writer admission. */
  openCache(): Database.Database;
  /** A read-only handle for "is there work" checks, or null while the cache is still at schema 17. */
  readCache(): Database.Database | null;
  /** Aborted when the owner shuts down: long work stops between windows. */
  signal: AbortSignal;
  /** Told after each window or pass: counts only. */
  progress?: (tally: Tally) => void;
}

export interface StageOutcome {
  /** `waiting`: the work stopped at a forge rate limit — not a failure; `waiting.until` is the next run. */
  state?: 'succeeded' | 'waiting';
  contentGeneration?: number | null;
  coveredGeneration?: number | null;
  collections?: CollectionStatus[];
  waiting?: Waiting | null;
  /**
   * The run found nothing to do (an index already current): when the stage's record already says
   * so, no job is recorded and its last run stays the last one that did work.
   */
  idle?: boolean;
}

export interface LaneDue {
  due: boolean;
  reason: string | null;
  at: number | null;
  waiting: Waiting | null;
}

/**
 * A stage's work. `due` (optional) answers, without touching the network, whether a lane has work
 * now; a runner without it always runs. There is no default runner: a stage nobody implements
 * does not run, so it can never report work that did not happen.
 */
export type StageRunner = ((context: StageContext) => Promise<StageOutcome | void>) & {
  due?: (context: StageContext) => LaneDue;
};

export const LANES: Record<StageName, (policy: Policy) => Job['lane'][]> = {
  sync: (p) => (p.sync === 'off' ? [] : p.sync === 'head' ? ['head'] : ['head', 'tail']),
  rag: (p) => (p.rag === 'maintain' ? ['index'] : []),
};

const FAILED: Record<StageName, DegradedKind> = { sync: 'sync_failed', rag: 'index_failed' };

/**
 * The forge's rate-limit reset while the sync stage waits for it, or null. Nothing but the forge's
 * own answer moves it: not a failure's shorter backoff, not a success that asked no forge, not a
 * changed policy.
 */
export function rateLimitedUntil(r: Pick<Registration, 'waiting' | 'stages'>, now: number): number | null {
  const at = r.stages.sync.nextAttemptAt;
  return r.waiting?.reason === 'rate_limited' && r.waiting.until !== null && at !== null && at > now ? at : null;
}

export function namespaceOf(snapshot: Registration['configSnapshot']): string {
  return opaqueId('ns', [snapshot.profile, snapshot.embedding.provider, snapshot.embedding.model, snapshot.embedding.revision ?? null, snapshot.embedding.dimensions ?? null, snapshot.chunk], 12);
}

/** Job identity includes lane, profile, namespace and chunk policy: no cross-cache or cross-stage reuse. */
export function jobKeyOf(r: Registration, stage: StageName, lane: Job['lane']): string {
  return opaqueId('jk', [r.cacheUuid, r.registrationId, r.pathFingerprint, stage, lane, r.policy.profile, namespaceOf(r.configSnapshot), r.configSnapshot.chunk]);
}

export interface JobRunnerOptions {
  store: RegistryStore;
  admission: WriterAdmission;
  runners: Partial<Record<StageName, StageRunner>>;
  clock: () => number;
  logger: Logger;
  /** Builds the private parts of a job's context (cache handles, sources, the shutdown signal). */
  context: (r: Registration, stage: StageName, lane: Job['lane'], inspection: CacheInspection, explicit: boolean) => StageContext;
}

/**
 * Runs one stage lane of one registration as a durable job: recorded `running` before any work
 * (so a crash leaves evidence), then `succeeded` or `failed` with a sanitized class and the
 * stage's persisted backoff.
 */
export class JobRunner {
  readonly #o: JobRunnerOptions;

  constructor(options: JobRunnerOptions) {
    this.#o = options;
  }

  /** The job as recorded, or null for a run that found nothing to do (nothing recorded; see `idle`). */
  run(r: Registration, stage: StageName, lane: Job['lane'], inspection: CacheInspection, explicit: boolean): Promise<Admitted<Job | null>> {
    const runner = this.#o.runners[stage];
    if (!runner) return Promise.reject(new Error(`no ${stage} runner`));
    const kind: WriterKind = stage === 'sync' ? 'sync' : 'rag';
    const jobKey = jobKeyOf(r, stage, lane);
    return this.#o.admission.admit(r.cacheUuid, jobKey, kind, async () => {
      const jobId = this.#start(r, jobKey, stage, lane);
      const context = this.#o.context(r, stage, lane, inspection, explicit);
      let outcome: StageOutcome | void = undefined;
      let errorClass: string | null = null;
      try {
        outcome = await runner(context);
      } catch (error) {
        errorClass = errorClassOf(error);
      }
      // Stopped by shutdown: what committed stays, and the job says it was cut short — not failed, not done.
      if (context.signal.aborted) return this.#interrupt(jobId);
      if (!errorClass && outcome && this.#forget(r, jobId, stage, outcome)) return null;
      return this.#finish(r, jobId, stage, lane, errorClass, outcome ?? {});
    });
  }

  #start(r: Registration, jobKey: string, stage: StageName, lane: Job['lane']): string {
    const jobId = `job_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const startedAt = this.#o.clock();
    this.#o.store.commit((draft) => {
      // Work interrupted by a crash is rescheduled by this job: the old record says so, the new one says from where.
      const interrupted = draft.jobs.filter(
        (j) => j.state === 'interrupted' && j.rescheduledAs === null && j.registrationId === r.registrationId && j.pathFingerprint === r.pathFingerprint && j.stage === stage && j.lane === lane,
      );
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
    return jobId;
  }

  #interrupt(jobId: string): Job {
    const now = this.#o.clock();
    const next = this.#o.store.commit((draft) => {
      const job = draft.jobs.find((j) => j.jobId === jobId);
      if (job) Object.assign(job, { state: 'interrupted', finishedAt: now, errorClass: 'interrupted' });
    });
    return next.jobs.find((j) => j.jobId === jobId)!;
  }

  /**
   * An idle run whose stage record already holds what it found (a success, no failure to clear, the
   * same generations) leaves no trace: its `running` record goes. Returns whether it went.
   */
  #forget(r: Registration, jobId: string, stage: StageName, outcome: StageOutcome): boolean {
    if (outcome.idle !== true || (outcome.state ?? 'succeeded') !== 'succeeded') return false;
    let forgotten = false;
    this.#o.store.commit((draft) => {
      const job = draft.jobs.find((j) => j.jobId === jobId);
      const target = draft.registrations.find((x) => x.registrationId === r.registrationId && x.pathFingerprint === r.pathFingerprint);
      if (!job || !target || job.rescheduledFrom !== null) return;
      const st = target.stages[stage];
      const same = (now: number | null | undefined, recorded: number | null) => now === undefined || now === recorded;
      if (st.lastSuccessAt === null || st.errorClass !== null || st.nextAttemptAt !== null) return;
      if (!same(outcome.contentGeneration, target.generations.content) || !same(outcome.coveredGeneration, target.generations.covered)) return;
      draft.jobs = draft.jobs.filter((j) => j.jobId !== jobId);
      forgotten = true;
    });
    return forgotten;
  }

  #finish(r: Registration, jobId: string, stage: StageName, lane: Job['lane'], errorClass: string | null, outcome: StageOutcome): Job {
    const now = this.#o.clock();
    const state = errorClass ? 'failed' : (outcome.state ?? 'succeeded');
    const next = this.#o.store.commit((draft) => {
      const job = draft.jobs.find((j) => j.jobId === jobId);
      if (job) Object.assign(job, { state, finishedAt: now, errorClass });
      const target = draft.registrations.find((x) => x.registrationId === r.registrationId && x.pathFingerprint === r.pathFingerprint);
      if (target) recordStage(target, stage, lane, errorClass, outcome, now, jobId);
    });
    if (errorClass) this.#o.logger.warn('maintenance job failed', { registrationId: r.registrationId, stage, errorClass });
    return next.jobs.find((j) => j.jobId === jobId)!;
  }
}

function recordStage(target: Registration, stage: StageName, lane: Job['lane'], errorClass: string | null, outcome: StageOutcome, now: number, jobId: string): void {
  const st = target.stages[stage];
  // A pending rate-limit wait is never shortened by what this job records (see rateLimitedUntil).
  const limit = stage === 'sync' ? rateLimitedUntil(target, now) : null;
  const notBefore = (at: number | null) => (limit !== null && (at === null || at < limit) ? limit : at);
  if (errorClass) {
    const failures = st.failures + 1;
    target.stages[stage] = { ...st, errorClass, failures, lastFailureAt: now, nextAttemptAt: notBefore(now + backoffMs(failures)) };
    if (!target.degraded.includes(FAILED[stage])) target.degraded.push(FAILED[stage]);
  } else if (outcome.state === 'waiting') {
    // A rate limit is not a failure: what ran is kept, and the forge's reset is the next run time.
    target.stages[stage] = { ...st, errorClass: null, failures: 0, nextAttemptAt: notBefore(outcome.waiting?.until ?? null) };
    target.degraded = target.degraded.filter((d) => d !== FAILED[stage]);
  } else {
    // Success of this stage clears this stage's failure state, and only this stage's.
    target.stages[stage] = { ...st, errorClass: null, failures: 0, lastSuccessAt: now, nextAttemptAt: notBefore(null) };
    target.degraded = target.degraded.filter((d) => d !== FAILED[stage]);
    if (stage === 'sync' && lane === 'head') target.lastHeadAt = now;
  }
  if (!errorClass) {
    if (outcome.contentGeneration !== undefined) target.generations.content = outcome.contentGeneration;
    if (outcome.coveredGeneration !== undefined) target.generations.covered = outcome.coveredGeneration;
    if (outcome.collections !== undefined) target.collections = outcome.collections;
    if (outcome.waiting !== undefined && (limit === null || outcome.waiting?.reason === 'rate_limited')) target.waiting = outcome.waiting;
  }
  target.lastWriterAt = now;
  target.terminalJobIds = [...target.terminalJobIds, jobId].slice(-TERMINAL_JOB_LIMIT);
}
