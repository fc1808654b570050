import type { CacheInspection } from './cache.js';
import { registrationIdFor } from './identity.js';
import { emptyStage, type ConfigSnapshot, type Conflict, type Policy, type Registration, type RegistryV2, type RepositorySource } from './schema.js';

export interface EnrollmentIntent {
  inspection: CacheInspection;
  canonicalRepoId: string;
  alias: string;
  policy: Policy;
  snapshot: ConfigSnapshot;
  configHash: string;
  sources: RepositorySource[];
}

/**
 * The registration an enrollment proposes. An existing registration keeps its lifecycle, history
 * and backoff (re-enrolling is not a way around a backed-off stage or an operator's Disable); only
 * a registration disabled as config_snapshot_invalid is repaired by a revalidated snapshot.
 */
export function proposedRegistration(intent: EnrollmentIntent, existing: Registration | undefined, now: number): Registration {
  const { inspection } = intent;
  const repaired = existing?.disabledReason === 'config_snapshot_invalid';
  const keeps = existing !== undefined && !repaired;
  return {
    registrationId: registrationIdFor(inspection.cacheUuid, intent.canonicalRepoId),
    cacheUuid: inspection.cacheUuid,
    canonicalRepoId: intent.canonicalRepoId,
    aliases: [...new Set([...(repaired ? existing.aliases : []), intent.alias])].sort(),
    legacyIds: repaired ? existing.legacyIds : [],
    cachePath: inspection.realPath,
    pathFingerprint: inspection.pathFingerprint,
    policy: intent.policy,
    configSnapshot: intent.snapshot,
    configHash: intent.configHash,
    sources: intent.sources,
    enabled: keeps ? existing.enabled : true,
    disabledReason: keeps ? existing.disabledReason : null,
    degraded: existing ? existing.degraded.filter((d) => d !== 'config_snapshot_invalid') : [],
    stages: existing?.stages ?? { sync: emptyStage(), rag: emptyStage() },
    generations: existing?.generations ?? { content: null, covered: null },
    frontiers: existing?.frontiers ?? [],
    terminalJobIds: existing?.terminalJobIds ?? [],
    enrolledAt: existing?.enrolledAt ?? now,
    updatedAt: now,
    lastWriterAt: existing?.lastWriterAt ?? null,
  };
}

/** Places the proposal in the draft registry; a repaired registration replaces its broken record. */
export function placeProposal(draft: RegistryV2, proposed: Registration, existing: Registration | undefined): void {
  if (existing?.disabledReason === 'config_snapshot_invalid') {
    draft.registrations = draft.registrations.filter((r) => !(r.registrationId === proposed.registrationId && r.pathFingerprint === proposed.pathFingerprint));
  }
  draft.registrations.push(proposed);
}

/** The conflict now holding a registration at one path, if canonicalisation put it in one. */
export function heldBy(registry: RegistryV2, registrationId: string, pathFingerprint: string): Conflict | undefined {
  return registry.conflicts.find((c) =>
    c.candidates.some((k) => k.bundles.some((b) => b.registration?.registrationId === registrationId && b.registration.pathFingerprint === pathFingerprint)),
  );
}

export function conflictMessage(kind: Conflict['kind']): string {
  if (kind === 'cache_clone_conflict') return 'This cache UUID is already registered at another path: the copy is reported as a clone. Pick a candidate with `steward maintenance conflicts`.';
  return 'This registration conflicts with an existing one for the same cache and repository; it is held until a candidate is chosen.';
}
