import { inTransaction, type Db } from '../store/index.js';
import { SearchIndex } from './search-index.js';

export interface PruneResult {
  parts: number;
  sessions: number;
}

export interface PruneOptions {
  /** Rows per transaction; the event loop gets a turn between batches. */
  batchRows?: number;
  /** Aborting stops the prune between batches; what was removed stays removed. */
  signal?: AbortSignal | undefined;
}

const BATCH_ROWS = 5_000;

/**
 * A session row goes once nothing of it is left: no part of its own and no subagent session that
 * still has parts. Projects.List counts conversations (top-level sessions), so a conversation whose
 * subagent transcripts are still held keeps its row and its count. Project rows are never removed:
 * they carry the project's curated notes folder.
 */
const EMPTIED_SESSION = `s.provider = ? AND s.last_ts < ?
  AND NOT EXISTS (SELECT 1 FROM parts p WHERE p.session_id = s.session_id AND (p.ts IS NULL OR p.ts >= ?))
  AND NOT EXISTS (SELECT 1 FROM sessions c JOIN parts q ON q.session_id = c.session_id
                  WHERE c.parent_session_id = s.session_id AND (q.ts IS NULL OR q.ts >= ?))`;

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Cache maintenance for the retention window: removes a provider's rows whose line timestamp is
 * older than the cutoff, in bounded batches. Scheduled sweeps read with the same window and a
 * session with no part inside it is never written, so removed rows are not brought back.
 */
export class RetentionPruner {
  readonly #db: Db;
  readonly #index: SearchIndex;
  readonly #countParts;
  readonly #countSessions;
  readonly #pickParts;
  readonly #deleteParts;
  readonly #deleteStats;
  readonly #deleteSpooled;
  readonly #deleteSessions;

  constructor(db: Db) {
    this.#countParts = db.prepare('SELECT COUNT(*) FROM parts WHERE ts < ? AND provider = ?').pluck();
    this.#countSessions = db.prepare(`SELECT COUNT(*) FROM sessions s WHERE ${EMPTIED_SESSION}`).pluck();
    // A walk up parts_ts from a cursor: rows of other providers already passed are not scanned again
    // by the next batch, so a narrow window of one provider stays linear beside a wide one.
    this.#pickParts = db.prepare('SELECT rowid, ts FROM parts WHERE ts >= ? AND ts < ? AND provider = ? ORDER BY ts LIMIT ?');
    this.#deleteParts = db.prepare('DELETE FROM parts WHERE rowid IN (SELECT value FROM json_each(?))');
    this.#deleteSpooled = db.prepare("DELETE FROM spool WHERE kind = 'part' AND provider = ? AND ts < ?");
    this.#deleteSessions = db.prepare(`DELETE FROM sessions WHERE rowid IN (SELECT s.rowid FROM sessions s WHERE ${EMPTIED_SESSION} LIMIT ?) RETURNING session_id`).pluck();
    this.#deleteStats = db.prepare('DELETE FROM session_stats WHERE session_id IN (SELECT value FROM json_each(?))');
    this.#db = db;
    // Index rows leave with their parts, in the same transaction: the index stays exact.
    this.#index = new SearchIndex(db);
  }

  /** What `prune` would remove at this cutoff; removes nothing. */
  count(provider: string, cutoffMs: number): PruneResult {
    return {
      parts: this.#countParts.get(cutoffMs, provider) as number,
      sessions: this.#countSessions.get(provider, cutoffMs, cutoffMs, cutoffMs) as number,
    };
  }

  /**
   * Parts first (with their index rows), then the sessions they emptied, each batch in its own
   * transaction. `complete` is false when the signal stopped it; the next pass finishes the job.
   */
  async prune(provider: string, cutoffMs: number, options: PruneOptions = {}): Promise<PruneResult & { complete: boolean }> {
    const limit = options.batchRows ?? BATCH_ROWS;
    const result = { parts: 0, sessions: 0, complete: false };
    const stopped = () => options.signal?.aborted === true;
    if (stopped()) return result;
    // A spooled part older than the cutoff would otherwise land in the cache after this pass.
    this.#deleteSpooled.run(provider, cutoffMs);
    for (let cursor = Number.MIN_SAFE_INTEGER, removed = -1; removed !== 0; ) {
      const rows = this.#pickParts.all(cursor, cutoffMs, provider, limit) as Array<{ rowid: number; ts: number }>;
      const rowids = rows.map((r) => r.rowid);
      inTransaction(this.#db, () => {
        this.#index.removeParts(rowids);
        this.#deleteParts.run(JSON.stringify(rowids));
      });
      removed = rows.length;
      for (const { ts } of rows) if (ts > cursor) cursor = ts;
      result.parts += removed;
      await turn();
      if (stopped()) return result;
    }
    for (let removed = -1; removed !== 0; ) {
      const gone = inTransaction(this.#db, () => {
        const ids = this.#deleteSessions.all(provider, cutoffMs, cutoffMs, cutoffMs, limit) as string[];
        this.#deleteStats.run(JSON.stringify(ids));
        return ids;
      });
      removed = gone.length;
      result.sessions += removed;
      await turn();
      if (stopped()) return result;
    }
    result.complete = true;
    return result;
  }
}
