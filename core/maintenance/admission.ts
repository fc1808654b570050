import { StewardError } from '../api/index.js';

export type WriterKind = 'sync' | 'rag' | 'repository_documents' | 'admin';

interface ActiveWriter {
  jobKey: string;
  kind: WriterKind;
  promise: Promise<unknown>;
}

export interface Admitted<T> {
  result: T;
  /** True when this request joined identical work already running instead of starting its own. */
  coalesced: boolean;
}

/**
 * One writer per cache_uuid, across every repository binding and writer type. Identical work
 * (same job key) coalesces onto the running writer; different work is refused with a typed
 * cache_writer_busy until the active writer has fully unwound (its promise settled and its entry
 * removed), never queued behind it silently.
 */
export class WriterAdmission {
  readonly #active = new Map<string, ActiveWriter>();

  isActive(cacheUuid: string): boolean {
    return this.#active.has(cacheUuid);
  }

  activeCount(): number {
    return this.#active.size;
  }

  /** Resolves once every writer active now has unwound (shutdown waits on it). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#active.values()].map((w) => w.promise));
  }

  admit<T>(cacheUuid: string, jobKey: string, kind: WriterKind, work: () => Promise<T>): Promise<Admitted<T>> {
    const active = this.#active.get(cacheUuid);
    if (active) {
      if (active.jobKey === jobKey) return active.promise.then((result) => ({ result: result as T, coalesced: true }));
      return Promise.reject(busy(active.kind, kind));
    }
    // The entry is removed in the same `finally` that callers await, so nobody observes the writer
    // as finished while it is still unwinding.
    const promise = Promise.resolve()
      .then(work)
      .finally(() => this.#active.delete(cacheUuid));
    this.#active.set(cacheUuid, { jobKey, kind, promise });
    return promise.then((result) => ({ result, coalesced: false }));
  }

  /**
   * The cache-UUID writer fence for admin mutations (conflict apply): refused while any writer is
   * active or unwinding; while it holds, every other writer of that cache gets cache_writer_busy.
   */
  async fence<T>(cacheUuid: string, operation: string, work: () => Promise<T> | T): Promise<T> {
    const admitted = await this.admit(cacheUuid, `admin:${operation}:${Math.random()}`, 'admin', async () => work());
    return admitted.result;
  }
}

/** What each writer is doing, in the words a person reads in a refusal. */
const WORK_WORDS: Record<WriterKind, string> = {
  sync: 'syncing this cache with its forge',
  rag: 'indexing this cache for search',
  repository_documents: 'reading local documents into this cache',
  admin: 'applying another change to this cache (a conflict resolution or a removal)',
};

function busy(activeKind: WriterKind, requestedKind: WriterKind): StewardError {
  return new StewardError('cache_writer_busy', `Steward is ${WORK_WORDS[activeKind]} right now; try again once that has finished (steward service maintenance shows its progress).`, {
    activeWriter: activeKind,
    requestedWriter: requestedKind,
  });
}
