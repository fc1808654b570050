import type { PartRow } from '../transcripts/index.js';

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
export const SHOWN_TS_SQL = 'CASE WHEN ts_inferred = 1 THEN NULL ELSE ts END';

/** SHOWN_TS_SQL for a query that names parts `p`. */
export const SHOWN_P_TS_SQL = 'CASE WHEN p.ts_inferred = 1 THEN NULL ELSE p.ts END';

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

/** Rows a stored part's neighbour with a time is looked for among by rowid before its conversation's index is asked. */
const NEAR_ROWS = 1_000;

const nearSql = (op: '<' | '>', order: 'DESC' | 'ASC') =>
  `(SELECT q.ts FROM parts q NOT INDEXED WHERE q.rowid ${op} @rowid AND q.rowid ${op === '<' ? '>=' : '<='} @rowid ${op === '<' ? '-' : '+'} ${NEAR_ROWS} AND q.session_id = @sessionId AND q.ts IS NOT NULL ORDER BY q.rowid ${order} LIMIT 1)`;
const farSql = (op: '<' | '>', order: 'DESC' | 'ASC') =>
  `(SELECT q.ts FROM parts q INDEXED BY parts_session_ts WHERE q.session_id = @sessionId AND q.ts IS NOT NULL AND q.rowid ${op} @rowid ${op === '<' ? '-' : '+'} ${NEAR_ROWS} ORDER BY q.rowid ${order} LIMIT 1)`;

/**
 * placeUntimed over rows already stored, for a part `@rowid` of `@sessionId` stored with no time
 * before capture placed such parts (gateway step 30): the time of the last part before it with one,
 * else of the first after it, among its conversation's rows in the order they were stored (rowid: a
 * file is stored in its order, a batch at a time), or null when its conversation holds no time. A
 * part placed already counts as one with a time: its place is the time the rule carried to it.
 * The neighbour is looked for among the NEAR_ROWS rows stored beside it first (a rowid range: a
 * batch's rows are stored together), then in its conversation's entries of parts_session_ts: a part
 * stored far from its neighbours (a file read again days later) costs its conversation's size, never
 * the store's. What a read from the file's start cannot know is the file: a conversation's lines that
 * came from another file (a copy) are its neighbours too.
 */
export const STORED_PLACE_SQL = `SELECT COALESCE(${nearSql('<', 'DESC')}, ${farSql('<', 'DESC')}, ${nearSql('>', 'ASC')}, ${farSql('>', 'ASC')})`;
