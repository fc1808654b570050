import type { Statement } from 'better-sqlite3';
import { afterCommit, beginShared, commitShared, rollbackShared, type Db } from '../store/index.js';
import type { DiskGate } from './checkpointer.js';

/**
 * How long one piece of long work may hold the event loop, and how much a piece may grow over the
 * last: one rule for every such walk (index, prune, forget).
 */
const TARGET_MS = 15;
const GROWTH = 1.15;

export interface PieceLimits {
  maxRows: number;
  /** Never smaller than this (nor than `maxRows`); 50 unless given. */
  minRows?: number;
  /** The first piece's size, before any was timed; 200 unless given. */
  startRows?: number;
  targetMs?: number;
  growth?: number;
}

/**
 * The size of the next piece of long synchronous work (rows indexed, rows deleted), following what
 * the last piece took. A row's cost varies several-fold from piece to piece (FTS5 merges its
 * segments, a delete lands on cold index pages), so a piece grows slowly and shrinks at once: grown
 * straight to the target, one piece in ten took twice as long.
 */
export class PieceSize {
  readonly #limits: Required<PieceLimits>;
  #rows: number;

  constructor(limits: PieceLimits) {
    const { maxRows, startRows = 200, targetMs = TARGET_MS, growth = GROWTH } = limits;
    this.#limits = { maxRows, minRows: Math.min(limits.minRows ?? 50, maxRows), startRows, targetMs, growth };
    this.#rows = Math.min(maxRows, Math.max(this.#limits.minRows, startRows));
  }

  get rows(): number {
    return this.#rows;
  }

  /** Sizes the next piece from how long this one took. */
  took(ms: number): void {
    const { targetMs, minRows, maxRows, growth } = this.#limits;
    const fitting = (this.#rows * targetMs) / Math.max(ms, 1);
    this.#rows = Math.round(Math.min(maxRows, this.#rows * growth, Math.max(minRows, fitting)));
  }
}

/**
 * The disk gate of the connection's WAL checkpoint thread (Checkpointer), and starting that thread;
 * `settle` (when given) waits until the thread has copied the whole WAL into the database, and
 * `wantsQuiet` says an owner needs a moment with no transaction open (to empty the WAL).
 */
export type PieceGate = DiskGate & { start(): void; settle?: () => Promise<boolean>; wantsQuiet?: () => boolean };

export interface Pacing {
  limits: PieceLimits;
  /** Keeps each piece's commit off a checkpoint's fsync, and the WAL checkpointed off this thread. */
  gate?: PieceGate | undefined;
  /** Aborting stops the work between pieces. */
  signal?: AbortSignal | undefined;
  /**
   * A short step after each piece, in a turn of its own and inside the gate (merging what the piece
   * wrote into the index): together, the two held the event loop twice as long as either.
   */
  tidy?: (() => void) | undefined;
  /** Pieces share transactions of this window's (see PieceWindow) instead of each committing its own. */
  window?: PieceWindow | undefined;
}

/** How soon a piece that found a WAL checkpoint writing the disk tries again. */
const CHECKPOINT_WAIT_MS = 5;

/** One turn of the event loop: what long work gives between its pieces. */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What `pacer` returns: a turn when one is due (or asked `now`), else undefined. */
export type Pace = (now?: boolean) => Promise<void> | undefined;

/**
 * For long work that cannot be cut into pieces of a size: call the returned function between its
 * steps, and it gives the event loop a turn once the work has held it for `holdMs` since the last
 * one (or at once, when asked `now`). It answers undefined when no turn is due, so that a loop over
 * 20,000 files awaits (and allocates) only where it yields: `const due = pace(); if (due) await due;`.
 */
export function pacer(holdMs: number): Pace {
  let heldSince = performance.now();
  return (now = false) => {
    if (!now && performance.now() - heldSince < holdMs) return undefined;
    return turn().then(() => {
      heldSince = performance.now();
    });
  };
}

/**
 * How long a window's commit may take: the window's length follows what its last commit took. A
 * window of 1 s of indexing (about 650-row pieces) committed in 72–78 ms.
 */
const COMMIT_TARGET_MS = 25;
/**
 * A window's length in ms, from its first piece to its commit (see COMMIT_TARGET_MS). At most 500:
 * windows of up to 1 s on a 340k-part store committed in 11–15 ms (median) but up to 53–61 ms.
 */
const WINDOW_MS = { maxRows: 500, minRows: 50, startRows: 250, targetMs: COMMIT_TARGET_MS };
/** A window waiting for a checkpoint to leave the disk keeps taking pieces until it is this many times its length. */
const WAIT_LIMIT = 2;
/**
 * Commits between two waits for a whole checkpoint (see Checkpointer.settle): only a transaction
 * that begins with the WAL wholly copied starts the file over, and one window begins right after the
 * last one's commit, so without the wait the WAL grew by all the walk wrote (170–250 MB on a
 * 131k-part store).
 */
const SETTLE_EVERY = 4;

/**
 * Lets the pieces of long work share a transaction that commits every few hundred ms, each piece
 * still in a turn of its own. A commit writes every page the transaction dirtied, and the index
 * walk's pieces each rewrite the same pages (the map's and the index's newest leaves, the session
 * counts, the walk's cursor): a commit per piece wrote the WAL 600+ MB for a 131k-part walk, and each
 * waited on the disk gate. Only the commit asks the gate; pieces write the page cache.
 *
 * The transaction is the work's own: a piece that finds another writer's transaction open (capture's
 * commit window) joins it, and that writer commits it. Another writer that joins ours between two
 * pieces (a window opens only when none is) gets its writes committed before our next piece. Work
 * either writer queues to wait for durability runs at the commit of the transaction, whoever's it is,
 * and is dropped when it is rolled back or lost (see the store's shared-transaction.ts). A
 * marker row in a TEMP table says the open transaction is still ours: SQLite may roll a transaction
 * back on its own (an I/O error, a full disk), and another writer may begin one before our next
 * piece, which must never commit it. The work's state (a walk's cursor) is written in its pieces, so
 * it is committed with the rows it covers, and a crash loses at most the open window.
 */
export class PieceWindow {
  readonly #db: Db;
  readonly #length = new PieceSize(WINDOW_MS);
  #owned = false;
  #openedAt = 0;
  /** The connection's total_changes() after our last piece: any more when we come back, another writer joined. */
  #changesAfter = 0;
  #token = 0;
  #commits = 0;
  readonly #changes;
  #marker: Statement | undefined;

  constructor(db: Db) {
    this.#db = db;
    this.#changes = db.prepare('SELECT total_changes()').pluck();
  }

  /** Whether a window of ours is open (and still ours). */
  get open(): boolean {
    if (this.#owned && !this.#stillOurs()) this.#owned = false;
    return this.#owned;
  }

  /**
   * Whether the open window should commit before the next piece: `times` its length old, or joined by
   * another writer (whatever `times`: that writer's rows wait on our commit).
   */
  due(times = 1): boolean {
    if (!this.open) return false;
    return this.joined() || performance.now() - this.#openedAt >= times * this.#length.rows;
  }

  /** Whether another writer wrote into our open window since our last step. */
  joined(): boolean {
    return this.open && this.#changes.get() !== this.#changesAfter;
  }

  /** Before a piece: opens a window unless a transaction is open (ours, or another writer's the piece joins). */
  enter(): void {
    if (this.open || this.#db.inTransaction) return;
    beginShared(this.#db);
    this.#token += 1;
    this.#db.exec(`CREATE TEMP TABLE IF NOT EXISTS steward_piece_window (token INTEGER); INSERT INTO temp.steward_piece_window VALUES (${this.#token})`);
    this.#owned = true;
    this.#openedAt = performance.now();
  }

  /** After a piece that returned. */
  leave(): void {
    if (this.#owned) this.#changesAfter = this.#changes.get() as number;
  }

  /**
   * After a piece that threw: its writes are in our window alone (a joined window was committed
   * before it), so rolling the window back loses only our own pieces since the last commit.
   */
  fail(): void {
    if (!this.open) return;
    this.#owned = false;
    rollbackShared(this.#db);
  }

  /** Commits our open window (the caller holds the disk gate); true when it wrote one. */
  commit(): boolean {
    if (!this.open) return false;
    const began = performance.now();
    this.#owned = false;
    try {
      this.#db.exec('DELETE FROM temp.steward_piece_window');
    } catch (error) {
      rollbackShared(this.#db);
      throw error;
    }
    // Runs what waited on this transaction, capture's too (see shared-transaction.ts).
    commitShared(this.#db);
    this.#length.took(performance.now() - began);
    this.#commits += 1;
    return true;
  }

  /**
   * Runs `fn` once what the pieces wrote so far is committed, by us or by the writer whose
   * transaction they joined; dropped if that transaction is lost.
   */
  afterCommit(fn: () => void): void {
    afterCommit(this.#db, fn);
  }

  /** Whether the commit just made is one after which to wait for a whole checkpoint (SETTLE_EVERY). */
  get settleDue(): boolean {
    return this.#commits % SETTLE_EVERY === 0;
  }

  #stillOurs(): boolean {
    if (!this.#db.inTransaction) return false;
    try {
      this.#marker ??= this.#db.prepare('SELECT token FROM temp.steward_piece_window').pluck();
      return this.#marker.get() === this.#token;
    } catch {
      // The marker's table went with a rolled-back window that created it.
      this.#marker = undefined;
      return false;
    }
  }
}

/**
 * Runs long synchronous work as pieces sized by PieceSize, each inside the disk gate (with a window,
 * only each window's commit), with a turn of the event loop after each. `piece(rows)` does one piece of about that many rows and says whether
 * more is left. The first piece runs before the first turn. True when the work ran out, false when
 * the signal stopped it.
 */
export async function inPieces(pacing: Pacing, piece: (rows: number) => boolean): Promise<boolean> {
  if (pacing.window) return inWindows(pacing, pacing.window, piece);
  const size = new PieceSize(pacing.limits);
  const { gate, signal } = pacing;
  gate?.start();
  for (;;) {
    if (signal?.aborted) return false;
    if (gate && !gate.enter()) {
      await wait(CHECKPOINT_WAIT_MS);
      continue;
    }
    const begun = performance.now();
    let more: boolean;
    try {
      more = piece(size.rows);
    } finally {
      gate?.leave();
    }
    size.took(performance.now() - begun);
    if (pacing.tidy) await tidyUp(pacing.tidy, gate);
    if (!more) return true;
    await turn();
  }
}

/**
 * inPieces with pieces sharing the window's transactions: a window commits at the start of a turn of
 * its own once it is due, when the gate lets it (it keeps taking pieces meanwhile, up to WAIT_LIMIT
 * times its length), and when the work ends or stops.
 */
async function inWindows(pacing: Pacing, window: PieceWindow, piece: (rows: number) => boolean): Promise<boolean> {
  const size = new PieceSize(pacing.limits);
  const { gate, signal } = pacing;
  gate?.start();
  try {
    for (;;) {
      if (signal?.aborted) return false;
      if (gate?.wantsQuiet?.()) {
        // Someone empties the WAL: it needs a moment with no transaction open, so ours commits and waits.
        if (window.open) await commitWhenLet(window, gate, true);
        else await wait(CHECKPOINT_WAIT_MS);
        continue;
      }
      if (window.due() && (await commitWhenLet(window, gate, window.due(WAIT_LIMIT)))) continue;
      const begun = performance.now();
      const more = inWindow(window, () => piece(size.rows));
      size.took(performance.now() - begun);
      if (pacing.tidy) {
        await turn();
        // A step that fails rolls our window back: another writer's rows in it are committed first.
        if (window.joined()) await commitWhenLet(window, gate, true);
        inWindow(window, pacing.tidy);
      }
      if (!more) return true;
      await turn();
    }
  } finally {
    // Ended, stopped or failed: what the window holds of finished pieces is committed, in a turn of its own.
    if (window.open) {
      await turn();
      await commitWhenLet(window, gate, true);
    }
  }
}

/** Runs one step inside the window (ours, or another writer's it joins). */
function inWindow<T>(window: PieceWindow, step: () => T): T {
  window.enter();
  let result: T;
  try {
    result = step();
  } catch (error) {
    window.fail();
    throw error;
  }
  window.leave();
  return result;
}

/**
 * Commits the window when the gate lets it, then gives a turn (and, every few commits, waits for a
 * whole checkpoint). `waitForGate`: wait for the gate rather than leave the window open. True when it committed.
 */
async function commitWhenLet(window: PieceWindow, gate: PieceGate | undefined, waitForGate: boolean): Promise<boolean> {
  for (;;) {
    if (!gate || gate.enter()) break;
    if (!waitForGate) return false;
    await wait(CHECKPOINT_WAIT_MS);
  }
  let committed: boolean;
  try {
    committed = window.commit();
  } finally {
    gate?.leave();
  }
  if (committed && gate?.settle && window.settleDue) await gate.settle();
  await turn();
  return true;
}

/** Runs `tidy` after a turn, once the gate lets it. */
async function tidyUp(tidy: () => void, gate: PieceGate | undefined): Promise<void> {
  await turn();
  while (gate && !gate.enter()) await wait(CHECKPOINT_WAIT_MS);
  try {
    tidy();
  } finally {
    gate?.leave();
  }
}
