import type { PartRow, SessionRow } from '../transcripts/index.js';
import type { Db } from '../store/index.js';

/**
 * The durable spool: materialized rows land here first, in the same transaction as their probe,
 * and the sink moves them into the committed tables. A crash between the two loses nothing.
 */
export class Spool {
  readonly #appendPart;
  readonly #appendSession;
  readonly #pendingPartIds;
  readonly #count;

  constructor(db: Db) {
    this.#appendPart = db.prepare(
      "INSERT INTO spool (kind, id, session_id, provider, role, part_kind, ts, text, meta, flags, content_key) VALUES ('part', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.#appendSession = db.prepare("INSERT INTO spool (kind, id, session_id, provider, meta) VALUES ('session', ?, ?, ?, ?)");
    this.#pendingPartIds = db.prepare("SELECT id FROM spool WHERE kind = 'part'").pluck();
    this.#count = db.prepare('SELECT COUNT(*) FROM spool').pluck();
  }

  appendPart(part: PartRow): void {
    this.#appendPart.run(part.partId, part.sessionId, part.provider, part.role, part.kind, part.ts, part.text, part.meta, part.flags, part.contentKey);
  }

  appendSession(session: SessionRow): void {
    this.#appendSession.run(session.sessionId, session.sessionId, session.provider, JSON.stringify(session));
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
