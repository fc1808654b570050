import { StewardError } from '../api/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { inPieces, turn, type PieceGate } from './pace.js';
import type { SearchIndex } from './search-index.js';

export interface EraseResult {
  parts: number;
  sessions: number;
}

/** How far an erase has come: sessions whose rows are gone of those it found, and parts deleted. */
export interface EraseProgress {
  sessionsDone: number;
  sessionsTotal: number;
  parts: number;
}

export interface EraseOptions {
  /** Aborting stops the erase between pieces (it rejects with `cancelled`); what was deleted stays deleted. */
  signal?: AbortSignal | undefined;
  /** Called after each piece. */
  onProgress?: ((progress: EraseProgress) => void) | undefined;
}

const BATCH_ROWS = 2_000;
const IDS = 'SELECT value FROM json_each(?)';

/**
 * Deletes conversations outright (forgetting): their subagents, spooled rows, parts with their index
 * rows, counts and session rows, in pieces sized by time with an event-loop turn between them, and
 * through the WAL checkpoint thread's disk gate when one is given (capture's, see Checkpointer).
 */
export class SessionEraser {
  readonly #db: Db;
  readonly #index: SearchIndex;
  readonly #children;
  readonly #hasRow;
  readonly #ofProject;
  readonly #anyOfProject;
  readonly #partsOf;
  readonly #deleteParts;
  readonly #deleteSpool;
  readonly #deleteSessions;
  readonly #deleteStats;
  readonly #deleteEmptyStats;
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
    this.#hasRow = db.prepare('SELECT 1 FROM sessions WHERE session_id = ?').pluck();
    this.#ofProject = db.prepare('SELECT session_id FROM sessions WHERE project_key = ?').pluck();
    this.#anyOfProject = db.prepare('SELECT 1 FROM sessions WHERE project_key = ? LIMIT 1').pluck();
    this.#partsOf = db.prepare('SELECT rowid FROM parts WHERE session_id = ? LIMIT ?').pluck();
    this.#deleteParts = db.prepare(`DELETE FROM parts WHERE rowid IN (${IDS})`);
    this.#deleteSpool = db.prepare(`DELETE FROM spool WHERE session_id IN (${IDS})`);
    this.#deleteSessions = db.prepare(`DELETE FROM sessions WHERE session_id IN (${IDS})`);
    this.#deleteStats = db.prepare(`DELETE FROM session_stats WHERE session_id IN (${IDS})`);
    this.#deleteEmptyStats = db.prepare('DELETE FROM session_stats WHERE session_id = ? AND parts = 0');
    // A summary title waiting for its leaf is text of the forgotten file (see TitleClaims).
    this.#deleteClaims = db.prepare(`DELETE FROM title_claims WHERE fallback_session_id IN (${IDS})`);
  }

  /** The conversations of a project (subagents included). */
  sessionsOfProject(projectKey: string): string[] {
    return this.#ofProject.all(projectKey) as string[];
  }

  /** Whether rows of a project's conversations are left: a forget that stopped before it finished. */
  projectHasSessions(projectKey: string): boolean {
    return this.#anyOfProject.get(projectKey) !== undefined;
  }

  /** Whether a row of this session or one of its subagents is left. */
  sessionHasRows(sessionId: string): boolean {
    return this.#hasRow.get(sessionId) !== undefined || this.#children.get({ id: sessionId }) !== undefined;
  }

  /**
   * These sessions and every subagent under them, each after the session it was found under, a few
   * sessions at a time with a turn of the event loop between: a project's tens of thousands of
   * sessions cost a query each.
   */
  async withSubagents(sessionIds: readonly string[], batchRows = BATCH_ROWS, signal?: AbortSignal): Promise<string[]> {
    const found = new Set<string>();
    const queue = [...new Set(sessionIds)].reverse();
    await inPieces({ limits: { maxRows: batchRows }, signal }, (rows) => {
      for (let n = 0; n < rows && queue.length > 0; n += 1) {
        const id = queue.pop()!;
        if (found.has(id)) continue;
        found.add(id);
        queue.push(...(this.#children.all({ id }) as string[]));
      }
      return queue.length > 0;
    });
    return [...found];
  }

  /**
   * `batchRows`: rows (parts and sessions) per piece at most. Subagents go before the session they
   * were found under, so one that stops part-way leaves every remaining row findable from what it was
   * asked: forgetting the same again (or the owner's next start, see Forgetting) finishes it.
   */
  async erase(sessionIds: readonly string[], batchRows = BATCH_ROWS, options: EraseOptions = {}): Promise<EraseResult> {
    const { signal, onProgress } = options;
    const order = (await this.withSubagents(sessionIds, batchRows, signal)).reverse();
    if (signal?.aborted) throw cancelled();
    // Spooled rows first: a sink step must not commit a forgotten part after its session is gone.
    this.#deleteSpool.run(JSON.stringify(order));
    await turn();
    const result: EraseResult = { parts: 0, sessions: 0 };
    let next = 0;
    // A piece's rows follow what the last took (see PieceSize): each part leaves the full-text index
    // (re-tokenized) and random pages of the part_id index; 2,000 at a time held the event loop up to
    // 272 ms forgetting 190k parts of a 1M-part store. Session rows are paced the same way: 30,001 of
    // them at once held it 363 ms.
    const done = await inPieces({ limits: { maxRows: batchRows }, gate: this.#gate, signal }, (rows) => {
      next = this.#piece(order, next, rows, result);
      onProgress?.({ sessionsDone: next, sessionsTotal: order.length, parts: result.parts });
      return next < order.length;
    });
    if (!done) throw cancelled();
    return result;
  }

  /**
   * One piece: the parts of the sessions from `next` on, and the rows of each session emptied, about
   * `rows` rows in all, in one transaction; then a piece of merging the index. Returns where the next
   * piece starts.
   */
  #piece(order: readonly string[], next: number, rows: number, result: EraseResult): number {
    const rowids: number[] = [];
    const emptied: string[] = [];
    let looked: string | undefined;
    let at = next;
    while (at < order.length && rowids.length + emptied.length < rows) {
      const want = rows - rowids.length - emptied.length;
      const found = this.#partsOf.all(order[at], want) as number[];
      rowids.push(...found);
      // A session with as many parts as fit is looked into again by the next piece (it may have more).
      if (found.length === want) {
        looked = order[at]!;
        break;
      }
      emptied.push(order[at]!);
      at += 1;
    }
    inTransaction(this.#db, () => {
      if (rowids.length > 0) {
        this.#index.removeParts(rowids);
        result.parts += this.#deleteParts.run(JSON.stringify(rowids)).changes;
        // Counts of no parts, should that session have no more: a forget that stops here leaves none.
        if (looked !== undefined) this.#deleteEmptyStats.run(looked);
      }
      if (emptied.length > 0) {
        const ids = JSON.stringify(emptied);
        this.#deleteSpool.run(ids);
        result.sessions += this.#deleteSessions.run(ids).changes;
        this.#deleteStats.run(ids);
        this.#deleteClaims.run(ids);
      }
    });
    // The index's segments are merged in step (FTS5's automerge is off, see mergePiece).
    if (rowids.length > 0) this.#index.mergePiece();
    return at;
  }
}

const cancelled = () => new StewardError('cancelled', 'Forgetting stopped before it finished; the tombstone holds and the next start finishes it');
