import { afterCommit, beginShared, commitShared, rollbackShared, type Db } from '../store/index.js';
import type { DiskGate } from './checkpointer.js';

export interface CommitWindowLimits {
  /** Rows (parts and sessions) a window holds before it commits. */
  maxRows: number;
  /** Bytes of part text a window holds before it commits; bounds the commit's own write. */
  maxBytes: number;
  /** Age at which a window commits even when it is small, so other connections see progress. */
  maxAgeMs: number;
}

const DEFAULT_LIMITS: CommitWindowLimits = { maxRows: 5_000, maxBytes: 12 * 1024 * 1024, maxAgeMs: 1_000 };
/** What the part_id index takes per stored part (measured: 54 MB at 1.03M parts on 16 KiB pages). */
const PART_ID_INDEX_BYTES_PER_PART = 52;
/** A window's text is at least this share of the index it rewrites… */
const TEXT_PER_INDEX_BYTE = 0.75;
/** …and its rows at least this share of the parts stored. */
const ROWS_PER_STORED_PART = 0.1;
/** A window waiting for a checkpoint to finish commits anyway once it is this many times over a limit. */
const WAIT_LIMIT = 2;
/**
 * Commits between two waits for a whole checkpoint (see `settle`), so the WAL file holds about this
 * many windows at most. Measured on the capture bench's 1 GB corpus (340,187 parts), runs alternated:
 * - never waiting: 7.6–8.5 s, the WAL file at 1.26–1.27 GB, the event loop's p99 61–94 ms;
 * - every 4th commit: 9.2–11.1 s, the WAL at 149–155 MB, p99 31–34 ms;
 * - every 8th: 8.9–9.0 s, the WAL at 271 MB, p99 40–42 ms;
 * - every 16th: 8.1–9.8 s, the WAL at 535–555 MB, p99 35–41 ms.
 * On the search bench's corpus (1.09M small parts), every 8th: 17.9 s against 19.4 s never waiting,
 * the WAL at 639 MB against 1.56 GB.
 */
const SETTLE_EVERY = 8;

export interface CommitWindowHooks {
  /** Runs as each window opens: work only writes need (the WAL checkpoint thread) starts there. */
  onOpen?: () => void;
  /** Asked before a commit that may wait: a checkpoint holding the disk makes it wait. */
  gate?: DiskGate;
  /** Copies the whole WAL into the database (the checkpoint thread's `settle`). */
  settle?: () => Promise<unknown>;
}

/**
 * Groups a run's many small writes (each batch's spool append and its sink step) into few commits.
 * A commit writes every page it dirtied, and part ids are random UUIDs: committing every batch
 * rewrote most leaf pages of the part_id index each time. The materializer and the sink join an open
 * window rather than nest a savepoint (whose sub-journal would copy every page it touches), and a
 * spool page filled and emptied within one window never reaches the WAL.
 *
 * A window is never rolled back on purpose: a failed statement rolls back only itself, and the steps
 * that join a window are idempotent. A crash loses only the open window, together with the file
 * checkpoints written in it, so the restart reads those files again from their previous checkpoint.
 * Work that must wait for durability, such as advancing a file's process-local fingerprint, is queued
 * with `afterCommit` on the connection (see shared-transaction.ts): the rows may be in another
 * writer's transaction (the index walk's), which commits or loses them.
 */
export class CommitWindow {
  readonly #db: Db;
  readonly #limits: CommitWindowLimits;
  /** This window's limits: the configured ones, grown with the store (see `#grown`). */
  #now: CommitWindowLimits;
  readonly #storedParts;
  #open = false;
  #openedAt = 0;
  #rows = 0;
  #bytes = 0;
  readonly #hooks: CommitWindowHooks;
  /** Commits since the last `settle` waited. */
  #unsettled = 0;

  constructor(db: Db, limits: Partial<CommitWindowLimits> = {}, hooks: CommitWindowHooks = {}) {
    this.#db = db;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#now = this.#limits;
    this.#hooks = hooks;
    // Rowids are handed out in order, so the largest is the number of parts ever stored: close enough.
    this.#storedParts = db.prepare('SELECT IFNULL(MAX(rowid), 0) FROM parts').pluck();
  }

  /**
   * A commit rewrites nearly every leaf page of the part_id index, whose random UUIDs land all over
   * it: 54 MB per commit at a million parts. A window of fixed size pays that ever more often per row
   * as the store grows (a 1M-part import wrote 7.1 GB; with grown windows 3.3 GB, 1.4× faster or
   * more, and its event-loop p99 fell from 157–213 ms to 49–56 ms). So a window holds text worth
   * most of that rewrite, and rows in proportion; on a small store the configured limits stand.
   */
  #grown(): CommitWindowLimits {
    const stored = this.#storedParts.get() as number;
    const base = this.#limits;
    return {
      maxRows: Math.max(base.maxRows, Math.floor(stored * ROWS_PER_STORED_PART)),
      maxBytes: Math.max(base.maxBytes, Math.floor(stored * PART_ID_INDEX_BYTES_PER_PART * TEXT_PER_INDEX_BYTE)),
      maxAgeMs: base.maxAgeMs,
    };
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Opens a window unless one is open; opened lazily, so a run that writes nothing never writes. */
  open(): void {
    // A window SQLite rolled back (see commit) is lost; writes after it must not run in autocommit.
    if (this.#open && this.#db.open && !this.#db.inTransaction) this.#lose();
    if (this.#open) return;
    // Another transaction on this connection (a synchronous caller up the stack) is left alone.
    if (this.#db.inTransaction) return;
    this.#hooks.onOpen?.();
    beginShared(this.#db);
    this.#open = true;
    this.#openedAt = performance.now();
    this.#rows = 0;
    this.#bytes = 0;
    this.#now = this.#grown();
  }

  /**
   * Counts what was just written in the window; true when it is full or old and should commit. The
   * caller commits at the start of a fresh event-loop turn, so the commit's write is never stacked
   * on top of the work before it.
   */
  add(rows: number, bytes: number): boolean {
    if (!this.#open) return false;
    this.#rows += rows;
    this.#bytes += bytes;
    return this.#over(1);
  }

  /** Whether the open window has reached `times` any of its limits. */
  #over(times: number): boolean {
    const { maxRows, maxBytes, maxAgeMs } = this.#now;
    return this.#rows >= times * maxRows || this.#bytes >= times * maxBytes || performance.now() - this.#openedAt >= times * maxAgeMs;
  }

  /**
   * Runs `fn` once everything written so far is committed, by whichever writer holds the open
   * transaction (ours, or the index walk's that our writes joined); dropped if it is lost.
   */
  afterCommit(fn: () => void): void {
    afterCommit(this.#db, fn);
  }

  /**
   * Commits a full window unless a WAL checkpoint is writing the disk: then the window keeps
   * filling (its rows are in the page cache) and a later call commits it, or this one once the
   * window is WAIT_LIMIT times over a limit. True when nothing is left open.
   */
  commitWhenQuiet(): boolean {
    if (!this.#open) return true;
    return this.#commitThrough(this.#over(WAIT_LIMIT));
  }

  /**
   * Between windows, every SETTLE_EVERY commits: waits until the whole WAL is copied into the
   * database, so the next window starts the WAL file over (see Checkpointer.settle). Without it an
   * import's WAL grew by all it wrote, and commits slowed as it grew. The wait is a checkpoint's
   * time, and it leaves the event loop free. A call with a window open, or before its turn, returns
   * at once.
   */
  async settle(): Promise<void> {
    if (this.#open || !this.#hooks.settle || this.#unsettled < SETTLE_EVERY) return;
    this.#unsettled = 0;
    await this.#hooks.settle();
  }

  /** Commits the open window now, then runs what waited on it. A lost window drops those callbacks. */
  commit(): void {
    this.#commitThrough(true);
  }

  #commitThrough(force: boolean): boolean {
    if (!this.#open) return true;
    const gate = this.#hooks.gate;
    if (gate && !gate.enter(force)) return false;
    try {
      this.#commit();
    } finally {
      gate?.leave();
    }
    return true;
  }

  #commit(): void {
    if (!this.#open) return;
    // Only SQLite itself ends our transaction early (an I/O error or a full disk rolls it back).
    if (!this.#db.open || !this.#db.inTransaction) {
      this.#lose();
      return;
    }
    this.#open = false;
    commitShared(this.#db);
    this.#unsettled += 1;
  }

  #lose(): void {
    this.#open = false;
    rollbackShared(this.#db);
  }
}
