import { realpathSync, rmSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { StewardError, type ParsedParams, type Result } from '../api/index.js';
import { HOME_FILES } from '../config/index.js';
import { hashOf } from './hashing.js';
import { findRegistration, registrationsNamed } from './lookup.js';
import { receiptOf, replayReceipt } from './receipts.js';
import type { Room } from './room.js';
import type { Registration, RegistryV2 } from './schema.js';
import { publicRepoId } from './status.js';

export type RemoveParams = ParsedParams<'Maintenance.Remove'>;
export type RemoveResult = Result<'Maintenance.Remove'>;

/** A registration by id, legacy id, alias, or the OWNER/NAME of the one repository it maintains. */
function target(registry: RegistryV2, name: string): Registration {
  try {
    return findRegistration(registry, name);
  } catch (error) {
    if ((error as StewardError).code !== 'not_found' || !name.includes('/')) throw error;
    const named = registrationsNamed(registry.registrations, name);
    if (named.length > 1) throw new StewardError('invalid_params', `${publicRepoId(name)} is maintained by ${named.length} caches; name one by registration id.`);
    return named[0]!;
  }
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Only a file Steward made itself (in STEWARD_HOME/caches/) is ever a candidate for deletion. */
function createdBySteward(home: string, cachePath: string): boolean {
  const dir = real(join(home, HOME_FILES.caches));
  const file = real(cachePath);
  return dir !== null && file !== null && dirname(file) === dir && file.startsWith(dir + sep);
}

/** What removing `r` would do to its cache; refuses a deletion that could lose someone's data. */
function cacheDecision(room: Room, registry: RegistryV2, r: Registration, deleteCache: boolean): Pick<RemoveResult, 'cache' | 'cacheCreatedBySteward' | 'cacheSharedWith'> {
  const file = real(r.cachePath) ?? r.cachePath;
  const shared = registry.registrations.filter((o) => o.registrationId !== r.registrationId && (o.cacheUuid === r.cacheUuid || (real(o.cachePath) ?? o.cachePath) === file)).length;
  const owned = createdBySteward(room.home, r.cachePath);
  if (deleteCache && !owned) {
    throw new StewardError('invalid_params', 'That cache was not created by Steward (it was enrolled from elsewhere), so it is never deleted; remove without --delete-cache to keep it.', {
      reason: 'cache_not_created_by_steward',
    });
  }
  if (deleteCache && shared > 0) {
    throw new StewardError('invalid_params', `Another registration uses the same cache (${shared}), so it is not deleted; remove without --delete-cache to keep it.`, {
      reason: 'cache_shared',
    });
  }
  return { cache: deleteCache ? 'deleted' : 'kept', cacheCreatedBySteward: owned, cacheSharedWith: shared };
}

/** The cache file and SQLite's companions: a stale -wal beside a fresh file could be replayed into it. */
function deleteCacheFile(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}

/**
 * Receipts that created or changed the removed registration answer, on replay, that it was removed:
 * never a stale success naming a registration that is no longer maintained (as conflicts.ts does).
 */
function retireReceipts(draft: RegistryV2, registrationId: string): void {
  for (const receipt of draft.receipts) {
    if (receipt.operation === 'remove' || receipt.operation === 'conflict_apply' || !receipt.outcome.ok) continue;
    if (receipt.outcome.result.registrationId !== registrationId) continue;
    receipt.outcome = { ok: false, code: 'not_found', message: 'The registration this request made was removed since; use a new key to set it up again.', details: { registrationId } };
  }
}

/**
 * `Maintenance.Remove`: retires a registration the way a rejected conflict candidate is retired, so
 * its jobs, receipts and legacy-id redirects keep resolving (to nothing live) while it leaves status
 * and the scheduler. The change runs behind the cache's writer fence: a running job is never cut off
 * mid-write; the request is refused with cache_writer_busy until that job has unwound.
 */
export async function removeRegistration(room: Room, params: RemoveParams): Promise<RemoveResult> {
  const registry = room.store.current();
  const deleteCache = params.deleteCache === true;
  const requestHash = hashOf({ op: 'remove', registrationId: params.registrationId, deleteCache });
  if (params.idempotencyKey && !params.dryRun) {
    const replay = replayReceipt(registry, params.idempotencyKey, 'remove', requestHash);
    if (replay) return { ...(replay as RemoveResult), replayed: true };
  }
  const found = target(registry, params.registrationId);
  const decision = cacheDecision(room, registry, found, deleteCache);
  const summary = { registrationId: found.registrationId, canonicalRepoId: publicRepoId(found.canonicalRepoId), ...decision, replayed: false };
  if (params.dryRun) return { ...summary, removed: false };
  return room.admission.fence(found.cacheUuid, 'remove', () => {
    // Checked again inside the fence: the registry may have changed while the request waited.
    const current = room.store.current();
    const live = current.registrations.find((r) => r.registrationId === found.registrationId);
    if (!live) throw new StewardError('not_found', 'No registration has that id or alias.');
    const result = { ...summary, ...cacheDecision(room, current, live, deleteCache), removed: true };
    const now = room.clock();
    room.store.commit((draft) => {
      draft.registrations = draft.registrations.filter((r) => r.registrationId !== live.registrationId);
      draft.retired.push({ registration: live, reason: 'removed', retiredAt: now, conflictId: null });
      retireReceipts(draft, live.registrationId);
      return params.idempotencyKey ? receiptOf(params.idempotencyKey, 'remove', requestHash, live.pathFingerprint, now, { ok: true, result }) : undefined;
    });
    // After the registry no longer names it, and still inside the fence: no writer can reopen it.
    if (deleteCache) deleteCacheFile(live.cachePath);
    room.logger.info('maintenance registration removed', { registrationId: live.registrationId, cacheDeleted: deleteCache });
    return result;
  });
}
