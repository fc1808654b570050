import type { Db } from '../store/index.js';
import { inPieces } from './pace.js';

/** When the imported messages of one provider were written: its sessions' earliest first line and latest last line. */
export interface StoredSpan {
  oldestAt: number;
  newestAt: number;
}

interface PieceRow {
  provider: string;
  oldest: number | null;
  newest: number | null;
  rows: number;
  last: number;
}

/** Sessions a piece reads at most (PieceSize aims at 15 ms): 2,000 rows took about 2 ms, 5,000 about 5 ms. */
const MAX_PIECE_ROWS = 10_000;

/**
 * The stored messages' dates per provider, for the survey: a copied history's files are dated the day
 * they were copied, its messages when they were written. A walk of the sessions table in rowid order
 * (a row per conversation or subagent; never the parts), in pieces with a turn of the event loop
 * between them: 100,000 sessions read at once held it 100–250 ms. A session the clean-up
 * shortened keeps its first line's time: it says when the conversation began.
 */
export class StoredSpans {
  readonly #piece;

  constructor(db: Db) {
    this.#piece = db.prepare(
      `WITH piece AS (SELECT rowid AS id, provider, first_ts, last_ts FROM sessions WHERE rowid > ? ORDER BY rowid LIMIT ?)
       SELECT provider, MIN(first_ts) AS oldest, MAX(last_ts) AS newest, COUNT(*) AS rows, MAX(id) AS last FROM piece GROUP BY provider`,
    );
  }

  async byProvider(): Promise<Map<string, StoredSpan>> {
    const spans = new Map<string, StoredSpan>();
    let after = 0;
    await inPieces({ limits: { maxRows: MAX_PIECE_ROWS, minRows: 500, startRows: 2_000 } }, (size) => {
      const rows = this.#piece.all(after, size) as PieceRow[];
      for (const r of rows) {
        after = Math.max(after, r.last);
        if (r.oldest === null || r.newest === null) continue;
        const held = spans.get(r.provider);
        spans.set(r.provider, held ? { oldestAt: Math.min(held.oldestAt, r.oldest), newestAt: Math.max(held.newestAt, r.newest) } : { oldestAt: r.oldest, newestAt: r.newest });
      }
      return rows.reduce((n, r) => n + r.rows, 0) === size;
    });
    return spans;
  }
}
