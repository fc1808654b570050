import type { EventPayload } from '../api/index.js';
import { inPieces, turn, type IndexProgress, type PieceGate, type SearchIndex } from '../gateway/index.js';
import { errorCode, type Logger } from '../log/index.js';

/** The most parts one piece indexes; how long a piece takes sizes the next (see PieceSize). */
const MAX_ROWS = 5_000;
/** The most parts one piece of the re-tag walk re-tags (each is taken out of the index and put back). */
const MAX_RETAG_ROWS = 2_000;
/** How often either walk (indexing, re-tagging) reports how far it has come: each piece's figure would be noise. */
const PROGRESS_EVERY_MS = 500;

export interface IndexBackfillOptions {
  index: SearchIndex;
  /**
   * Checkpoints the WAL off the owner's thread while the walk writes (capture's, shared per
   * connection), and keeps each commit of the walk's off a checkpoint's fsync.
   */
  checkpointer?: PieceGate;
  logger: Logger;
  onProgress: (progress: EventPayload<'search.indexing'>) => void;
}

/**
 * Indexes parts stored before the full-text index existed (then re-tags those of sessions that moved
 * project, and every part after an upgrade that reads text anew, see SearchIndex.retagStep), in short
 * pieces between event-loop turns, resuming where the last run stopped (the cursors live in the
 * gateway). Both walks report how far they have come through `onProgress` (with their phase), and
 * searches meanwhile say it; stop() ends it between pieces.
 */
export class IndexBackfill {
  readonly #o: IndexBackfillOptions;
  #abort: AbortController | undefined;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;
  /**
   * The walks' pieces share transactions that commit a few times a second: a commit per piece wrote
   * the WAL twice as much, and waited on the disk gate before each piece.
   */
  readonly #window: ReturnType<SearchIndex['pieceWindow']>;

  constructor(options: IndexBackfillOptions) {
    this.#o = options;
    this.#window = options.index.pieceWindow();
  }

  /**
   * Starts the walk unless it is walking, or a run is still writing parts for it: it indexes what is
   * left to index, then merges the index's segments until there is nothing left to merge.
   */
  start(): void {
    // A tick that ends while the owner stops asks again: a stopped walk stays stopped.
    if (this.#stopped || this.#abort || this.#o.index.progress().deferred) return;
    const abort = new AbortController();
    this.#abort = abort;
    this.#running = this.#run(abort.signal)
      .catch((error: unknown) => this.#o.logger.warn('search index backfill failed', { code: errorCode(error) }))
      .finally(() => {
        if (this.#abort === abort) this.#abort = undefined;
      });
  }

  /** Settles when the walk (indexing, then merging) has run out or stopped: for tests and benchmarks. */
  whenIdle(): Promise<void> {
    return this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort?.abort();
    await this.#running;
    this.#abort = undefined;
  }

  async #run(signal: AbortSignal): Promise<void> {
    // Not within start(): the first piece waits for a turn of the event loop like every other.
    await turn();
    const { index, checkpointer: gate } = this.#o;
    if (!index.progress().complete) await this.#index(signal);
    // Parts of sessions that moved project, too many to re-tag in the move's transaction (or left from before moves re-tagged).
    if (!signal.aborted && index.retagPending()) await this.#retag(signal);
    // What the pieces left to merge (and what live ticks, forgetting and retention added), a piece at a time.
    if (!signal.aborted && !index.progress().deferred) await inPieces({ limits: { maxRows: 1 }, gate, signal, window: this.#window }, () => index.mergePiece());
  }

  async #retag(signal: AbortSignal): Promise<void> {
    const { index, checkpointer: gate } = this.#o;
    // Each piece's merge in a turn of its own: a migration's walk over every part (step 13) re-tags
    // many pieces in a row, and a piece with its merge held the loop up to 100 ms (45 ms for each).
    const started = performance.now();
    const report = this.#reporter();
    await inPieces({ limits: { maxRows: MAX_RETAG_ROWS }, gate, signal, window: this.#window, tidy: () => index.mergePiece() }, (rows) => {
      const more = index.retagStep(rows);
      // Read only when it is told: the figure is the walk's kept state, a few lookups by key.
      report(!more, () => index.retagProgress());
      return more;
    });
    // An upgrade's walk (a new text version: tool names, step 18) may take a while on a large store: its end is worth a line.
    if (!signal.aborted && !index.retagPending()) this.#o.logger.info('search index re-tag complete', { durationMs: Math.round(performance.now() - started) });
  }

  /**
   * Tells the owner a walk's progress after its first piece, then at most every PROGRESS_EVERY_MS, and
   * always at its end: `progress` is read only when it is told. The end is told once the piece's rows
   * are committed (by the walk, or by capture when the piece joined its window): a listener that
   * reads on it, on another connection, sees them all. A transaction lost drops it with them.
   */
  #reporter(): (ended: boolean, progress: () => IndexProgress) => void {
    let reported = -Infinity;
    return (ended, progress) => {
      if (!ended && performance.now() - reported < PROGRESS_EVERY_MS) return;
      reported = performance.now();
      const { phase, indexedParts, totalParts, complete } = progress();
      const tell = () => this.#o.onProgress({ phase, indexedParts, totalParts, complete });
      if (complete) this.#window.afterCommit(tell);
      else tell();
    };
  }

  async #index(signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const report = this.#reporter();
    await inPieces({ limits: { maxRows: MAX_ROWS }, gate: this.#o.checkpointer, signal, window: this.#window }, (rows) => {
      const progress = this.#o.index.backfillStep(rows);
      report(progress.complete, () => progress);
      if (progress.complete) this.#o.logger.info('search index backfill complete', { durationMs: Math.round(performance.now() - started) });
      // Each piece's new segment is merged in step, so levels never fill up to a crisis merge.
      this.#o.index.mergePiece();
      // A run is still writing parts for the walk; it is started again when the run ends.
      return !progress.complete && !progress.deferred;
    });
  }
}
