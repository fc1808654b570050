import type { Db } from '../store/index.js';
import { FIRST_LINE_MS, isLineTime, LAST_LINE_MS, type PartRow } from '../transcripts/index.js';

/**
 * A part whose line has no time (some Claude Code lines carry no `timestamp`) is stored with an
 * ordering time in `ts`, taken from its file, and `ts_inferred = 1`: a conversation reads in
 * (ts, rowid) order on parts(session_id, ts), so a part with no time would open it, end a newest-first
 * search and could be taken for its first request. Placing it when it is written keeps every read a
 * seek (placing it at read time walked back up to 512 rows per such part, on every page) and keeps
 * its place when rows stored around it are forgotten.
 *
 * The place is a time no one wrote: a part's time as shown is SHOWN_TS_SQL (null for a placed part,
 * as for a part stored with no time), never `ts` itself.
 */
export const SHOWN_TS_SQL = shownTsSql('');

/** SHOWN_TS_SQL for a query that names parts `p`. */
export const SHOWN_P_TS_SQL = shownTsSql('p.');

/**
 * A stored time (a part's `ts`, a session's first or last) as read: null unless it is one a line can
 * hold (isLineTime). Capture stores no other since; a store an older build wrote may hold 1e300 (a REAL
 * in an INTEGER column) or 9e15 (past what a Date holds), and one such row must not break a list, a
 * duration or a date for everyone before gateway step 34 clears it.
 */
export function lineTimeSql(column: string): string {
  return `CASE WHEN ${column} BETWEEN ${FIRST_LINE_MS} AND ${LAST_LINE_MS} THEN ${column} END`;
}

/** lineTimeSql for a time read into JavaScript. */
export function lineTimeOf(ms: number | null): number | null {
  return ms !== null && isLineTime(ms) ? ms : null;
}

function shownTsSql(p: string): string {
  return `CASE WHEN ${p}ts_inferred = 1 THEN NULL WHEN ${p}ts BETWEEN ${FIRST_LINE_MS} AND ${LAST_LINE_MS} THEN ${p}ts END`;
}

export interface Placed {
  /** The ordering time of each part of the batch that has no time and could be placed, by part id. */
  places: Map<string, number>;
  /** The time of the batch's last timed line, else what came in: the next batch of the file starts from it. */
  last: number | null;
}

/**
 * The places of a batch's parts without a time, its parts in file order: the time of the last timed
 * line before it in the file (`before`: the file's earlier batches in this read), else of the first
 * timed line after it in the batch. A part of a batch with no timed line and nothing before it in the
 * read is left unplaced (the caller may know the conversation's newest time: a resumed read).
 */
export function placeUntimed(parts: readonly PartRow[], before: number | null): Placed {
  const places = new Map<string, number>();
  let last = before;
  const waiting: string[] = [];
  for (const part of parts) {
    if (part.ts === null) {
      if (last !== null) places.set(part.partId, last);
      else waiting.push(part.partId);
      continue;
    }
    last = part.ts;
    // The first timed line after the batch's leading untimed ones places them.
    for (const id of waiting.splice(0)) places.set(id, part.ts);
  }
  return { places, last };
}

/**
 * Rows one step of looking for a stored part's neighbour reads (StoredPlaces): rowids of the store
 * beside the part, or entries of its conversation in parts_session_ts. A step costs about as much
 * whatever the conversation's size (under 1 ms measured), so a placing piece can stop between two.
 */
const STEP_ROWS = 1_000;

/** The nearest part of `@sessionId` with a time among the STEP_ROWS rowids beyond `@edge`, before it or after it. */
const besideSql = (after: boolean) =>
  after
    ? `SELECT q.ts FROM parts q NOT INDEXED WHERE q.rowid > @edge AND q.rowid <= @edge + ${STEP_ROWS} AND q.session_id = @sessionId AND q.ts IS NOT NULL ORDER BY q.rowid ASC LIMIT 1`
    : `SELECT q.ts FROM parts q NOT INDEXED WHERE q.rowid < @edge AND q.rowid >= @edge - ${STEP_ROWS} AND q.session_id = @sessionId AND q.ts IS NOT NULL ORDER BY q.rowid DESC LIMIT 1`;
/**
 * A conversation's entries with a time in parts_session_ts after (`@fromTs`, `@fromRowid`), in the
 * index's order, by seeks and no sort: those of the same time, then those of a later one. As one row
 * value, `(ts, rowid) > (@fromTs, @fromRowid)` seeks to the time alone and reads all of that time again
 * on every step (parts placed together share a time: 3 s in all for 150k of them).
 */
const SAME_TS_SQL = `SELECT q.ts, q.rowid FROM parts q INDEXED BY parts_session_ts WHERE q.session_id = @sessionId AND q.ts = @fromTs AND q.rowid > @fromRowid ORDER BY q.rowid LIMIT ${STEP_ROWS}`;
const LATER_TS_SQL = `SELECT q.ts, q.rowid FROM parts q INDEXED BY parts_session_ts WHERE q.session_id = @sessionId AND q.ts > @fromTs ORDER BY q.ts, q.rowid LIMIT @limit`;
/** Below every time a part can hold (a JavaScript date's range is ±8.64e15 ms). */
const BEFORE_ALL: [number, number] = [Number.MIN_SAFE_INTEGER, 0];

/** A look for one stored part's neighbour with a time, one way, as far as its steps have come. */
interface Look {
  sessionId: string;
  rowid: number;
  /** Whether it looks for the first part after it (else the last before it). */
  after: boolean;
  /** Rowids between the part and this one are looked through. */
  edge: number;
  /** The conversation's entries up to this (ts, rowid) are read. */
  entry: [number, number];
  /** The nearest part with a time (by rowid) among the entries read. */
  nearest: { rowid: number; ts: number } | null;
  /** Which side the next step reads: the rowids beside the part, or the conversation's entries. */
  entriesNext: boolean;
}

const look = (sessionId: string, rowid: number, after: boolean): Look => ({ sessionId, rowid, after, edge: rowid, entry: BEFORE_ALL, nearest: null, entriesNext: false });

/**
 * placeUntimed over rows already stored, for a part `rowid` of `sessionId` stored with no time before
 * capture placed such parts (gateway step 30): the time of the last part before it with one, else of
 * the first after it, among its conversation's rows in the order they were stored (rowid: a file is
 * stored in its order, a batch at a time), or null when its conversation holds no time. A part placed
 * already counts as one with a time: its place is the time the rule carried to it. What a read from
 * the file's start cannot know is the file: a conversation's lines that came from another file (a
 * copy) are its neighbours too.
 *
 * No index orders a conversation's parts by rowid, and the one statement that found the neighbour
 * sorted the conversation's entries (15–20 ms of CPU for a 150k-part conversation, 40–80 ms on a busy
 * machine: past a piece's time, and a piece cannot stop inside a statement). So the neighbour is looked for a step at a time, from two
 * sides in turn, and the look ends at whichever ends first: the store's rowids going away from the
 * part (STEP_ROWS at a time; the first is the rows stored with it, where a batch's neighbour is), which
 * ends at the neighbour, however far; and the conversation's entries with a time in parts_session_ts
 * (STEP_ROWS at a time, by seek), which ends once all are read. A part stored far from its neighbours
 * (a file read again days later) costs about twice the fewer of the two (both long: 150k entries and
 * 300k rowids away, 60 ms of CPU in 300 steps, where the sort took 20 ms in one), and every step's
 * cost is bounded. A look stopped in is kept in memory only: after a restart it starts over.
 */
export class StoredPlaces {
  readonly #beside;
  readonly #entries;
  readonly #span;
  /** The look a piece stopped inside, resumed when the next asks for the same part. */
  #kept: Look | null = null;

  constructor(db: Db) {
    this.#beside = { before: db.prepare(besideSql(false)).pluck(), after: db.prepare(besideSql(true)).pluck() };
    this.#entries = { sameTs: db.prepare(SAME_TS_SQL).raw(), laterTs: db.prepare(LATER_TS_SQL).raw() };
    this.#span = db.prepare('SELECT IFNULL((SELECT MIN(rowid) FROM parts), 0), IFNULL((SELECT MAX(rowid) FROM parts), 0)').raw();
  }

  /**
   * The place of part `rowid` of `sessionId`, looked for a step at a time until found or `held()`:
   * undefined when held first (ask again for the same part: the look resumes where it stopped).
   */
  placeOf(sessionId: string, rowid: number, held: () => boolean): number | null | undefined {
    const kept = this.#kept;
    let current = kept !== null && kept.sessionId === sessionId && kept.rowid === rowid ? kept : look(sessionId, rowid, false);
    this.#kept = null;
    for (;;) {
      const found = this.#step(current);
      if (found === null && !current.after) current = look(sessionId, rowid, true);
      else if (found !== undefined) return found;
      if (held()) {
        this.#kept = current;
        return undefined;
      }
    }
  }

  /** One step of a look: the neighbour's time, null when there is none that way, undefined when not known yet. */
  #step(current: Look): number | null | undefined {
    const entries = current.entriesNext;
    current.entriesNext = !entries;
    return entries ? this.#entriesStep(current) : this.#besideStep(current);
  }

  #besideStep(current: Look): number | null | undefined {
    const ts = (current.after ? this.#beside.after : this.#beside.before).get({ sessionId: current.sessionId, edge: current.edge }) as number | undefined;
    if (ts !== undefined) return ts;
    current.edge += current.after ? STEP_ROWS : -STEP_ROWS;
    const [first, last] = this.#span.get() as [number, number];
    return (current.after ? current.edge >= last : current.edge <= first) ? null : undefined;
  }

  #entriesStep(current: Look): number | null | undefined {
    const from = { sessionId: current.sessionId, fromTs: current.entry[0], fromRowid: current.entry[1] };
    const rows = this.#entries.sameTs.all(from) as Array<[number, number]>;
    if (rows.length < STEP_ROWS) rows.push(...(this.#entries.laterTs.all({ ...from, limit: STEP_ROWS - rows.length }) as Array<[number, number]>));
    for (const [ts, rowid] of rows) {
      const nearer = current.after ? rowid > current.rowid && rowid < (current.nearest?.rowid ?? Infinity) : rowid < current.rowid && rowid > (current.nearest?.rowid ?? -Infinity);
      if (nearer) current.nearest = { rowid, ts };
    }
    if (rows.length < STEP_ROWS) return current.nearest?.ts ?? null;
    current.entry = rows[rows.length - 1]!;
    return undefined;
  }
}
