/** How many part ids a run remembers; beyond it, its least recently met sessions are forgotten. */
export const EMITTED_CAP = 50_000;

/**
 * The part ids a run emitted, for the sessions it met most recently. A run remembered every id it
 * wrote: 86 MB of a 123 MB peak heap importing a million parts. A forgotten session is one whose
 * candidates the materializer probes instead, and the probe sees what this run wrote (the same
 * connection, inside its window), so forgetting costs probes, never a row.
 *
 * Ids are kept per session, as the probe asks (a copy of a part under another session is the
 * sink's to ignore), so forgetting a session drops one set. One set of every id, emptied id by id,
 * cost 1.9 s of CPU in a 1M-part import; sets per session, 0.15 s.
 */
export class EmittedIds {
  /** Each session's ids, in the order sessions were last met: the first leaves first. */
  readonly #bySession = new Map<string, Set<string>>();
  readonly #cap: number;
  #size = 0;

  constructor(cap = EMITTED_CAP) {
    this.#cap = cap;
  }

  has(sessionId: string, partId: string): boolean {
    return this.#bySession.get(sessionId)?.has(partId) ?? false;
  }

  add(sessionId: string, partId: string): void {
    let ids = this.#bySession.get(sessionId);
    if (!ids) this.#bySession.set(sessionId, (ids = new Set()));
    const before = ids.size;
    ids.add(partId);
    this.#size += ids.size - before;
  }

  /** Marks these sessions as just met, so they are the last to be forgotten. */
  touch(sessionIds: Iterable<string>): void {
    for (const sessionId of sessionIds) {
      const ids = this.#bySession.get(sessionId);
      if (!ids) continue;
      this.#bySession.delete(sessionId);
      this.#bySession.set(sessionId, ids);
    }
  }

  /** Forgets the least recently met sessions while over the cap (never the last one); returns them. */
  trim(): string[] {
    const forgotten: string[] = [];
    for (const [sessionId, ids] of this.#bySession) {
      if (this.#size <= this.#cap || this.#bySession.size === 1) break;
      this.#bySession.delete(sessionId);
      this.#size -= ids.size;
      forgotten.push(sessionId);
    }
    return forgotten;
  }
}
