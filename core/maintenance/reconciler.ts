import Database from 'better-sqlite3';
import { StewardError, type ReconcileResult } from '../api/index.js';
import { sqliteOptions } from '../store/index.js';
import { openCacheForWrite, type CacheInspection } from './cache.js';
import { forgeSummary } from './enrollment.js';
import { hashOf } from './hashing.js';
import { configHashOf } from './identity.js';
import { LANES, rateLimitedUntil, type JobRunner, type LaneDue, type StageContext, type StageRunner } from './jobs.js';
import type { Tally } from './lanes/index.js';
import { findRegistration } from './lookup.js';
import type { Room } from './room.js';
import { jobStatus } from './status.js';
import type { StageName } from '../api/index.js';
import type { DegradedKind, Job, Registration, Waiting } from './schema.js';

type ReconcileJob = ReconcileResult['jobs'][number];
type Skip = ReconcileResult['skipped'][number];

export interface ReconcilerOptions {
  runners: Partial<Record<StageName, StageRunner>>;
  /** How often the owner's timer passes; a lane with work now runs again one interval later. */
  timerIntervalMs: number;
  signal: AbortSignal;
  onProgress?: (registrationId: string, lane: Job['lane'], tally: Tally) => void;
}

export function markSnapshotInvalid(r: Registration, now: number): void {
  r.enabled = false;
  r.disabledReason = 'config_snapshot_invalid';
  if (!r.degraded.includes('config_snapshot_invalid')) r.degraded.push('config_snapshot_invalid');
  r.updatedAt = now;
}

/** Local document sources need no forge: a forge's rate limit does not hold them. */
function readsLocalDocuments(r: Registration): boolean {
  return r.sources.some((s) => s.root);
}

/**
 * Whether a stage waits out its backoff or rate limit whole. A rate limit holds only the forge's
 * part (local documents go on); a failure's backoff holds everything.
 */
function heldWhole(r: Registration, stage: StageName, now: number): boolean {
  const st = r.stages[stage];
  if (st.nextAttemptAt === null || st.nextAttemptAt <= now) return false;
  return !(stage === 'sync' && st.errorClass === null && rateLimitedUntil(r, now) !== null && readsLocalDocuments(r));
}

function oldestWriterFirst(a: Registration, b: Registration): number {
  const aw = a.lastWriterAt ?? -1;
  const bw = b.lastWriterAt ?? -1;
  return aw !== bw ? aw - bw : a.registrationId < b.registrationId ? -1 : 1;
}

/** A read-only handle for due checks; null while the cache is still at schema 17 (nothing synced yet). */
function readCache(inspection: CacheInspection): Database.Database | null {
  if (inspection.schemaVersion < 18) return null;
  const db = new Database(inspection.realPath, sqliteOptions({ readonly: true, fileMustExist: true }));
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * The scheduler pass: validate identity -> sync head/tail -> observe generations -> RAG -> publish
 * status. Lanes without work are skipped with their reason (never recorded as jobs that ran).
 */
export class Reconciler {
  readonly #room: Room;
  readonly #jobs: JobRunner;
  readonly #o: ReconcilerOptions;

  constructor(room: Room, jobs: JobRunner, options: ReconcilerOptions) {
    this.#room = room;
    this.#jobs = jobs;
    this.#o = options;
  }

  /** Crash recovery: a job still `running` belonged to an owner that died; snapshots are rechecked. */
  recover(): void {
    const registry = this.#room.store.current();
    const running = registry.jobs.filter((j) => j.state === 'running');
    const invalid = registry.registrations.filter((r) => !this.snapshotValid(r) && r.disabledReason !== 'config_snapshot_invalid');
    if (running.length === 0 && invalid.length === 0) return;
    const now = this.#room.clock();
    this.#room.store.commit((draft) => {
      for (const job of draft.jobs) if (job.state === 'running') Object.assign(job, { state: 'interrupted', finishedAt: now, errorClass: 'interrupted' });
      for (const r of draft.registrations) if (invalid.some((i) => i.registrationId === r.registrationId && i.pathFingerprint === r.pathFingerprint)) markSnapshotInvalid(r, now);
    });
    if (running.length > 0) this.#room.logger.warn('maintenance jobs interrupted by a previous crash', { jobs: running.length });
    if (invalid.length > 0) this.#room.logger.warn('maintenance registrations disabled: config_snapshot_invalid', { registrations: invalid.length });
  }

  snapshotValid(r: Registration): boolean {
    if (configHashOf(r.configSnapshot) !== r.configHash) return false;
    try {
      return this.#room.inspect(r.cachePath).pathFingerprint === r.pathFingerprint;
    } catch {
      // An unreadable cache is a degraded state of its own, not a broken snapshot.
      return true;
    }
  }

  /**
   * One pass. Same-cache registrations run oldest-writer-first; other caches run independently.
   * `explicit` (a person asked) runs the head lane whatever its interval; a complete tail still
   * walks again only on its own re-verification interval.
   */
  async reconcile(only: string | undefined, explicit: boolean): Promise<ReconcileResult> {
    const registry = this.#room.store.current();
    const targets = only === undefined ? registry.registrations : [findRegistration(registry, only)];
    const byCache = new Map<string, Registration[]>();
    for (const r of targets) byCache.set(r.cacheUuid, [...(byCache.get(r.cacheUuid) ?? []), r]);
    const jobs: ReconcileJob[] = [];
    const skipped: Skip[] = [];
    await Promise.all(
      [...byCache.values()].map(async (group) => {
        for (const r of [...group].sort(oldestWriterFirst)) await this.#reconcileOne(r.registrationId, r.pathFingerprint, explicit, jobs, skipped);
      }),
    );
    return { visited: targets.length, jobs, skipped };
  }

  #current(registrationId: string, pathFingerprint: string): Registration | undefined {
    return this.#room.store.current().registrations.find((r) => r.registrationId === registrationId && r.pathFingerprint === pathFingerprint);
  }

  #update(r: Pick<Registration, 'registrationId' | 'pathFingerprint'>, change: (target: Registration) => void): void {
    this.#room.store.commit((draft) => {
      const target = draft.registrations.find((x) => x.registrationId === r.registrationId && x.pathFingerprint === r.pathFingerprint);
      if (target) change(target);
    });
  }

  async #reconcileOne(registrationId: string, pathFingerprint: string, explicit: boolean, jobs: ReconcileJob[], skipped: Skip[]): Promise<void> {
    let r = this.#current(registrationId, pathFingerprint);
    if (!r) return;
    const skip = (stage: StageName | null, lane: Job['lane'] | null, reason: string, nextAttemptAt: number | null = null) =>
      skipped.push({ registrationId, stage, lane, reason, nextAttemptAt });
    if (!this.snapshotValid(r)) {
      const now = this.#room.clock();
      this.#update(r, (target) => markSnapshotInvalid(target, now));
      return void skip(null, null, 'config_snapshot_invalid');
    }
    if (!r.enabled) return void skip(null, null, r.disabledReason ?? 'disabled');
    const inspection = this.#validateIdentity(r);
    if (!inspection) return void skip(null, null, this.#current(registrationId, pathFingerprint)?.degraded.includes('identity_replaced') ? 'identity_replaced' : 'cache_unreadable');
    const next: number[] = [];
    for (const stage of ['sync', 'rag'] as const) {
      r = this.#current(registrationId, pathFingerprint);
      if (!r) return;
      const lanes = LANES[stage](r.policy);
      if (lanes.length === 0) continue;
      const runner = this.#o.runners[stage];
      // No runner, no job: a stage nobody implements is never reported as having run.
      if (!runner) {
        skip(stage, null, `${stage}_unavailable`);
        continue;
      }
      const now = this.#room.clock();
      const state = r.stages[stage];
      // A backed-off (or rate-limited) stage waits alone: the other stage still runs. A rate limit
      // holds the forge's collections only; the lanes go on over local documents.
      if (heldWhole(r, stage, now)) {
        skip(stage, null, stage === 'sync' && r.waiting?.reason === 'rate_limited' ? 'rate_limited' : 'backoff', state.nextAttemptAt);
        next.push(state.nextAttemptAt!);
        continue;
      }
      for (const lane of lanes) {
        r = this.#current(registrationId, pathFingerprint)!;
        const due = runner.due?.(this.context(r, stage, lane, inspection, explicit));
        if (due && stage === 'sync') this.#noteWaiting(r, due.waiting);
        if (due && !due.due) {
          skip(stage, lane, due.reason ?? 'not_due', due.at);
          continue;
        }
        try {
          const { result, coalesced } = await this.#jobs.run(r, stage, lane, inspection, explicit);
          // A run that found nothing to do is reported as the skip it turned out to be, not as a job.
          if (!result) {
            skip(stage, lane, stage === 'rag' ? 'index_current' : 'nothing_changed');
            continue;
          }
          jobs.push({ ...jobStatus(result), registrationId, coalesced });
          // A lane stopped by a rate limit leaves the next lane local documents to walk, if it has any.
          if (result.state === 'failed' || (result.state === 'waiting' && !readsLocalDocuments(r))) break;
        } catch (error) {
          if (error instanceof StewardError && error.code === 'cache_writer_busy') {
            skip(stage, lane, 'cache_writer_busy');
            break;
          }
          throw error;
        }
      }
      r = this.#current(registrationId, pathFingerprint);
      if (r) next.push(...this.#nextRuns(r, stage, runner, inspection));
    }
    // Publish the frontiers as this pass left them, not as it found them, with the next run: one registry write.
    r = this.#current(registrationId, pathFingerprint);
    if (!r) return;
    const nextRunAt = next.length > 0 ? Math.min(...next) : null;
    if (jobs.some((j) => j.registrationId === registrationId)) this.#validateIdentity(r, { nextRunAt });
    else if (nextRunAt !== r.nextRunAt) this.#update(r, (target) => void (target.nextRunAt = nextRunAt));
  }

  /** A missing token or an unknown forge is a status reason, recorded once, not a failure loop. */
  #noteWaiting(r: Registration, waiting: Waiting | null): void {
    const now = this.#room.clock();
    const current = r.waiting && r.waiting.reason === 'rate_limited' && r.waiting.until !== null && r.waiting.until > now ? r.waiting : waiting;
    if (hashOf(current) !== hashOf(r.waiting)) this.#update(r, (target) => void (target.waiting = current));
  }

  #nextRuns(r: Registration, stage: StageName, runner: StageRunner, inspection: CacheInspection): number[] {
    const now = this.#room.clock();
    if (heldWhole(r, stage, now)) return [r.stages[stage].nextAttemptAt!];
    const limit = stage === 'sync' ? rateLimitedUntil(r, now) : null;
    const out: number[] = limit === null ? [] : [limit];
    for (const lane of LANES[stage](r.policy)) {
      const due: LaneDue | undefined = runner.due?.(this.context(r, stage, lane, inspection, false));
      if (!due) out.push(now + this.#o.timerIntervalMs);
      else if (due.due) out.push(now + this.#o.timerIntervalMs);
      else if (due.at !== null) out.push(Math.max(due.at, now + this.#o.timerIntervalMs));
      // A missing token is looked for again on every pass.
      else if (due.waiting) out.push(now + this.#o.timerIntervalMs);
    }
    return out;
  }

  /** The private parts of a job: cache handles, sources, the shutdown signal. */
  context(r: Registration, stage: StageName, lane: Job['lane'], inspection: CacheInspection, explicit: boolean): StageContext {
    return {
      registrationId: r.registrationId,
      cacheUuid: r.cacheUuid,
      canonicalRepoId: r.canonicalRepoId,
      stage,
      lane,
      policy: r.policy,
      configSnapshot: r.configSnapshot,
      cachePath: r.cachePath,
      inspection,
      sources: r.sources,
      lastHeadAt: r.lastHeadAt,
      explicit,
      forgeHeldUntil: stage === 'sync' ? rateLimitedUntil(r, this.#room.clock()) : null,
      openCache: () => openCacheForWrite(inspection.realPath, inspection.pathFingerprint),
      readCache: () => readCache(inspection),
      signal: this.#o.signal,
      progress: (tally) => this.#o.onProgress?.(r.registrationId, lane, tally),
    };
  }

  /** Validate identity: the cache at the registered path must still carry the registered UUID and binding. */
  #validateIdentity(r: Registration, extra: Partial<Pick<Registration, 'nextRunAt'>> = {}): CacheInspection | null {
    let inspection: CacheInspection | null = null;
    let problem: DegradedKind | null = null;
    try {
      inspection = this.#room.inspect(r.cachePath);
      const same = inspection.cacheUuid === r.cacheUuid && inspection.pathFingerprint === r.pathFingerprint && inspection.resolveRepository(r.canonicalRepoId) === r.canonicalRepoId;
      if (!same) problem = 'identity_replaced';
    } catch {
      problem = 'cache_unreadable';
    }
    const degraded: DegradedKind[] = r.degraded.filter((d) => d !== 'identity_replaced' && d !== 'cache_unreadable');
    if (problem) degraded.push(problem);
    const healthy = inspection && !problem ? inspection : null;
    const frontiers = healthy ? healthy.frontiers.filter((f) => f.repoId === r.canonicalRepoId).map(({ repoId: _repoId, ...f }) => f) : r.frontiers;
    const forge = healthy ? forgeSummary(healthy, r.canonicalRepoId) : r.forge;
    // Observing the content generation is the spec's step between sync and RAG: read from the cache itself.
    // Coverage is the RAG stage's to record (its own namespace, read inside the writer lock), never observed here.
    const repo = healthy?.repositories.find((x) => x.repoId === r.canonicalRepoId);
    const generations = repo ? { content: repo.contentGeneration, covered: r.generations.covered } : r.generations;
    const nextRunAt = extra.nextRunAt !== undefined ? extra.nextRunAt : r.nextRunAt;
    if (hashOf([degraded, frontiers, forge, generations, nextRunAt]) !== hashOf([r.degraded, r.frontiers, r.forge, r.generations, r.nextRunAt])) {
      this.#update(r, (target) => Object.assign(target, { degraded, frontiers, forge, generations, nextRunAt }));
      if (problem) this.#room.logger.warn('maintenance registration degraded', { registrationId: r.registrationId, kind: problem });
    }
    return healthy;
  }
}
