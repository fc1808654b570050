import { hashOf, opaqueId, sha256, stableStringify } from './hashing.js';
import {
  TERMINAL_JOB_LIMIT,
  emptyStage,
  type Candidate,
  type CandidateBundle,
  type ConfigSnapshot,
  type Conflict,
  type Policy,
  type Registration,
  type RegistryV2,
  type RepositorySource,
  type SourceAuthority,
  type StageState,
} from './schema.js';

/** The scheduler identity: one registration per (cache_uuid, canonical_repo_id), whatever the alias. */
export function registrationIdFor(cacheUuid: string, canonicalRepoId: string): string {
  return opaqueId('reg', [cacheUuid, canonicalRepoId]);
}

export function configHashOf(snapshot: ConfigSnapshot): string {
  return sha256(stableStringify(snapshot));
}

export function policyHashOf(policy: Policy): string {
  return hashOf({ ...policy, collections: [...policy.collections].sort() }).slice(0, 16);
}

export function authorityHashOf(authority: SourceAuthority): string {
  return hashOf(authority).slice(0, 16);
}

/** Equivalent immutable authorities get one canonical source id, whatever id they were registered under. */
export function canonicalSourceId(authority: SourceAuthority): string {
  return `src_${authorityHashOf(authority)}`;
}

/** What must agree for two records of one repository to be the same registration. */
export function compatibilityKey(registration: Registration): string {
  return hashOf({
    policy: policyHashOf(registration.policy),
    config: registration.configHash,
    sources: registration.sources.map((s) => authorityHashOf(s.authority)).sort(),
  }).slice(0, 16);
}

const max = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/** A rate-limit wait: not a failure (no error class), only the forge's reset as the next run time. */
const waitOf = (s: StageState): number | null => (s.errorClass === null ? s.nextAttemptAt : null);

/**
 * A later success supersedes an older failure; otherwise the most conservative backoff wins. A
 * pending rate-limit wait is no failure and nothing supersedes it: it is kept.
 */
export function mergeStage(a: StageState, b: StageState): StageState {
  const lastSuccessAt = max(a.lastSuccessAt, b.lastSuccessAt);
  const lastFailureAt = max(a.lastFailureAt, b.lastFailureAt);
  if (lastFailureAt === null || (lastSuccessAt !== null && lastSuccessAt >= lastFailureAt)) {
    return { errorClass: null, failures: 0, lastFailureAt, lastSuccessAt, nextAttemptAt: max(waitOf(a), waitOf(b)) };
  }
  const at = (s: StageState) => s.lastFailureAt ?? -1;
  const newest = at(a) !== at(b) ? (at(a) > at(b) ? a : b) : (a.errorClass ?? '') <= (b.errorClass ?? '') ? a : b;
  return {
    errorClass: newest.errorClass,
    failures: Math.max(a.failures, b.failures),
    lastFailureAt,
    lastSuccessAt,
    nextAttemptAt: max(a.nextAttemptAt, b.nextAttemptAt),
  };
}

const union = (lists: string[][]): string[] => [...new Set(lists.flat())].sort();

/**
 * Job ids are random, so recency is their position: lists arrive oldest record first, each in the
 * order its jobs ended, and the newest `limit` distinct ids are kept in that order.
 */
function newestJobIds(listsOldestFirst: string[][], limit: number): string[] {
  const seen = new Set<string>();
  const newestFirst: string[] = [];
  for (const id of listsOldestFirst.flat().reverse()) {
    if (seen.has(id)) continue;
    seen.add(id);
    newestFirst.push(id);
  }
  return newestFirst.slice(0, limit).reverse();
}

function newestFirst(a: Registration, b: Registration): number {
  if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt;
  const ak = a.legacyIds[0] ?? a.registrationId;
  const bk = b.legacyIds[0] ?? b.registrationId;
  return ak < bk ? -1 : ak > bk ? 1 : 0;
}

/** Coalesces compatible records of one registration: deterministic whatever order they arrive in. */
export function coalesce(records: readonly Registration[]): Registration {
  const ordered = [...records].sort(newestFirst);
  const newest = ordered[0]!;
  return {
    ...newest,
    aliases: union(ordered.map((r) => r.aliases)),
    legacyIds: union(ordered.map((r) => r.legacyIds)),
    sources: newest.sources,
    stages: {
      sync: ordered.map((r) => r.stages.sync).reduce(mergeStage, emptyStage()),
      rag: ordered.map((r) => r.stages.rag).reduce(mergeStage, emptyStage()),
    },
    terminalJobIds: newestJobIds([...ordered].reverse().map((r) => r.terminalJobIds), TERMINAL_JOB_LIMIT),
    enrolledAt: Math.min(...ordered.map((r) => r.enrolledAt)),
    updatedAt: Math.max(...ordered.map((r) => r.updatedAt)),
    lastWriterAt: ordered.map((r) => r.lastWriterAt).reduce(max, null),
  };
}

/** Follows a redirect chain to its end; a cycle has no end and yields null. */
export function followRedirects(redirects: Record<string, string>, id: string): string | null {
  const seen = new Set<string>();
  let current = id;
  while (Object.prototype.hasOwnProperty.call(redirects, current)) {
    if (seen.has(current)) return null;
    seen.add(current);
    current = redirects[current]!;
  }
  return current;
}

function sortedRecord(entries: Array<[string, string]>): Record<string, string> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Redirects stored flat: every legacy id points at the end of its (acyclic) chain. */
export function flattenRedirects(redirects: Record<string, string>): Record<string, string> {
  const flat: Array<[string, string]> = [];
  for (const key of Object.keys(redirects)) {
    const end = followRedirects(redirects, key);
    if (end !== null && end !== key) flat.push([key, end]);
  }
  return sortedRecord(flat);
}

/** Gives every source its canonical id and records where the old ids now point. */
function canonicalizeSources(sources: readonly RepositorySource[], sourceRedirects: Record<string, string>): RepositorySource[] {
  const byId = new Map<string, RepositorySource>();
  for (const source of sources) {
    const sourceId = canonicalSourceId(source.authority);
    if (source.sourceId !== sourceId) sourceRedirects[source.sourceId] = sourceId;
    byId.set(sourceId, { sourceId, authority: source.authority, ...(source.root ? { root: source.root } : {}) });
  }
  return [...byId.values()].sort((a, b) => (a.sourceId < b.sourceId ? -1 : 1));
}

export function bundleOf(registration: Registration): CandidateBundle {
  return { registration, legacy: null, priorEnabled: registration.enabled };
}

function sortBundles(bundles: CandidateBundle[]): CandidateBundle[] {
  const key = (b: CandidateBundle) => `${b.registration?.registrationId ?? ''}\u0000${b.legacy?.id ?? ''}\u0000${b.registration ? compatibilityKey(b.registration) : ''}`;
  return [...bundles].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function sortCandidates(candidates: Candidate[]): Candidate[] {
  return [...candidates].sort((a, b) => (a.candidateId < b.candidateId ? -1 : 1)).map((c) => ({ ...c, bundles: sortBundles(c.bundles) }));
}

function evidenceTime(bundles: readonly CandidateBundle[]): number {
  return Math.max(0, ...bundles.map((b) => b.registration?.updatedAt ?? b.legacy?.updatedAt ?? 0));
}

function upsertConflict(registry: RegistryV2, conflict: Conflict): void {
  const existing = registry.conflicts.find((c) => c.conflictId === conflict.conflictId);
  if (!existing) {
    registry.conflicts.push({ ...conflict, candidates: sortCandidates(conflict.candidates) });
    return;
  }
  for (const candidate of conflict.candidates) {
    const same = existing.candidates.find((c) => c.candidateId === candidate.candidateId);
    if (!same) existing.candidates.push(candidate);
    else
      for (const bundle of candidate.bundles) {
        const id = bundle.registration?.registrationId;
        if (!same.bundles.some((b) => b.registration?.registrationId === id && id !== undefined)) same.bundles.push(bundle);
      }
  }
  existing.candidates = sortCandidates(existing.candidates);
  existing.aliases = union([existing.aliases, conflict.aliases]);
  existing.legacyIds = union([existing.legacyIds, conflict.legacyIds]);
}

function identityConflict(registrations: Registration[]): Conflict {
  const first = registrations[0]!;
  const conflictId = opaqueId('ic', [first.cacheUuid, first.canonicalRepoId, first.pathFingerprint]);
  const variants = new Map<string, Registration[]>();
  for (const r of registrations) variants.set(compatibilityKey(r), [...(variants.get(compatibilityKey(r)) ?? []), r]);
  const candidates = [...variants.entries()].map(([key, group]) => {
    const bundle = bundleOf(coalesce(group));
    return { candidateId: opaqueId('cand', [conflictId, key], 12), pathFingerprint: first.pathFingerprint, bundles: [bundle] };
  });
  return {
    conflictId,
    kind: 'identity_conflict',
    createdAt: evidenceTime(candidates.flatMap((c) => c.bundles)),
    cacheUuid: first.cacheUuid,
    canonicalRepoId: first.canonicalRepoId,
    aliases: union(registrations.map((r) => r.aliases)),
    legacyIds: union(registrations.map((r) => r.legacyIds)),
    lossy: false,
    candidates,
  };
}

function cloneConflict(cacheUuid: string, registrations: Registration[]): Conflict {
  const conflictId = opaqueId('cc', [cacheUuid]);
  const cohorts = new Map<string, Registration[]>();
  for (const r of registrations) cohorts.set(r.pathFingerprint, [...(cohorts.get(r.pathFingerprint) ?? []), r]);
  const candidates = [...cohorts.entries()].map(([fingerprint, group]) => ({
    candidateId: opaqueId('cand', [conflictId, fingerprint], 12),
    pathFingerprint: fingerprint,
    bundles: group.map(bundleOf),
  }));
  return {
    conflictId,
    kind: 'cache_clone_conflict',
    createdAt: evidenceTime(candidates.flatMap((c) => c.bundles)),
    cacheUuid,
    canonicalRepoId: null,
    aliases: union(registrations.map((r) => r.aliases)),
    legacyIds: union(registrations.map((r) => r.legacyIds)),
    lossy: false,
    candidates,
  };
}

/** Whether a registration is the one an enrollment's conflict leaves maintained until a person picks. */
export function isIncumbent(conflict: Conflict, registration: Pick<Registration, 'registrationId' | 'pathFingerprint'>): boolean {
  return conflict.incumbent?.registrationId === registration.registrationId && conflict.incumbent.pathFingerprint === registration.pathFingerprint;
}

/**
 * An enrollment that would change a maintained registration's policy, configuration or sources
 * becomes (or joins) an identity_conflict between it and the request. No winner is picked, and the
 * maintained registration is not held: it stays in the registry, maintained as it is, until a person
 * chooses a candidate. Returns the conflict.
 */
export function challenge(registry: RegistryV2, incumbent: Registration, challenger: Registration): Conflict {
  const conflict: Conflict = { ...identityConflict([incumbent, challenger]), incumbent: { registrationId: incumbent.registrationId, pathFingerprint: incumbent.pathFingerprint } };
  upsertConflict(registry, conflict);
  return registry.conflicts.find((c) => c.conflictId === conflict.conflictId)!;
}

/**
 * Ordinary per-repository canonicalisation: compatible records merge; incompatible ones become one
 * disabled identity_conflict; one cache UUID under several path fingerprints becomes one
 * UUID-global cache_clone_conflict. It never picks a winner between conflicting candidates.
 */
export function canonicalize(registry: RegistryV2): RegistryV2 {
  const sourceRedirects = { ...registry.sourceRedirects };
  const groups = new Map<string, Registration[]>();
  for (const r of registry.registrations) {
    const normalized = { ...r, sources: canonicalizeSources(r.sources, sourceRedirects) };
    const key = `${r.registrationId}\u0000${r.pathFingerprint}`;
    groups.set(key, [...(groups.get(key) ?? []), normalized]);
  }
  const next: RegistryV2 = { ...registry, registrations: [], conflicts: [...registry.conflicts] };
  const merged: Registration[] = [];
  for (const group of groups.values()) {
    const keys = new Set(group.map(compatibilityKey));
    const conflictId = opaqueId('ic', [group[0]!.cacheUuid, group[0]!.canonicalRepoId, group[0]!.pathFingerprint]);
    const open = next.conflicts.find((c) => c.conflictId === conflictId);
    if (keys.size > 1 || (open && !isIncumbent(open, group[0]!))) upsertConflict(next, identityConflict(group));
    else merged.push(coalesce(group));
  }
  const byCache = new Map<string, Registration[]>();
  for (const r of merged) byCache.set(r.cacheUuid, [...(byCache.get(r.cacheUuid) ?? []), r]);
  for (const [cacheUuid, group] of byCache) {
    const fingerprints = new Set(group.map((r) => r.pathFingerprint));
    const open = next.conflicts.some((c) => c.kind === 'cache_clone_conflict' && c.cacheUuid === cacheUuid);
    if (fingerprints.size > 1 || open) upsertConflict(next, cloneConflict(cacheUuid, group));
    else next.registrations.push(...group);
  }
  const redirects = { ...registry.redirects };
  for (const r of next.registrations) for (const legacyId of r.legacyIds) if (legacyId !== r.registrationId) redirects[legacyId] = r.registrationId;
  next.redirects = flattenRedirects(redirects);
  next.sourceRedirects = flattenRedirects(sourceRedirects);
  next.registrations.sort((a, b) => (a.registrationId < b.registrationId ? -1 : a.registrationId > b.registrationId ? 1 : 0));
  next.conflicts = [...next.conflicts].sort((a, b) => (a.conflictId < b.conflictId ? -1 : 1)).map((c) => ({ ...c, candidates: sortCandidates(c.candidates) }));
  return next;
}
