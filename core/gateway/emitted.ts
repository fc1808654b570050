/** How many part ids a run remembers; beyond it, its least recently met sessions are forgotten. */
export const EMITTED_CAP = 50_000;

/**
 * The part ids a run emitted, for the sessions it met most recently. A run remembered every id it
 * wrote: 86 MB of a 123 MB peak heap importing a million parts. A forgotten session is one whose
 * candidates the materializer probes instead, and the probe sees what this run wrote (the same
 * connection, inside its window), so forgetting costs probes, never a row.
 */
export class EmittedIds {
  readonly #ids = new Set<string>();
  /** Each session's ids, in the order sessions were last met: the first leaves first. */
  readonly #bySession = new Map<string, string[]>();
  readonly #cap: number;

  constructor(cap = EMITTED_CAP) {
    this.#cap = cap;
  }

  has(partId: string): boolean {
    return this.#ids.has(partId);
  }

  add(sessionId: string, partId: string): void {
    if (this.#ids.has(partId)) return;
    this.#ids.add(partId);
    let ids = this.#bySession.get(sessionId);
    if (!ids) this.#bySession.set(sessionId, (ids = []));
    ids.push(partId);
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
      if (this.#ids.size <= this.#cap || this.#bySession.size === 1) break;
      this.#bySession.delete(sessionId);
      for (const id of ids) this.#ids.delete(id);
      forgotten.push(sessionId);
    }
    return forgotten;
  }
}
