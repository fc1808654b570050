import type { Db } from '../store/index.js';

/** Rows counted per step, with a turn of the event loop between steps. */
const STEP_ROWS = 5_000;

/**
 * How many messages a run added: a message is the part holding its block 0 (`…:0`), as the search
 * index counts them. New parts get rowids above the mark taken before the run, so the count walks
 * only what the run wrote, a step at a time.
 */
export class MessageCounter {
  readonly #newest;
  readonly #messages;

  constructor(db: Db) {
    this.#newest = db.prepare('SELECT IFNULL(MAX(rowid), 0) FROM parts').pluck();
    this.#messages = db.prepare("SELECT COUNT(*) FROM parts WHERE rowid > ? AND rowid <= ? AND part_id LIKE '%:0'").pluck();
  }

  mark(): number {
    return this.#newest.get() as number;
  }

  async countSince(mark: number): Promise<number> {
    const last = this.mark();
    let total = 0;
    for (let from = mark; from < last; from += STEP_ROWS) {
      total += this.#messages.get(from, Math.min(from + STEP_ROWS, last)) as number;
      if (from + STEP_ROWS < last) await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }
}
