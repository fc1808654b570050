import { opaqueId } from './hashing.js';
import { canonicalize, configHashOf, flattenRedirects, registrationIdFor } from './identity.js';
import type { CacheInspection } from './cache.js';
import {
  DEFAULT_CONFIG_SNAPSHOT,
  RepoAlias,
  emptyRegistry,
  unsynced,
  type Conflict,
  type LegacyRegistration,
  type Receipt,
  type Registration,
  type RegistryV1,
  type RegistryV2,
} from './schema.js';

export type CacheInspectionLike = Pick<CacheInspection, 'realPath' | 'pathFingerprint' | 'cacheUuid' | 'resolveRepository'>;

/** Resolves a legacy record's cache; null when the cache is unavailable right now. */
export type LegacyInspector = (cachePath: string) => CacheInspectionLike | null;

const byId = (a: LegacyRegistration, b: LegacyRegistration) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function toRegistration(record: LegacyRegistration, inspection: CacheInspectionLike, canonicalRepoId: string): Registration {
  const configSnapshot = record.config ?? DEFAULT_CONFIG_SNAPSHOT;
  const configHash = configHashOf(configSnapshot);
  const snapshotValid = record.configHash === undefined || record.configHash === configHash;
  return {
    registrationId: registrationIdFor(inspection.cacheUuid, canonicalRepoId),
    cacheUuid: inspection.cacheUuid,
    canonicalRepoId,
    aliases: RepoAlias.safeParse(record.alias).success ? [record.alias] : [],
    legacyIds: [record.id],
    cachePath: inspection.realPath,
    pathFingerprint: inspection.pathFingerprint,
    policy: record.policy,
    configSnapshot,
    configHash,
    sources: record.sources.map((s) => ({ sourceId: s.sourceId, authority: { kind: s.kind, ref: s.ref, localAuthority: s.localAuthority, profile: s.profile } })),
    enabled: record.enabled && snapshotValid,
    disabledReason: snapshotValid ? (record.enabled ? null : 'operator') : 'config_snapshot_invalid',
    degraded: snapshotValid ? [] : ['config_snapshot_invalid'],
    stages: record.stages,
    generations: { content: null, covered: null },
    frontiers: [],
    terminalJobIds: [...record.terminalJobIds],
    enrolledAt: record.updatedAt,
    updatedAt: record.updatedAt,
    lastWriterAt: null,
    ...unsynced(),
  };
}

function mergeReceipts(records: readonly LegacyRegistration[]): Receipt[] {
  const byKey = new Map<string, Receipt>();
  for (const receipt of records.flatMap((r) => r.receipts)) {
    const held = byKey.get(receipt.key);
    if (!held || receipt.at > held.at || (receipt.at === held.at && receipt.requestHash > held.requestHash)) byKey.set(receipt.key, receipt);
  }
  return [...byKey.values()].sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
}

function unresolvedConflict(alias: string, records: LegacyRegistration[]): Conflict {
  const conflictId = opaqueId('iu', [alias]);
  return {
    conflictId,
    kind: 'identity_unresolved',
    createdAt: Math.max(0, ...records.map((r) => r.updatedAt)),
    cacheUuid: null,
    canonicalRepoId: null,
    aliases: [...new Set(records.map((r) => r.alias).filter((a) => RepoAlias.safeParse(a).success))].sort(),
    legacyIds: records.map((r) => r.id).sort(),
    lossy: false,
    candidates: records.map((legacy) => ({
      candidateId: opaqueId('cand', [conflictId, legacy.id], 12),
      pathFingerprint: null,
      bundles: [{ registration: null, legacy, priorEnabled: legacy.enabled }],
    })),
  };
}

function lossyConflict(id: string, aliases: string[]): Conflict {
  return {
    conflictId: opaqueId('ic', ['legacy', id]),
    kind: 'identity_conflict',
    createdAt: 0,
    cacheUuid: null,
    canonicalRepoId: null,
    aliases: aliases.filter((a) => RepoAlias.safeParse(a).success).sort(),
    legacyIds: [id],
    lossy: true,
    candidates: [],
  };
}

/**
 * Version 1 registrations were derived from aliases. Each becomes a (cache_uuid, canonical repo)
 * registration; compatible duplicates coalesce, the rest become conflicts. Pure given the
 * inspector: the same input always yields the same registry, whatever the record order.
 */
export function migrateV1(legacy: RegistryV1, inspect: LegacyInspector): RegistryV2 {
  const registry = emptyRegistry();
  const unresolved = new Map<string, LegacyRegistration[]>();
  const records = [...legacy.registrations].sort(byId);
  for (const record of records) {
    const inspection = record.cachePath ? inspect(record.cachePath) : null;
    const canonical = inspection?.resolveRepository(record.alias) ?? null;
    if (!inspection || !canonical) {
      const key = record.alias.toLowerCase();
      unresolved.set(key, [...(unresolved.get(key) ?? []), record]);
      continue;
    }
    registry.registrations.push(toRegistration(record, inspection, canonical));
  }
  registry.receipts = mergeReceipts(records);
  registry.redirects = flattenRedirects(legacy.redirects);
  for (const [alias, group] of unresolved) registry.conflicts.push(unresolvedConflict(alias, group));
  for (const conflict of legacy.conflicts) registry.conflicts.push(lossyConflict(conflict.id, conflict.aliases));
  return canonicalize(registry);
}
