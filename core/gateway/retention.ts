import { inTransaction, type Db } from '../store/index.js';
import { inPieces, turn, type PieceGate } from './pace.js';
import { COUNTS_AS_MESSAGE_SQL, MESSAGE_SQL, SearchIndex } from './search-index.js';
import { CONVERSATION } from './sessions.js';
import { TranscriptFiles } from './transcript-files.js';

export interface PruneResult {
  parts: number;
  sessions: number;
  /** The messages the old parts make up, and the conversations (top-level sessions) that go whole: what a person counts. */
  messages: number;
  conversations: number;
}

export interface PruneOptions {
  /** Rows per transaction at most; the event loop gets a turn between batches. */
  batchRows?: number;
  /** Aborting stops the prune between batches; what was removed stays removed. */
  signal?: AbortSignal | undefined;
}

const BATCH_ROWS = 5_000;
// A batch's rows follow what the last batch took (see PieceSize): a delete lands on random pages of
// the part_id index, and 5,000 of them held the event loop 150–300 ms at a million parts.
/** Sessions one batch looks into at most, so a batch that finds little still ends within a few ms. */
const BATCH_SESSIONS = 200;
/**
 * Session rows one page of `lost` reads at most (its pieces are timed as `count`'s are): the filter's
 * subqueries over every old session of a large store held the event loop far past a frame at once.
 */
const LOST_PAGE = { minRows: 50, maxRows: 2_000, startRows: 200 };
/** Conversations handed to TranscriptFiles.count at once: its reads of their holds are synchronous. */
const LOST_COUNT_IDS = 500;

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

/** A batch of old rows; `last` is where the next batch starts, `end` whether every session was looked into. */
interface Picked {
  rowids: number[];
  last: string | null;
  end: boolean;
}

/**
 * Cache maintenance for the retention window: removes a provider's rows whose line timestamp is
 * older than the cutoff, in bounded batches. Scheduled sweeps read with the same window and a
 * session with no part inside it is never written, so removed rows are not brought back.
 */
export class RetentionPruner {
  readonly #db: Db;
  readonly #index: SearchIndex;
  readonly #firstSession;
  readonly #nextSession;
  readonly #sessionProvider;
  readonly #countOld;
  readonly #pickOld;
  readonly #countSessions;
  readonly #countedMessages;
  readonly #deleteParts;
  readonly #deleteStats;
  readonly #deleteSpooled;
  readonly #deleteSessions;
  readonly #checkpointer: PieceGate | undefined;
  readonly #emptiedConversations;
  readonly #pageEnd;
  readonly #files: TranscriptFiles;

  /**
   * `checkpointer`: the connection's (capture's) WAL checkpoint thread and disk gate. Without it, each
   * batch's commit checkpoints the WAL itself once it is long: 100 ms and more on a large store.
   */
  constructor(db: Db, checkpointer?: PieceGate) {
    this.#checkpointer = checkpointer;
    // The sessions that hold parts, one index seek each (a loose scan of parts_session_ts), whether
    // or not a session row exists; then each one's old rows, a range of that same index. Parts carry
    // no time index of their own: every stored part would pay for it, and only this walk reads it.
    this.#firstSession = db.prepare('SELECT MIN(session_id) FROM parts').pluck();
    this.#nextSession = db.prepare('SELECT session_id FROM parts WHERE session_id > ? ORDER BY session_id LIMIT 1').pluck();
    this.#sessionProvider = db.prepare('SELECT provider FROM sessions WHERE session_id = ?').pluck();
    // A message's parts share its line, so its time: it goes whole. Its parts share the id up to the last ':' (messageOf).
    // What a person counts (countsAsMessage): the messages whose standing part counts them, by the index's own rule.
    this.#countOld = db.prepare(`SELECT COUNT(*) AS parts, COUNT(DISTINCT CASE WHEN ${COUNTS_AS_MESSAGE_SQL} THEN ${MESSAGE_SQL} END) AS messages FROM parts p WHERE p.session_id = ? AND p.ts < ? AND p.provider = ?`);
    this.#pickOld = db.prepare('SELECT rowid FROM parts WHERE session_id = ? AND ts < ? AND provider = ? LIMIT ?').pluck();
    this.#countSessions = db.prepare(`SELECT COUNT(*) AS sessions, IFNULL(SUM(${CONVERSATION.replaceAll('parent_', 's.parent_')}), 0) AS conversations FROM sessions s WHERE ${EMPTIED_SESSION}`);
    // The messages the parts about to go count (messageOf), read before they go: the pass counts as the dry run does.
    this.#countedMessages = db.prepare(`SELECT ${MESSAGE_SQL} FROM parts p WHERE p.rowid IN (SELECT value FROM json_each(?)) AND ${COUNTS_AS_MESSAGE_SQL}`).pluck();
    this.#deleteParts = db.prepare('DELETE FROM parts WHERE rowid IN (SELECT value FROM json_each(?))');
    this.#deleteSpooled = db.prepare("DELETE FROM spool WHERE kind = 'part' AND provider = ? AND ts < ?");
    this.#deleteSessions = db.prepare(`DELETE FROM sessions WHERE rowid IN (SELECT s.rowid FROM sessions s WHERE ${EMPTIED_SESSION} LIMIT ?) RETURNING session_id, ${CONVERSATION} AS conversation`);
    this.#deleteStats = db.prepare('DELETE FROM session_stats WHERE session_id IN (SELECT value FROM json_each(?))');
    // The conversations (top-level sessions, a branch included) a pass empties: `conversations` of count,
    // by id, among the session rows of one page (after the first id, up to the last, inclusive).
    this.#pageEnd = db.prepare('SELECT MAX(session_id) FROM (SELECT session_id FROM sessions WHERE session_id > ? ORDER BY session_id LIMIT ?)').pluck();
    this.#emptiedConversations = db
      .prepare(`SELECT s.session_id FROM sessions s WHERE s.session_id > ? AND s.session_id <= ? AND ${EMPTIED_SESSION} AND ${CONVERSATION.replaceAll('parent_', 's.parent_')}`)
      .pluck();
    this.#files = new TranscriptFiles(db);
    this.#db = db;
    // Index rows leave with their parts, in the same transaction: the index stays exact.
    this.#index = new SearchIndex(db);
  }

  /** The ids of the sessions that hold parts, in order, after `after` (null: from the first). */
  *#sessions(after: string | null): Generator<string> {
    let id = (after === null ? this.#firstSession.get() : this.#nextSession.get(after)) as string | null | undefined;
    while (id !== null && id !== undefined) {
      yield id;
      id = this.#nextSession.get(id) as string | undefined;
    }
  }

  /** A session row of another provider holds none of this one's parts; parts without a row are checked row by row. */
  #mayHold(sessionId: string, provider: string): boolean {
    const owner = this.#sessionProvider.get(sessionId) as string | undefined;
    return owner === undefined || owner === provider;
  }

  /**
   * Visits up to `sessions` sessions after `after`, those that may hold the provider's parts; `visit`
   * returns false to stop before the session is passed (the next walk starts at it again).
   */
  #walk(provider: string, after: string | null, sessions: number, visit: (sessionId: string) => boolean): Omit<Picked, 'rowids'> {
    let last = after;
    let looked = 0;
    for (const id of this.#sessions(after)) {
      if (this.#mayHold(id, provider) && !visit(id)) return { last, end: false };
      last = id;
      if ((looked += 1) >= sessions) return { last, end: false };
    }
    return { last, end: true };
  }

  /** Up to `limit` rowids of the provider's parts older than the cutoff, from the session after `after` on. */
  #pick(provider: string, cutoffMs: number, after: string | null, limit: number): Picked {
    const rowids: number[] = [];
    const walked = this.#walk(provider, after, BATCH_SESSIONS, (id) => {
      rowids.push(...(this.#pickOld.all(id, cutoffMs, provider, limit - rowids.length) as number[]));
      // A session with more old rows than fit is looked into again by the next batch.
      return rowids.length < limit;
    });
    return { rowids, ...walked };
  }

  /**
   * Parts and their index rows, in one transaction; then a piece of merging the index (see
   * mergePiece). Returns the messages those parts belonged to.
   */
  #remove(rowids: number[]): string[] {
    if (rowids.length === 0) return [];
    const messages = inTransaction(this.#db, () => {
      const ids = JSON.stringify(rowids);
      const counted = this.#countedMessages.all(ids) as string[];
      this.#index.removeParts(rowids);
      this.#deleteParts.run(ids);
      return counted;
    });
    this.#index.mergePiece();
    return messages;
  }

  /**
   * What `prune` would remove at this cutoff; removes nothing. Sessions are counted a few at a time
   * (a session's count reads its old rows), with a turn of the event loop between.
   */
  async count(provider: string, cutoffMs: number): Promise<PruneResult> {
    const old = { parts: 0, messages: 0 };
    let after: string | null = null;
    await inPieces({ limits: { minRows: 1, maxRows: BATCH_SESSIONS, startRows: 20 } }, (sessions) => {
      const counted = this.#countSome(provider, cutoffMs, after, sessions);
      old.parts += counted.parts;
      old.messages += counted.messages;
      after = counted.last;
      return !counted.end;
    });
    const emptied = this.#countSessions.get(provider, cutoffMs, cutoffMs, cutoffMs) as { sessions: number; conversations: number };
    return { ...old, ...emptied };
  }

  /**
   * Of the conversations a pass at this cutoff removes whole, those whose transcript is gone from disk
   * (TranscriptFiles: gone only, never unknown): what it would lose for good. Only those are stat'ed.
   */
  async lost(provider: string, cutoffMs: number): Promise<number> {
    const ids: string[] = [];
    let after = '';
    // Session rows a page at a time by id, a turn of the event loop between (see LOST_PAGE).
    await inPieces({ limits: LOST_PAGE }, (sessions) => {
      const end = this.#pageEnd.get(after, sessions) as string | null;
      if (end === null) return false;
      ids.push(...(this.#emptiedConversations.all(after, end, provider, cutoffMs, cutoffMs, cutoffMs) as string[]));
      after = end;
      return true;
    });
    let gone = 0;
    // Each conversation is in one slice alone: the slices' counts add up.
    for (let i = 0; i < ids.length; i += LOST_COUNT_IDS) gone += (await this.#files.count(ids.slice(i, i + LOST_COUNT_IDS))).gone;
    return gone;
  }

  /** The provider's old parts, and the messages they make up, in up to `sessions` sessions after `after`. */
  #countSome(provider: string, cutoffMs: number, after: string | null, sessions: number): Omit<Picked, 'rowids'> & { parts: number; messages: number } {
    let parts = 0;
    let messages = 0;
    const walked = this.#walk(provider, after, sessions, (id) => {
      const old = this.#countOld.get(id, cutoffMs, provider) as { parts: number; messages: number };
      parts += old.parts;
      messages += old.messages;
      return true;
    });
    return { parts, messages, ...walked };
  }

  /**
   * Parts first (with their index rows), then the sessions they emptied, each batch in its own
   * transaction. `complete` is false when the signal stopped it; the next pass finishes the job.
   */
  async prune(provider: string, cutoffMs: number, options: PruneOptions = {}): Promise<PruneResult & { complete: boolean }> {
    const maxRows = options.batchRows ?? BATCH_ROWS;
    const result = { parts: 0, sessions: 0, messages: 0, conversations: 0, complete: false };
    if (options.signal?.aborted) return result;
    // A spooled part older than the cutoff would otherwise land in the cache after this pass.
    this.#deleteSpooled.run(provider, cutoffMs);
    let after: string | null = null;
    // A message whose parts a batch's limit split goes on in the next batch (its session is looked
    // into again first): the last batch's messages keep it from being counted twice.
    let counted = new Set<string>();
    const pacing = { limits: { maxRows }, gate: this.#checkpointer, signal: options.signal };
    const walked = await inPieces(pacing, (rows) => {
      const batch = this.#pick(provider, cutoffMs, after, rows);
      const messages = new Set(this.#remove(batch.rowids));
      for (const m of messages) if (!counted.has(m)) result.messages += 1;
      counted = messages;
      result.parts += batch.rowids.length;
      after = batch.last;
      return !batch.end;
    });
    if (!walked) return result;
    await turn();
    // Then the sessions those parts emptied, paced the same way.
    result.complete = await inPieces(pacing, (rows) => {
      const gone = inTransaction(this.#db, () => {
        const sessions = this.#deleteSessions.all(provider, cutoffMs, cutoffMs, cutoffMs, rows) as Array<{ session_id: string; conversation: number }>;
        this.#deleteStats.run(JSON.stringify(sessions.map((s) => s.session_id)));
        return sessions;
      });
      result.sessions += gone.length;
      result.conversations += gone.filter((s) => s.conversation === 1).length;
      return gone.length > 0;
    });
    return result;
  }
}
