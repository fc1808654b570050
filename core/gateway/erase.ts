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
  /** Called after each piece (and once when a project is done, see eraseProject). */
  onProgress?: ((progress: EraseProgress) => void) | undefined;
  /**
   * Hears every session an erase will take (those asked and their subagents), before any row goes: at
   * once for sessions, and for a project in pieces through the disk gate, each page's before its rows go.
   */
  onOrder?: ((sessionIds: readonly string[]) => void) | undefined;
}

const BATCH_ROWS = 2_000;
/**
 * A project's sessions read and erased at a time. Reading all 150k ids of one project at once held
 * the event loop 130-670 ms (a table lookup each); 5,000 of them take 3 ms (12-23 ms on a loaded machine).
 */
const PROJECT_PAGE = 5_000;
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
  readonly #countOfProject;
  readonly #outsideProject;
  readonly #anyOfProject;
  readonly #partsOf;
  readonly #deleteParts;
  readonly #deleteSpool;
  readonly #deleteSessions;
  readonly #deleteStats;
  readonly #deleteEmptyStats;
  readonly #deleteClaims;
  readonly #gate: PieceGate | undefined;
  readonly #projectPage: number;

  /** `projectPage`: a project's sessions erased at a time (see PROJECT_PAGE). */
  constructor(db: Db, index: SearchIndex, gate?: PieceGate, projectPage = PROJECT_PAGE) {
    this.#db = db;
    this.#index = index;
    this.#gate = gate;
    this.#projectPage = projectPage;
    // Subagents by their row and by the `{parent}:agent-` form of their id (a row may not know its parent
    // yet). A branch is a conversation of its own (CONVERSATION): it is not erased with the one it left.
    this.#children = db
      .prepare(`SELECT session_id FROM sessions WHERE (parent_session_id = @id AND parent_kind IS NOT 'branch') OR (session_id >= @id || ':agent-' AND session_id < @id || ':agent.')`)
      .pluck();
    this.#hasRow = db.prepare('SELECT 1 FROM sessions WHERE session_id = ?').pluck();
    // The front of sessions_project. No index orders a project's sessions by id (keyset pages by
    // session_id sorted the whole project each time: 91 ms a page at 150k); none is needed, as erasing
    // a page takes it off the front.
    this.#ofProject = db.prepare('SELECT session_id FROM sessions WHERE project_key = ? LIMIT ?').pluck();
    // Over sessions_project alone (no table row read): 5 ms at 150k sessions.
    this.#countOfProject = db.prepare('SELECT COUNT(*) FROM sessions WHERE project_key = ?').pluck();
    // By primary key, one lookup an id: `IS NOT` keeps sessions_project (a walk of the whole project) out.
    this.#outsideProject = db.prepare(`SELECT COUNT(*) FROM sessions WHERE session_id IN (${IDS}) AND project_key IS NOT ?`).pluck();
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

  /** Up to `limit` sessions of a project (subagents whose rows name it included). */
  sessionsOfProject(projectKey: string, limit: number): string[] {
    return this.#ofProject.all(projectKey, limit) as string[];
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
  async #withSubagents(sessionIds: readonly string[], batchRows: number, signal: AbortSignal | undefined): Promise<string[]> {
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
    const order = await this.#ordered(sessionIds, batchRows, signal);
    options.onOrder?.(order);
    const result: EraseResult = { parts: 0, sessions: 0 };
    await this.#eraseOrdered(order, batchRows, signal, result, (done) => onProgress?.({ sessionsDone: done, sessionsTotal: order.length, parts: result.parts }));
    return result;
  }

  /**
   * A project's sessions and their subagents, as `erase` does, a page of sessions at a time with a
   * turn between: its rows stay findable from the project whenever it stops. Each page is the front of
   * what is left, so a session added to the project meanwhile is erased too if a later page finds it
   * (the owner's next start finishes any that comes after the last). The total is the project's count
   * at the start, grown by the subagents found whose rows name another project or none.
   */
  async eraseProject(projectKey: string, batchRows = BATCH_ROWS, options: EraseOptions = {}): Promise<EraseResult> {
    const { signal, onProgress } = options;
    const result: EraseResult = { parts: 0, sessions: 0 };
    let total = this.#countOfProject.get(projectKey) as number;
    let before = 0;
    for (;;) {
      const page = this.sessionsOfProject(projectKey, this.#projectPage);
      if (page.length === 0) break;
      const order = await this.#ordered(page, batchRows, signal);
      if (options.onOrder && !(await this.#hear(order, options.onOrder, batchRows, signal))) throw cancelled();
      // Never below what is found: a session added to the project since the count.
      total = Math.max(total + this.#outside(projectKey, order, page), before + order.length);
      await this.#eraseOrdered(order, batchRows, signal, result, (done) => onProgress?.({ sessionsDone: before + done, sessionsTotal: total, parts: result.parts }));
      before += order.length;
      await turn();
    }
    // Done is all there was, whatever the count said (a session pruned meanwhile was not found).
    onProgress?.({ sessionsDone: before, sessionsTotal: before, parts: result.parts });
    return result;
  }

  /**
   * Hands `order` to `onOrder` in pieces through the disk gate, as rows are erased: what it writes (a
   * forgotten project keeps its conversations' ids, 5,000 a page) is paced like the erase. No await
   * lies between the signal's check and a piece, so a lift that aborts it is never outrun.
   */
  async #hear(order: readonly string[], onOrder: (sessionIds: readonly string[]) => void, batchRows: number, signal: AbortSignal | undefined): Promise<boolean> {
    let next = 0;
    return inPieces({ gate: this.#gate, signal, limits: { maxRows: batchRows } }, (rows) => {
      onOrder(order.slice(next, (next += rows)));
      return next < order.length;
    });
  }

  /** The subagents in `order` that the project's count left out: found under `page`, their rows not of the project. */
  #outside(projectKey: string, order: readonly string[], page: readonly string[]): number {
    if (order.length === page.length) return 0;
    const onPage = new Set(page);
    return this.#outsideProject.get(JSON.stringify(order.filter((id) => !onPage.has(id))), projectKey) as number;
  }

  /** The sessions and their subagents, each subagent before the session it was found under. */
  async #ordered(sessionIds: readonly string[], batchRows: number, signal: AbortSignal | undefined): Promise<string[]> {
    const order = (await this.#withSubagents(sessionIds, batchRows, signal)).reverse();
    if (signal?.aborted) throw cancelled();
    return order;
  }

  /** Erases `order` in pieces into `result`; `progress` hears how many of it are done after each piece. */
  async #eraseOrdered(order: readonly string[], batchRows: number, signal: AbortSignal | undefined, result: EraseResult, progress: (done: number) => void): Promise<void> {
    // Spooled rows first: a sink step must not commit a forgotten part after its session is gone.
    this.#deleteSpool.run(JSON.stringify(order));
    await turn();
    let next = 0;
    const piece = (rows: number) => {
      next = this.#piece(order, next, rows, result);
      progress(next);
      return next < order.length;
    };
    // The index's segments are merged after each piece (FTS5's automerge is off, see mergePiece), in
    // a turn of its own: a forget's first merge read 34-44 pages of the index not yet in memory.
    const pacing = { gate: this.#gate, signal, tidy: () => this.#index.mergePiece() };
    // What the index has left to merge first, in merge pieces of their own: each piece below commits
    // a segment of delete markers, and the 16th on one level makes FTS5 merge that level whole inside
    // the commit (its crisis merge; automerge is off). Forgetting a project of 900 conversations (90k
    // parts) right after an import whose 13 segments the walk had not merged yet held the event loop
    // 400-700 ms in its third piece; a piece's own merge, 64-300 pages, could not keep up.
    if (!(await inPieces({ gate: this.#gate, signal, limits: { maxRows: 1 } }, () => this.#index.mergePiece()))) throw cancelled();
    await turn();
    // The first piece takes one row. It is the first to read, on this thread, the B-trees a piece
    // writes (parts and their part_id index, the index's map, sizes and structure, the counts): 25-28
    // pages however few its rows, from the disk when the store is cold. With 50 rows and its merge,
    // the first piece of a forget on a 1M-part store with a cold page cache read 65-123 pages where
    // each later one read 29-69, and held the event loop 27-53 ms for 15-22 ms of CPU.
    let done = await inPieces({ ...pacing, limits: { maxRows: 1 } }, () => {
      piece(1);
      return false;
    });
    if (done && next < order.length) {
      await turn();
      // Then a piece's rows follow what the last took (see PieceSize): each part leaves the full-text
      // index (re-tokenized) and random pages of the part_id index; 2,000 at a time held the event
      // loop up to 272 ms forgetting 190k parts of a 1M-part store. Session rows are paced the same
      // way: 30,001 of them at once held it 363 ms. From 50 rows: a piece's pages of the part_id index
      // are read from the disk while they are cold.
      done = await inPieces({ ...pacing, limits: { maxRows: batchRows, startRows: 50 } }, piece);
    }
    if (!done) throw cancelled();
  }

  /**
   * One piece: the parts of the sessions from `next` on, and the rows of each session emptied, about
   * `rows` rows in all, in one transaction. Returns where the next piece starts.
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
    return at;
  }
}

const cancelled = () => new StewardError('cancelled', 'Forgetting stopped before it finished; the tombstone holds and the next start finishes it');
