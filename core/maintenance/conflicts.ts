import { StewardError, type ConflictPlan } from '../api/index.js';
import type { CacheInspection } from './cache.js';
import { hashOf, opaqueId } from './hashing.js';
import { canonicalize, configHashOf, isIncumbent } from './identity.js';
import { toRegistration } from './migrate.js';
import { LOSSY_REASON, publicLegacyId, publicRepoId } from './status.js';
import type { Candidate, CandidateBundle, Conflict, Registration, RegistryV2 } from './schema.js';

export type Inspector = (path: string) => CacheInspection;

export interface Revalidated {
  /** Hash of everything the plan was checked against; any change makes the plan stale. */
  basis: string;
  /** The cache UUID whose writer lane apply must fence. */
  cacheUuid: string;
  /** Legacy records rebound to a live identity by this candidate, by legacy id. */
  rebound: Map<string, Registration>;
}

const stale = (why: string) => new StewardError('stale_plan', `The plan no longer matches the cache: ${why}. Plan again.`);

export function findCandidate(registry: RegistryV2, conflictId: string, candidateId: string): { conflict: Conflict; candidate: Candidate } {
  const conflict = registry.conflicts.find((c) => c.conflictId === conflictId);
  if (!conflict) throw new StewardError('not_found', 'No open conflict has that id.');
  if (conflict.lossy) throw new StewardError(conflict.kind, LOSSY_REASON, { conflictId });
  const candidate = conflict.candidates.find((c) => c.candidateId === candidateId);
  if (!candidate) throw new StewardError('not_found', 'That conflict has no candidate with that id.', { conflictId });
  return { conflict, candidate };
}

/** Revalidates the selected candidate: its cache UUID, each repository binding and each config snapshot/hash pair. */
export function revalidate(conflict: Conflict, candidate: Candidate, inspect: Inspector): Revalidated {
  const basis: unknown[] = [];
  const rebound = new Map<string, Registration>();
  let cacheUuid = conflict.cacheUuid;
  for (const bundle of candidate.bundles) {
    const r = bundle.registration;
    if (r) {
      const seen = inspect(r.cachePath);
      if (seen.cacheUuid !== r.cacheUuid || seen.pathFingerprint !== r.pathFingerprint) throw stale('the cache identity at the selected path changed');
      if (seen.resolveRepository(r.canonicalRepoId) !== r.canonicalRepoId) throw stale('a repository binding changed');
      if (configHashOf(r.configSnapshot) !== r.configHash) {
        throw new StewardError('config_snapshot_invalid', 'A candidate configuration snapshot no longer matches its hash; repair it and enroll again.', {
          registrationId: r.registrationId,
        });
      }
      basis.push([r.registrationId, seen.cacheUuid, seen.pathFingerprint, r.configHash]);
      cacheUuid ??= seen.cacheUuid;
      continue;
    }
    const legacy = bundle.legacy;
    const seen = rebind(conflict, legacy, inspect);
    rebound.set(legacy!.id, seen.registration);
    basis.push([legacy!.id, seen.registration.cacheUuid, seen.registration.pathFingerprint, seen.registration.canonicalRepoId]);
    cacheUuid ??= seen.registration.cacheUuid;
  }
  if (conflict.kind === 'identity_unresolved') addExactMatches(conflict, candidate, rebound, basis, inspect);
  if (!cacheUuid) throw new StewardError('identity_unresolved', 'No cache identity could be established for this candidate.');
  return { basis: hashOf(basis), cacheUuid, rebound };
}

function rebind(conflict: Conflict, legacy: CandidateBundle['legacy'], inspect: Inspector): { registration: Registration } {
  if (!legacy?.cachePath) throw new StewardError('identity_unresolved', 'This legacy record has no cache path; it stays unresolved.', { conflictId: conflict.conflictId });
  let seen: CacheInspection;
  try {
    seen = inspect(legacy.cachePath);
  } catch {
    throw new StewardError('identity_unresolved', 'The cache of this legacy record is still unavailable.', { conflictId: conflict.conflictId });
  }
  const canonical = seen.resolveRepository(legacy.alias);
  if (!canonical) throw new StewardError('identity_unresolved', 'The cache does not bind the legacy alias to a repository.', { conflictId: conflict.conflictId });
  return { registration: toRegistration(legacy, seen, canonical) };
}

/**
 * Other records of an unresolved cohort follow the selected one only on an exact match (same cache
 * UUID, path fingerprint and repository); anything else stays unresolved, failing closed.
 */
function addExactMatches(conflict: Conflict, selected: Candidate, rebound: Map<string, Registration>, basis: unknown[], inspect: Inspector): void {
  const chosen = [...rebound.values()][0];
  if (!chosen) return;
  for (const other of conflict.candidates) {
    if (other.candidateId === selected.candidateId) continue;
    for (const bundle of other.bundles) {
      if (!bundle.legacy) continue;
      let match: Registration;
      try {
        match = rebind(conflict, bundle.legacy, inspect).registration;
      } catch {
        continue;
      }
      if (match.registrationId === chosen.registrationId && match.pathFingerprint === chosen.pathFingerprint) {
        rebound.set(bundle.legacy.id, match);
        basis.push([bundle.legacy.id, match.cacheUuid, match.pathFingerprint, match.canonicalRepoId]);
      }
    }
  }
}

export function planIdOf(conflict: Conflict, candidate: Candidate, revalidated: Revalidated): string {
  return opaqueId('plan', [hashOf(conflict), candidate.candidateId, revalidated.basis], 20);
}

const NOTES: Record<Conflict['kind'], string> = {
  cache_clone_conflict:
    'Restores every registration on the selected physical cache and retires the other path fingerprints; distinct repositories stay distinct, and incompatible policies become a follow-up identity_conflict.',
  identity_conflict: 'Keeps the selected repository authority; the other candidates are retired and their history keeps its own labels.',
  identity_unresolved: 'Rebinds the selected legacy record to its live cache identity; the others stay unresolved.',
};

type Effect = ConflictPlan['effects'][number];

/** Says in words what a plan does to one copy; names only public ids. */
function describe(effect: Omit<Effect, 'description'>, kind: Conflict['kind']): string {
  const repo = effect.canonicalRepoId ?? effect.legacyId ?? 'this registration';
  const at = effect.pathFingerprint ? ` (copy ${effect.pathFingerprint})` : '';
  switch (effect.effect) {
    case 'restore':
      return `Keeps ${repo}${at} and ${effect.enabledAfter ? 'maintains it again' : 'keeps it paused, as it was'}.`;
    case 'retire':
      return kind === 'cache_clone_conflict'
        ? `Stops maintaining ${repo} in the other copy${at}; that file stays on disk, untouched.`
        : `Drops the competing registration of ${repo}${at}; its history keeps its own labels and the cache file is not touched.`;
    case 'rebind':
      return `Binds the legacy record ${effect.legacyId ?? repo} to ${repo}${at}${effect.enabledAfter ? ' and maintains it again' : ''}.`;
    case 'keep_unresolved':
      return `Leaves ${effect.legacyId ?? repo} unresolved: nothing is maintained for it until its cache can be read.`;
  }
}

export function planOf(conflict: Conflict, candidate: Candidate, revalidated: Revalidated): ConflictPlan {
  const effects: ConflictPlan['effects'] = [];
  for (const c of conflict.candidates) {
    const selected = c.candidateId === candidate.candidateId;
    for (const bundle of c.bundles) {
      const r = bundle.registration ?? (bundle.legacy ? (revalidated.rebound.get(bundle.legacy.id) ?? null) : null);
      const rebinds = bundle.legacy !== null && revalidated.rebound.has(bundle.legacy.id);
      const effect = conflict.kind === 'identity_unresolved' ? (rebinds ? 'rebind' : 'keep_unresolved') : selected ? 'restore' : 'retire';
      const entry = {
        effect,
        registrationId: r?.registrationId ?? null,
        legacyId: bundle.legacy ? publicLegacyId(bundle.legacy.id) : null,
        canonicalRepoId: r ? publicRepoId(r.canonicalRepoId) : null,
        pathFingerprint: r?.pathFingerprint ?? c.pathFingerprint,
        enabledAfter: (selected || rebinds) && bundle.priorEnabled,
      } as const;
      const description =
        conflict.incumbent && effect === 'restore'
          ? `Keeps maintaining ${entry.canonicalRepoId ?? 'this registration'} as the same registration, with this candidate's policy, configuration and document sources.`
          : describe(entry, conflict.kind);
      effects.push({ ...entry, description });
    }
  }
  return {
    planId: planIdOf(conflict, candidate, revalidated),
    conflictId: conflict.conflictId,
    candidateId: candidate.candidateId,
    kind: conflict.kind,
    effects,
    note: NOTES[conflict.kind],
  };
}

/**
 * Enrollment receipts of a retired path are not projected onto the live registration that shares
 * their id: replaying one answers that its path was retired, never a stale success.
 */
function retireReceipts(draft: RegistryV2, retired: ReadonlySet<string>, conflictId: string): void {
  for (const receipt of draft.receipts) {
    if (receipt.operation !== 'enroll' || receipt.pathFingerprint === null || !retired.has(receipt.pathFingerprint)) continue;
    receipt.outcome = {
      ok: false,
      code: 'cache_clone_conflict',
      message: 'This enrollment named a cache path that was retired when its clone conflict was resolved; enroll the kept cache instead.',
      details: { conflictId, pathFingerprint: receipt.pathFingerprint },
    };
  }
}

const authorities = (r: Registration) => r.sources.map((s) => s.sourceId).sort().join();

/**
 * The picked candidate's authority (policy, configuration, sources) on the registration that stayed
 * maintained during the conflict: its lifecycle, frontiers and enabled state are the current ones,
 * not the copy taken when the conflict opened. A stage whose work changed starts without the old
 * backoff, and an index built under another configuration no longer counts as coverage.
 */
function adopt(live: Registration, picked: Registration, now: number): Registration {
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort();
  const collections = (r: Registration) => [...r.policy.collections].sort().join();
  const syncChanged = live.policy.sync !== picked.policy.sync || collections(live) !== collections(picked) || authorities(live) !== authorities(picked);
  const ragChanged = live.policy.rag !== picked.policy.rag || live.configHash !== picked.configHash;
  const fresh = (stage: Registration['stages']['sync']) => ({ ...stage, errorClass: null, failures: 0, nextAttemptAt: null });
  return {
    ...live,
    stages: { sync: syncChanged ? fresh(live.stages.sync) : live.stages.sync, rag: ragChanged ? fresh(live.stages.rag) : live.stages.rag },
    policy: picked.policy,
    configSnapshot: picked.configSnapshot,
    configHash: picked.configHash,
    sources: picked.sources,
    aliases: union(live.aliases, picked.aliases),
    legacyIds: union(live.legacyIds, picked.legacyIds),
    generations: picked.configHash === live.configHash ? live.generations : { ...live.generations, covered: null },
    updatedAt: now,
  };
}

export interface Applied {
  restored: string[];
  retired: string[];
  followUpConflicts: string[];
}

/** The registry half of apply: runs inside the writer fence and inside one atomic registry write. */
export function applyResolution(draft: RegistryV2, conflict: Conflict, candidate: Candidate, revalidated: Revalidated, now: number): Applied {
  const before = new Set(draft.conflicts.map((c) => c.conflictId).filter((id) => id !== conflict.conflictId));
  draft.conflicts = draft.conflicts.filter((c) => c.conflictId !== conflict.conflictId);
  // The registration an enrollment's conflict left maintained keeps its lifecycle; the pick decides its authority.
  const live = draft.registrations.find((r) => isIncumbent(conflict, r));
  if (live) draft.registrations = draft.registrations.filter((r) => r !== live);
  const restored: Registration[] = [];
  const retired: string[] = [];
  const reason = conflict.kind === 'cache_clone_conflict' ? 'clone_rejected' : 'identity_rejected';
  for (const c of conflict.candidates) {
    const selected = c.candidateId === candidate.candidateId;
    if (conflict.kind === 'identity_unresolved') {
      for (const b of c.bundles) {
        const match = b.legacy ? revalidated.rebound.get(b.legacy.id) : undefined;
        if (match) restored.push({ ...match, updatedAt: now });
      }
      continue;
    }
    for (const b of c.bundles) {
      if (!b.registration) continue;
      if (selected) {
        const extra = conflict.kind === 'identity_conflict' ? { aliases: conflict.aliases, legacyIds: conflict.legacyIds } : {};
        restored.push(live ? adopt(live, b.registration, now) : { ...b.registration, ...extra, enabled: b.priorEnabled, updatedAt: now });
      } else {
        // Rejected registrations keep their own ids: their historical jobs are never relabelled.
        draft.retired.push({ registration: b.registration, reason, retiredAt: now, conflictId: conflict.conflictId });
        retired.push(b.registration.pathFingerprint);
      }
    }
  }
  if (conflict.kind === 'cache_clone_conflict') retireReceipts(draft, new Set(retired), conflict.conflictId);
  if (conflict.kind === 'identity_unresolved') {
    const rest = conflict.candidates.filter((c) => !c.bundles.some((b) => b.legacy !== null && revalidated.rebound.has(b.legacy.id)));
    if (rest.length > 0) draft.conflicts.push({ ...conflict, candidates: rest });
  }
  draft.registrations.push(...restored);
  Object.assign(draft, canonicalize(draft));
  return {
    restored: [...new Set(restored.map((r) => r.registrationId))].sort(),
    retired: [...new Set(retired)].sort(),
    followUpConflicts: draft.conflicts.map((c) => c.conflictId).filter((id) => !before.has(id) && id !== conflict.conflictId),
  };
}
