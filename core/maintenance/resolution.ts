import { methods, StewardError, type ConflictPlan, type ConflictView, type Result } from '../api/index.js';
import { cacheHoldings } from './cache.js';
import { applyResolution, findCandidate, planOf, revalidate, type Applied } from './conflicts.js';
import { hashOf } from './hashing.js';
import { receiptOf, replayReceipt } from './receipts.js';
import type { Room } from './room.js';
import type { RegistryV2 } from './schema.js';
import { conflictView } from './status.js';

export type AppliedResolution = Result<'Conflicts.Apply'>;

/** Conflict resolution: an explicit candidate, a deterministic plan, and apply behind the writer fence. */
export class Resolution {
  readonly #room: Room;

  constructor(room: Room) {
    this.#room = room;
  }

  conflicts(): ConflictView[] {
    return this.#room.store.current().conflicts.map(conflictView);
  }

  /** For the local panel: what each candidate holds and when it last changed (never paths). */
  evidence(conflictId: string): Result<'Conflicts.Evidence'> {
    const conflict = this.#room.store.current().conflicts.find((c) => c.conflictId === conflictId);
    if (!conflict) throw new StewardError('not_found', 'No open conflict has that id.');
    const candidates = conflict.candidates.map((candidate) => {
      const paths = [...new Set(candidate.bundles.map((b) => b.registration?.cachePath ?? b.legacy?.cachePath ?? null).filter((p): p is string => p !== null))];
      const held = paths.map(cacheHoldings);
      const sum = (pick: (h: ReturnType<typeof cacheHoldings>) => number | null) => (held.length > 0 && held.every((h) => pick(h) !== null) ? held.reduce((n, h) => n + pick(h)!, 0) : null);
      const newest = (values: Array<number | null>) => values.reduce<number | null>((a, b) => (b === null ? a : a === null ? b : Math.max(a, b)), null);
      return {
        candidateId: candidate.candidateId,
        items: sum((h) => h.items),
        sizeBytes: sum((h) => h.sizeBytes),
        lastSyncAt: newest(candidate.bundles.map((b) => b.registration?.stages.sync.lastSuccessAt ?? null)),
        lastModifiedAt: newest(held.map((h) => h.lastModifiedAt)),
      };
    });
    return { conflictId, candidates };
  }

  plan(conflictId: string, candidateId: string): ConflictPlan {
    const { conflict, candidate } = findCandidate(this.#room.store.current(), conflictId, candidateId);
    return planOf(conflict, candidate, revalidate(conflict, candidate, (p) => this.#room.inspect(p)));
  }

  async apply(planId: string, idempotencyKey: string): Promise<AppliedResolution> {
    const registry = this.#room.store.current();
    const requestHash = hashOf({ op: 'conflict_apply', planId });
    const replay = replayReceipt(registry, idempotencyKey, 'conflict_apply', requestHash);
    if (replay) return methods['Conflicts.Apply'].result.parse({ ...replay, replayed: true });
    const target = this.#locatePlan(registry, planId);
    // Reserve the cache's writer lane first, then replan and write: nothing can slip in between.
    return this.#room.admission.fence(target.cacheUuid, 'conflict_apply', () => {
      const { conflict, candidate } = findCandidate(this.#room.store.current(), target.conflictId, target.candidateId);
      const revalidated = revalidate(conflict, candidate, (p) => this.#room.inspect(p));
      if (planOf(conflict, candidate, revalidated).planId !== planId) throw new StewardError('stale_plan', 'The conflict or its caches changed since the plan was made. Plan again.');
      const now = this.#room.clock();
      let applied: Applied = { restored: [], retired: [], followUpConflicts: [] };
      this.#room.store.commit((draft) => {
        applied = applyResolution(draft, conflict, candidate, revalidated, now);
        return receiptOf(idempotencyKey, 'conflict_apply', requestHash, candidate.pathFingerprint, now, { ok: true, result: { ...applied, planId, conflictId: conflict.conflictId } });
      });
      this.#room.logger.info('maintenance conflict resolved', { conflictId: conflict.conflictId, kind: conflict.kind, restored: applied.restored.length, retired: applied.retired.length });
      return { ...applied, planId, conflictId: conflict.conflictId, replayed: false };
    });
  }

  /** Plan ids are deterministic, so a plan made before a restart is found again by recomputing. */
  #locatePlan(registry: RegistryV2, planId: string): { conflictId: string; candidateId: string; cacheUuid: string } {
    for (const conflict of registry.conflicts) {
      if (conflict.lossy) continue;
      for (const candidate of conflict.candidates) {
        try {
          const revalidated = revalidate(conflict, candidate, (p) => this.#room.inspect(p));
          if (planOf(conflict, candidate, revalidated).planId === planId) return { conflictId: conflict.conflictId, candidateId: candidate.candidateId, cacheUuid: revalidated.cacheUuid };
        } catch {
          // A candidate that no longer validates cannot be the plan's candidate.
        }
      }
    }
    throw new StewardError('stale_plan', 'That plan no longer matches any open conflict. Plan again.');
  }
}
