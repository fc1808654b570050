import { REPO_ID_SHAPE, type ConflictView, type JobStatus, type RegistrationStatus } from '../api/index.js';
import { hasSecret, namesCredential } from '../secrets/index.js';
import { opaqueId } from './hashing.js';
import { authorityHashOf, policyHashOf } from './identity.js';
import type { CandidateBundle, CollectionStatus, Conflict, Job, Registration } from './schema.js';

/** A repo id comes from the cache file; anything not shaped like one is shown only as a hash. */
const secretish = (id: string) => hasSecret(id) || namesCredential(id);

export function publicRepoId(repoId: string): string {
  return REPO_ID_SHAPE.test(repoId) && !secretish(repoId) ? repoId : opaqueId('repo', repoId, 12);
}

/** Aliases are display metadata typed by people: a credential pasted as OWNER/NAME is never shown. */
export function publicAliases(aliases: readonly string[]): string[] {
  return aliases.filter((a) => REPO_ID_SHAPE.test(a) && !secretish(a));
}

const SAFE_LEGACY_ID = /^[A-Za-z0-9][A-Za-z0-9:._@/+-]{0,199}$/;

/** Legacy ids were derived from aliases; one that does not look like that is shown only as a hash. */
export function publicLegacyId(id: string): string {
  return SAFE_LEGACY_ID.test(id) && !secretish(id) && !id.includes('=') ? id : opaqueId('legacy', id, 12);
}

export const JOBS_PER_REGISTRATION = 10;

export function jobStatus(job: Job): JobStatus {
  return {
    jobId: job.jobId,
    stage: job.stage,
    lane: job.lane,
    state: job.state,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    errorClass: job.errorClass,
    rescheduledAs: job.rescheduledAs,
    rescheduledFrom: job.rescheduledFrom,
  };
}

const FORGE_COLLECTIONS = new Set(['issues', 'issue-comments', 'pulls', 'pr-comments', 'wiki']);

const stillWaiting = (r: Registration, now: number) => r.waiting !== null && (r.waiting.until === null || r.waiting.until > now);

/**
 * Per collection as the last sync job recorded it; a collection no job has reported yet is shown as
 * never refreshed and not backfilled, with the reason sync is waiting when there is one.
 */
export function collectionsOf(r: Registration, now: number): CollectionStatus[] {
  const waiting = stillWaiting(r, now) ? r.waiting!.reason : null;
  const recorded = new Map(r.collections.map((c) => [c.collection, c]));
  const names = [...r.policy.collections, ...(r.sources.length > 0 ? ['documents'] : [])];
  return names.map((collection): CollectionStatus => {
    const reason = FORGE_COLLECTIONS.has(collection) ? waiting : null;
    const held = recorded.get(collection);
    if (held) return { ...held, reason: held.reason ?? reason };
    return {
      collection,
      items: 0,
      tombstones: 0,
      skipped: 0,
      head: { state: r.policy.sync === 'off' ? 'off' : 'never', freshAt: null },
      tail: { state: r.policy.sync === 'head-and-backfill' ? 'backfilling' : 'off', pagesDone: 0, pagesKnown: null, verifiedAt: null },
      reason,
    };
  });
}

/**
 * The spec's lifecycle words, claimed only when true: `ready` needs every configured lane to have
 * run and proven its part (heads fresh, tails complete, the index current); a registration whose
 * sync never ran is `pending`, one held by a rate limit or a missing token is `waiting`.
 */
function lifecycleState(r: Registration, jobs: readonly Job[], collections: readonly CollectionStatus[], now: number): RegistrationStatus['state'] {
  if (!r.enabled) return r.disabledReason === 'operator' || r.disabledReason === null ? 'disabled' : 'blocked';
  const running = jobs.find((j) => j.state === 'running');
  if (running) return running.stage === 'rag' ? 'indexing' : running.lane === 'tail' ? 'backfilling' : 'refreshing';
  if (r.degraded.length > 0) return 'degraded';
  if (r.policy.sync !== 'off') {
    if (stillWaiting(r, now)) return 'waiting';
    if (r.stages.sync.lastSuccessAt === null) return 'pending';
    if (collections.some((c) => c.head.state === 'never' || c.head.state === 'catching-up')) return 'refreshing';
    if (collections.some((c) => c.tail.state === 'backfilling')) return 'backfilling';
  }
  if (r.policy.rag === 'maintain') {
    if (r.stages.rag.lastSuccessAt === null) return 'pending';
    if (r.generations.covered === null || r.generations.content === null || r.generations.covered < r.generations.content) return 'indexing';
  }
  return 'ready';
}

/** The sanitized lifecycle state of one registration: no path, snapshot or destination in it. */
export function registrationStatus(r: Registration, allJobs: readonly Job[], now: number = Date.now()): RegistrationStatus {
  const jobs = allJobs.filter((j) => j.registrationId === r.registrationId && j.pathFingerprint === r.pathFingerprint);
  const collections = collectionsOf(r, now);
  return {
    registrationId: r.registrationId,
    cacheUuid: r.cacheUuid,
    pathFingerprint: r.pathFingerprint,
    canonicalRepoId: publicRepoId(r.canonicalRepoId),
    aliases: publicAliases(r.aliases),
    legacyIds: r.legacyIds.map(publicLegacyId),
    policy: { sync: r.policy.sync, collections: [...r.policy.collections], rag: r.policy.rag, profile: r.policy.profile },
    configHash: r.configHash,
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    state: lifecycleState(r, jobs, collections, now),
    degraded: r.degraded,
    stages: { sync: r.stages.sync, rag: r.stages.rag },
    generations: r.generations,
    frontiers: r.frontiers,
    jobs: jobs.slice(-JOBS_PER_REGISTRATION).reverse().map(jobStatus),
    forge: r.forge,
    collections,
    waiting: stillWaiting(r, now) ? r.waiting : null,
    nextRunAt: r.enabled ? r.nextRunAt : null,
  };
}

function member(bundle: CandidateBundle): ConflictView['candidates'][number]['members'][number] {
  const r = bundle.registration;
  if (r) {
    return {
      registrationId: r.registrationId,
      legacyId: null,
      canonicalRepoId: publicRepoId(r.canonicalRepoId),
      aliases: publicAliases(r.aliases),
      legacyIds: r.legacyIds.map(publicLegacyId),
      policyHash: policyHashOf(r.policy),
      configHash: r.configHash,
      sourceAuthorities: r.sources.map((s) => authorityHashOf(s.authority)).sort(),
      priorEnabled: bundle.priorEnabled,
    };
  }
  const legacy = bundle.legacy;
  return {
    registrationId: null,
    legacyId: legacy ? publicLegacyId(legacy.id) : null,
    canonicalRepoId: null,
    aliases: legacy ? publicAliases([legacy.alias]) : [],
    legacyIds: legacy ? [publicLegacyId(legacy.id)] : [],
    policyHash: legacy ? policyHashOf(legacy.policy) : null,
    configHash: legacy?.configHash ?? null,
    sourceAuthorities: (legacy?.sources ?? [])
      .map((s) => authorityHashOf({ kind: s.kind, ref: s.ref, localAuthority: s.localAuthority, profile: s.profile }))
      .sort(),
    priorEnabled: bundle.priorEnabled,
  };
}

export const LOSSY_REASON = 'Supported recovery evidence is unavailable: this legacy conflict has no paired private candidates.';

/** Public-safe conflict evidence: identical in text and JSON so a pick can be made in either. */
export function conflictView(c: Conflict): ConflictView {
  return {
    conflictId: c.conflictId,
    kind: c.kind,
    state: c.lossy ? 'blocked' : 'open',
    blockedReason: c.lossy ? LOSSY_REASON : null,
    cacheUuid: c.cacheUuid,
    canonicalRepoId: c.canonicalRepoId === null ? null : publicRepoId(c.canonicalRepoId),
    aliases: publicAliases(c.aliases),
    legacyIds: c.legacyIds.map(publicLegacyId),
    createdAt: c.createdAt,
    candidates: c.candidates.map((candidate) => ({
      candidateId: candidate.candidateId,
      pathFingerprint: candidate.pathFingerprint,
      priorEnabled: candidate.bundles.some((b) => b.priorEnabled),
      members: candidate.bundles.map(member),
    })),
  };
}
