import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { methods, StewardError, type ForgeKind, type ParsedParams, type RegistrationStatus, type Result } from '../api/index.js';
import { HOME_FILES } from '../config/index.js';
import { createRepositoryCache, type CacheInspection } from './cache.js';
import { apiBaseOf, bindingOf, namesRepository, repositoryKeyOf, type RepositoryKey } from './forges/index.js';
import { hashOf } from './hashing.js';
import { canonicalize, canonicalSourceId, challenge, compatibilityKey, configHashOf, isIncumbent, registrationIdFor } from './identity.js';
import { namespaceOf, rateLimitedUntil } from './jobs.js';
import { findRegistration } from './lookup.js';
import { validateSnapshot } from './policy.js';
import { receiptOf, replayReceipt } from './receipts.js';
import type { Room } from './room.js';
import { publicRepoId, registrationStatus } from './status.js';
import {
  DEFAULT_CONFIG_SNAPSHOT,
  emptyStage,
  Policy,
  unsynced,
  type ConfigSnapshot,
  type Conflict,
  type Receipt,
  type Registration,
  type RegistryV2,
  type RepositorySource,
} from './schema.js';

export type EnrollParams = ParsedParams<'Maintenance.Enroll'>;
export type EnrollResult = Result<'Maintenance.Enroll'>;
export type AddParams = ParsedParams<'Maintenance.Add'>;
export type AddResult = Result<'Maintenance.Add'>;

interface EnrollmentIntent {
  inspection: CacheInspection;
  canonicalRepoId: string;
  alias: string;
  policy: Policy;
  snapshot: ConfigSnapshot;
  configHash: string;
  sources: RepositorySource[];
}

/** A cache `add` creates fills itself: head and backfill over every collection the forge serves. */
export function addPolicy(kind: ForgeKind, requested: Partial<Policy> | undefined): Policy {
  const collections: Policy['collections'] = kind === 'gitcode' ? ['issues', 'issue-comments', 'pulls', 'pr-comments'] : ['issues', 'issue-comments', 'pulls', 'pr-comments', 'wiki'];
  return Policy.parse({ sync: 'head-and-backfill', collections, ...requested });
}

function forgeSummary(inspection: CacheInspection, repoId: string): Registration['forge'] {
  const seed = inspection.repositories.find((r) => r.repoId === repoId)?.forge ?? null;
  const binding = bindingOf(repoId, seed);
  return binding ? { kind: binding.kind, host: binding.host } : null;
}

/**
 * The registration an enrollment proposes. An existing registration keeps its lifecycle, history
 * and backoff (re-enrolling is not a way around a backed-off stage or an operator's Disable); only
 * a registration disabled as config_snapshot_invalid is repaired by a revalidated snapshot.
 */
function proposedRegistration(intent: EnrollmentIntent, existing: Registration | undefined, now: number): Registration {
  const { inspection } = intent;
  const repaired = existing?.disabledReason === 'config_snapshot_invalid';
  const keeps = existing !== undefined && !repaired;
  return {
    ...unsynced(),
    ...(existing ? { collections: existing.collections, waiting: existing.waiting, lastHeadAt: existing.lastHeadAt, nextRunAt: existing.nextRunAt } : {}),
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
    forge: forgeSummary(inspection, intent.canonicalRepoId),
  };
}

/** Places the proposal in the draft registry; a repaired registration replaces its broken record. */
function placeProposal(draft: RegistryV2, proposed: Registration, existing: Registration | undefined): void {
  if (existing?.disabledReason === 'config_snapshot_invalid') {
    draft.registrations = draft.registrations.filter((r) => !(r.registrationId === proposed.registrationId && r.pathFingerprint === proposed.pathFingerprint));
  }
  draft.registrations.push(proposed);
}

/** The conflict now holding a registration at one path, if canonicalisation put it in one. */
function heldBy(registry: RegistryV2, registrationId: string, pathFingerprint: string): Conflict | undefined {
  return registry.conflicts.find((c) =>
    !isIncumbent(c, { registrationId, pathFingerprint }) && c.candidates.some((k) => k.bundles.some((b) => b.registration?.registrationId === registrationId && b.registration.pathFingerprint === pathFingerprint)),
  );
}

function conflictMessage(kind: Conflict['kind']): string {
  if (kind === 'cache_clone_conflict') return 'This cache UUID is already registered at another path: the copy is reported as a clone. Pick a candidate with `steward maintenance conflicts`.';
  return 'This registration conflicts with an existing one for the same cache and repository; it is held until a candidate is chosen.';
}

function challengeRefusal(conflict: Conflict, existing: Registration): StewardError {
  return new StewardError(
    'identity_conflict',
    `${publicRepoId(existing.canonicalRepoId)} is already maintained by ${existing.registrationId} with another policy, configuration or document sources. ` +
      `It stays maintained as it is; the request is held in conflict ${conflict.conflictId}: pick a candidate with \`steward maintenance conflicts\` and \`steward maintenance resolve\`.`,
    { conflictId: conflict.conflictId, registrationId: existing.registrationId, pathFingerprint: existing.pathFingerprint },
  );
}

/**
 * `add` never makes a second cache and registration for a repository already maintained (or held
 * by an open conflict): a new idempotency key is a new request, not a licence for a second record.
 */
function refuseSecondRecord(registry: RegistryV2, key: RepositoryKey): void {
  const repoId = key.repoId;
  const existing = registry.registrations.find((r) => namesRepository(r, key));
  if (existing) {
    throw new StewardError(
      'identity_conflict',
      `${publicRepoId(existing.canonicalRepoId)} is already maintained by ${existing.registrationId}; nothing was created. ` +
        `Change its policy in place with \`steward maintenance enable --registration ${existing.registrationId}\` and the new flags.`,
      { registrationId: existing.registrationId },
    );
  }
  // A conflict's own id has no forge beside it: the older port-less id is taken as this repository.
  const named = (id: string | null) => id === repoId || (key.legacy !== null && id === key.legacy.repoId);
  const held = registry.conflicts.find((c) => named(c.canonicalRepoId) || c.candidates.some((k) => k.bundles.some((b) => b.registration !== null && namesRepository(b.registration, key))));
  if (held) {
    throw new StewardError('identity_conflict', `${publicRepoId(repoId)} is held by an open conflict; nothing was created. Pick a candidate with \`steward maintenance conflicts\`.`, {
      conflictId: held.conflictId,
    });
  }
}

/** Enrollment and lifecycle: creating caches, registering them, resolving a config, enabling and disabling. */
export class Enrollment {
  readonly #room: Room;

  constructor(room: Room) {
    this.#room = room;
  }

  resolveConfig(config: Record<string, unknown>): { configHash: string; rag: { profile: string; namespace: string; embeddingProvider: string; model: string } } {
    const snapshot = validateSnapshot(config);
    return {
      configHash: configHashOf(snapshot),
      rag: { profile: snapshot.profile, namespace: namespaceOf(snapshot), embeddingProvider: snapshot.embedding.provider, model: snapshot.embedding.model },
    };
  }

  /**
   * Creates a cache in STEWARD_HOME/caches/ bound to one forge repository and enrolls it. The file
   * name derives from the idempotency key, so a retry after a crash finds and enrolls the same
   * cache instead of making a second one.
   */
  add(params: AddParams): AddResult {
    const kind = params.forge ?? 'github';
    const apiBase = apiBaseOf(kind, params.baseUrl);
    const key = repositoryKeyOf(kind, apiBase, params.repo);
    const repoId = key.repoId;
    const policy = addPolicy(kind, params.policy);
    // Sources are checked before a cache is made (a missing folder creates nothing) and hashed only when given, so older receipts still replay.
    const sources = params.sources ? this.#sources(params.sources, policy.profile).map((s) => s.sourceId).sort() : undefined;
    const requestHash = hashOf({ op: 'add', repoId, kind, apiBase, policy, ...(sources ? { sources } : {}) });
    const replay = replayReceipt(this.#room.store.current(), params.idempotencyKey, 'add', requestHash);
    if (replay) return methods['Maintenance.Add'].result.parse({ ...replay, replayed: true, cacheCreated: false });
    refuseSecondRecord(this.#room.store.current(), key);
    const { file, cacheCreated } = this.createKeyedCache({ repoId, alias: params.repo, forge: kind, apiBase }, params.idempotencyKey);
    const result = this.enroll(
      { cachePath: file, repo: params.repo, policy, ...(params.sources ? { sources: params.sources } : {}), idempotencyKey: params.idempotencyKey },
      { operation: 'add', requestHash },
    );
    if (cacheCreated) this.#room.logger.info('maintenance cache created', { forge: kind, registrationId: result.registrationId });
    return { ...result, cacheCreated };
  }

  /**
   * The cache file a keyed request creates in STEWARD_HOME/caches/. Its name derives from the
   * idempotency key, so a retry after a crash finds and enrolls the same cache instead of making a
   * second one.
   */
  createKeyedCache(repo: { repoId: string; alias: string; forge: ForgeKind; apiBase: string }, idempotencyKey: string): { file: string; cacheCreated: boolean } {
    const dir = join(this.#room.home, HOME_FILES.caches);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${repo.repoId.replace(/[^a-z0-9.-]+/g, '-').slice(0, 80)}-${hashOf(idempotencyKey).slice(0, 12)}.db`);
    const cacheCreated = !existsSync(file);
    if (cacheCreated) createRepositoryCache(file, [{ repoId: repo.repoId, aliases: [repo.alias], forge: { forge: repo.forge, apiBase: repo.apiBase } }]);
    return { file, cacheCreated };
  }

  /**
   * A planned change of an existing registration: its policy and configuration are replaced in place
   * (one record, never a second one and never a conflict), it runs again, and the idempotency
   * receipt is written in the same atomic registry write. A stage whose work changed starts without
   * the old backoff; an index built under another configuration no longer counts as coverage.
   */
  update(target: Registration, change: { policy: Policy; snapshot: ConfigSnapshot; alias: string | null }, receipt: { key: string; requestHash: string }): EnrollResult {
    const now = this.#room.clock();
    const configHash = configHashOf(change.snapshot);
    const result = this.#unchangedResult(target, configHash);
    this.#room.store.commit((draft) => {
      const r = draft.registrations.find((x) => x.registrationId === target.registrationId && x.pathFingerprint === target.pathFingerprint);
      if (!r) throw new StewardError('stale_plan', 'The registration changed after the plan was made. Plan again.');
      const collections = (p: Policy) => [...p.collections].sort().join();
      const syncChanged = r.policy.sync !== change.policy.sync || collections(r.policy) !== collections(change.policy);
      const ragChanged = r.policy.rag !== change.policy.rag || r.configHash !== configHash;
      // A changed policy starts without the old failure backoff, but a forge's rate limit still holds.
      if (syncChanged) r.stages.sync = { ...r.stages.sync, errorClass: null, failures: 0, nextAttemptAt: rateLimitedUntil(r, now) };
      if (ragChanged) r.stages.rag = { ...r.stages.rag, errorClass: null, failures: 0, nextAttemptAt: null };
      if (r.configHash !== configHash) r.generations.covered = null;
      r.policy = change.policy;
      r.configSnapshot = change.snapshot;
      r.configHash = configHash;
      r.enabled = true;
      r.disabledReason = null;
      r.degraded = r.degraded.filter((d) => d !== 'config_snapshot_invalid');
      if (change.alias) r.aliases = [...new Set([...r.aliases, change.alias])].sort();
      r.updatedAt = now;
      Object.assign(draft, canonicalize(draft));
      return receiptOf(receipt.key, 'setup', receipt.requestHash, r.pathFingerprint, now, { ok: true, result: { ...result } });
    });
    this.#room.logger.info('maintenance registration updated', { registrationId: target.registrationId, sync: change.policy.sync, rag: change.policy.rag });
    return result;
  }

  /** A plan that changes nothing still keeps its receipt, so the key cannot later name another request. */
  acknowledge(target: Registration, receipt: { key: string; requestHash: string }): EnrollResult {
    const now = this.#room.clock();
    const result = this.#unchangedResult(target, target.configHash);
    this.#room.store.commit(() => receiptOf(receipt.key, 'setup', receipt.requestHash, target.pathFingerprint, now, { ok: true, result: { ...result } }));
    return result;
  }

  #unchangedResult(target: Registration, configHash: string): EnrollResult {
    return {
      registrationId: target.registrationId,
      cacheUuid: target.cacheUuid,
      pathFingerprint: target.pathFingerprint,
      canonicalRepoId: publicRepoId(target.canonicalRepoId),
      configHash,
      created: false,
      replayed: false,
    };
  }

  enroll(params: EnrollParams, as?: { operation: Receipt['operation']; requestHash: string }): EnrollResult {
    const registry = this.#room.store.current();
    const intent = this.#intent(params);
    const { inspection } = intent;
    const operation = as?.operation ?? 'enroll';
    const requestHash =
      as?.requestHash ??
      hashOf({
        op: 'enroll',
        fp: inspection.pathFingerprint,
        repo: intent.canonicalRepoId,
        policy: intent.policy,
        configHash: intent.configHash,
        sources: intent.sources.map((s) => s.sourceId).sort(),
      });
    const replay = replayReceipt(registry, params.idempotencyKey, operation, requestHash);
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
    const now = this.#room.clock();
    const registrationId = registrationIdFor(inspection.cacheUuid, intent.canonicalRepoId);
    const existing = registry.registrations.find((r) => r.registrationId === registrationId && r.pathFingerprint === inspection.pathFingerprint);
    const proposed = proposedRegistration(intent, existing, now);
    if (existing && existing.disabledReason !== 'config_snapshot_invalid' && compatibilityKey(existing) !== compatibilityKey(proposed)) {
      this.#challenge(existing, proposed, { key: params.idempotencyKey, operation, requestHash, now });
    }
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
    this.#room.store.commit((draft) => {
      placeProposal(draft, proposed, existing);
      Object.assign(draft, canonicalize(draft));
      const held = heldBy(draft, registrationId, inspection.pathFingerprint);
      if (held) failure = new StewardError(held.kind, conflictMessage(held.kind), { conflictId: held.conflictId, pathFingerprint: inspection.pathFingerprint });
      const outcome = failure ? { ok: false as const, code: failure.code, message: failure.message, details: failure.details } : { ok: true as const, result: { ...result } };
      return receiptOf(params.idempotencyKey, operation, requestHash, inspection.pathFingerprint, now, outcome);
    });
    if (failure) {
      this.#room.logger.warn('maintenance enrollment held by a conflict', { code: failure.code, pathFingerprint: inspection.pathFingerprint });
      throw failure;
    }
    this.#room.logger.info('maintenance registration enrolled', { registrationId, pathFingerprint: inspection.pathFingerprint, created: result.created });
    return result;
  }

  /**
   * An enrollment that would change a maintained registration's policy, configuration or sources
   * joins an identity_conflict with it instead of replacing or holding it: the registration keeps
   * being maintained as it was until a person picks a candidate. The refusal keeps its receipt, so
   * the same key replays it.
   */
  #challenge(existing: Registration, proposed: Registration, at: { key: string; operation: Receipt['operation']; requestHash: string; now: number }): never {
    let failure!: StewardError;
    this.#room.store.commit((draft) => {
      const live = draft.registrations.find((r) => r.registrationId === existing.registrationId && r.pathFingerprint === existing.pathFingerprint)!;
      failure = challengeRefusal(challenge(draft, live, proposed), live);
      return receiptOf(at.key, at.operation, at.requestHash, existing.pathFingerprint, at.now, { ok: false, code: failure.code, message: failure.message, details: failure.details });
    });
    this.#room.logger.warn('maintenance enrollment held by a conflict; the registration stays maintained', { registrationId: existing.registrationId });
    throw failure;
  }

  /** Validates an enrollment: snapshot, policy, the real cache path, its schema, UUID and binding. */
  #intent(params: EnrollParams): EnrollmentIntent {
    const snapshot = validateSnapshot(params.config ?? DEFAULT_CONFIG_SNAPSHOT);
    const policy = Policy.parse(params.policy ?? {});
    const inspection = this.#room.inspect(params.cachePath);
    const canonicalRepoId = inspection.resolveRepository(params.repo);
    if (!canonicalRepoId) throw new StewardError('identity_unresolved', 'The cache has no binding for that repository.', { pathFingerprint: inspection.pathFingerprint });
    const sources = this.#sources(params.sources ?? [], policy.profile);
    return { inspection, canonicalRepoId, alias: params.repo, policy, snapshot, configHash: configHashOf(snapshot), sources };
  }

  #sources(requested: NonNullable<EnrollParams['sources']>, profile: string): RepositorySource[] {
    return requested.map((s) => {
      const root = this.#sourceRoot(s.root);
      const authority = { kind: s.kind, ref: s.ref, localAuthority: this.#room.fingerprint(root), profile };
      return { sourceId: canonicalSourceId(authority), authority, root };
    });
  }

  #sourceRoot(root: string): string {
    try {
      return realpathSync(root);
    } catch {
      throw new StewardError('invalid_params', 'A repository-document source root cannot be found.');
    }
  }

  /** Stops (or resumes) scheduling a registration; the cache itself is never touched. */
  setEnabled(registrationId: string, enabled: boolean): RegistrationStatus {
    const target = findRegistration(this.#room.store.current(), registrationId);
    if (enabled && target.disabledReason === 'config_snapshot_invalid') {
      throw new StewardError('config_snapshot_invalid', 'This registration stays disabled until its configuration snapshot is repaired: validate it with Maintenance.ResolveConfig and enroll again.', {
        registrationId: target.registrationId,
      });
    }
    const now = this.#room.clock();
    const next = this.#room.store.commit((draft) => {
      const r = draft.registrations.find((x) => x.registrationId === target.registrationId)!;
      r.enabled = enabled;
      r.disabledReason = enabled ? null : 'operator';
      r.updatedAt = now;
    });
    this.#room.logger.info(enabled ? 'maintenance registration enabled' : 'maintenance registration disabled', { registrationId: target.registrationId });
    const r = next.registrations.find((x) => x.registrationId === target.registrationId)!;
    return registrationStatus(r, next.jobs, now);
  }
}

export { forgeSummary };
