import type { Db } from '../store/index.js';

/**
 * The durable spool. Materialized rows once landed here first, in the same transaction as their
 * probe, for the sink to move into the committed tables; runs now write through their commit window
 * instead (see Materializer). What an older version left here is still pending: a run snapshots its
 * ids once, and the sink moves the rows.
 */
export class Spool {
  readonly #pendingPartIds;
  readonly #count;

  constructor(db: Db) {
    this.#pendingPartIds = db.prepare("SELECT id FROM spool WHERE kind = 'part'").pluck();
    this.#count = db.prepare('SELECT COUNT(*) FROM spool').pluck();
  }

  /** Streams every pending part id; it cannot stop early, so a run takes it once and reuses it. */
  pendingPartIds(): Set<string> {
    const ids = new Set<string>();
    for (const id of this.#pendingPartIds.iterate() as IterableIterator<string>) ids.add(id);
    return ids;
  }

  get pending(): number {
    return this.#count.get() as number;
  }
}
