import { inTransaction, type Db } from '../store/index.js';
import { inPieces, type PieceGate } from './pace.js';
import type { SearchIndex } from './search-index.js';

export interface EraseResult {
  parts: number;
  sessions: number;
}

const BATCH_ROWS = 2_000;
const IDS = 'SELECT value FROM json_each(?)';

/**
 * Deletes conversations outright (forgetting): their subagents, spooled rows, parts with their index
 * rows, counts and session rows, in batches sized by time with an event-loop turn between them, and
 * through the WAL checkpoint thread's disk gate when one is given (capture's, see Checkpointer).
 */
export class SessionEraser {
  readonly #db: Db;
  readonly #index: SearchIndex;
  readonly #children;
  readonly #ofProject;
  readonly #batch;
  readonly #deleteParts;
  readonly #deleteSpool;
  readonly #deleteSessions;
  readonly #deleteStats;
  readonly #deleteClaims;
  readonly #gate: PieceGate | undefined;

  constructor(db: Db, index: SearchIndex, gate?: PieceGate) {
    this.#db = db;
    this.#index = index;
    this.#gate = gate;
    // Subagents by their row and by the `{parent}:agent-` form of their id (a row may not know its parent yet).
    this.#children = db
      .prepare(`SELECT session_id FROM sessions WHERE parent_session_id = @id OR (session_id >= @id || ':agent-' AND session_id < @id || ':agent.')`)
      .pluck();
    this.#ofProject = db.prepare('SELECT session_id FROM sessions WHERE project_key = ?').pluck();
    this.#batch = db.prepare(`SELECT rowid FROM parts WHERE session_id IN (${IDS}) LIMIT ?`).pluck();
    this.#deleteParts = db.prepare(`DELETE FROM parts WHERE rowid IN (${IDS})`);
    this.#deleteSpool = db.prepare(`DELETE FROM spool WHERE session_id IN (${IDS})`);
    this.#deleteSessions = db.prepare(`DELETE FROM sessions WHERE session_id IN (${IDS})`);
    this.#deleteStats = db.prepare(`DELETE FROM session_stats WHERE session_id IN (${IDS})`);
    // A summary title waiting for its leaf is text of the forgotten file (see TitleClaims).
    this.#deleteClaims = db.prepare(`DELETE FROM title_claims WHERE fallback_session_id IN (${IDS})`);
  }

  /** The conversations of a project (subagents included). */
  sessionsOfProject(projectKey: string): string[] {
    return this.#ofProject.all(projectKey) as string[];
  }

  /** These sessions and every subagent under them. */
  withSubagents(sessionIds: readonly string[]): string[] {
    const all = new Set<string>();
    const queue = [...sessionIds];
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (all.has(id)) continue;
      all.add(id);
      queue.push(...(this.#children.all({ id }) as string[]));
    }
    return [...all];
  }

  /** `batchRows`: rows per transaction at most. */
  async erase(sessionIds: readonly string[], batchRows = BATCH_ROWS): Promise<EraseResult> {
    const ids = JSON.stringify(this.withSubagents(sessionIds));
    const result: EraseResult = { parts: 0, sessions: 0 };
    // Spooled rows first: a sink step must not commit a forgotten part after its session is gone.
    this.#deleteSpool.run(ids);
    // A batch's rows follow what the last took (see PieceSize): each part leaves the full-text index
    // (re-tokenized) and random pages of the part_id index; 2,000 at a time held the event loop up to
    // 272 ms forgetting 190k parts of a 1M-part store.
    await inPieces({ limits: { maxRows: batchRows }, gate: this.#gate }, (rows) => {
      const rowids = this.#batch.all(ids, rows) as number[];
      if (rowids.length === 0) return false;
      inTransaction(this.#db, () => {
        this.#index.removeParts(rowids);
        result.parts += this.#deleteParts.run(JSON.stringify(rowids)).changes;
      });
      // The index's segments are merged in step (FTS5's automerge is off, see mergePiece).
      this.#index.mergePiece();
      return true;
    });
    inTransaction(this.#db, () => {
      this.#deleteSpool.run(ids);
      result.sessions = this.#deleteSessions.run(ids).changes;
      this.#deleteStats.run(ids);
      this.#deleteClaims.run(ids);
    });
    return result;
  }
}
