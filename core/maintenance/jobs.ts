import { randomUUID } from 'node:crypto';
import type { Logger } from '../log/index.js';
import type { Admitted, WriterAdmission, WriterKind } from './admission.js';
import type { CacheInspection } from './cache.js';
import { opaqueId } from './hashing.js';
import { backoffMs, errorClassOf } from './policy.js';
import type { RegistryStore } from './registry.js';
import { TERMINAL_JOB_LIMIT, type DegradedKind, type Job, type Policy, type Registration } from './schema.js';
import type { StageName } from '../api/index.js';

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

/**
 * Without sync lanes (a later issue) a stage observes the cache's content generation. Coverage is
 * never observed from outside: only the RAG stage records it, for the registration's own namespace,
 * from a generation captured inside the writer admission.
 */
export const observe: StageRunner = async ({ inspection, canonicalRepoId }) => {
  const repo = inspection.repositories.find((r) => r.repoId === canonicalRepoId);
  return { contentGeneration: repo?.contentGeneration ?? null };
};

export const LANES: Record<StageName, (policy: Policy) => Job['lane'][]> = {
  sync: (p) => (p.sync === 'off' ? [] : p.sync === 'head' ? ['head'] : ['head', 'tail']),
  rag: (p) => (p.rag === 'maintain' ? ['index'] : []),
};

const FAILED: Record<StageName, DegradedKind> = { sync: 'sync_failed', rag: 'index_failed' };

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
  runners: Record<StageName, StageRunner>;
  clock: () => number;
  logger: Logger;
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

  run(r: Registration, stage: StageName, lane: Job['lane'], inspection: CacheInspection): Promise<Admitted<Job>> {
    const kind: WriterKind = stage === 'sync' ? 'sync' : 'rag';
    const jobKey = jobKeyOf(r, stage, lane);
    return this.#o.admission.admit(r.cacheUuid, jobKey, kind, async () => {
      const jobId = this.#start(r, jobKey, stage, lane);
      let outcome: StageOutcome | void = undefined;
      let errorClass: string | null = null;
      try {
        outcome = await this.#o.runners[stage]({
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
      return this.#finish(r, jobId, stage, errorClass, outcome ?? {});
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

  #finish(r: Registration, jobId: string, stage: StageName, errorClass: string | null, outcome: StageOutcome): Job {
    const now = this.#o.clock();
    const next = this.#o.store.commit((draft) => {
      const job = draft.jobs.find((j) => j.jobId === jobId);
      if (job) Object.assign(job, { state: errorClass ? 'failed' : 'succeeded', finishedAt: now, errorClass });
      const target = draft.registrations.find((x) => x.registrationId === r.registrationId && x.pathFingerprint === r.pathFingerprint);
      if (target) recordStage(target, stage, errorClass, outcome, now, jobId);
    });
    if (errorClass) this.#o.logger.warn('maintenance job failed', { registrationId: r.registrationId, stage, errorClass });
    return next.jobs.find((j) => j.jobId === jobId)!;
  }
}

function recordStage(target: Registration, stage: StageName, errorClass: string | null, outcome: StageOutcome, now: number, jobId: string): void {
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
}
