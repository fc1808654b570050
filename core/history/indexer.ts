import type { EventPayload } from '../api/index.js';
import { inPieces, turn, type PieceGate, type SearchIndex } from '../gateway/index.js';
import { errorCode, type Logger } from '../log/index.js';

/** The most parts one piece indexes; how long a piece takes sizes the next (see PieceSize). */
const MAX_ROWS = 5_000;
const PROGRESS_EVERY_MS = 500;

export interface IndexBackfillOptions {
  index: SearchIndex;
  /**
   * Checkpoints the WAL off the owner's thread while the walk writes (capture's, shared per
   * connection), and keeps each piece's commit off a checkpoint's fsync.
   */
  checkpointer?: PieceGate;
  logger: Logger;
  onProgress: (progress: EventPayload<'search.indexing'>) => void;
}

/**
 * Indexes parts stored before the full-text index existed, in short pieces between event-loop turns,
 * resuming where the last run stopped (the cursor lives in the gateway). Searches meanwhile say how
 * far it has come; stop() ends it between pieces.
 */
export class IndexBackfill {
  readonly #o: IndexBackfillOptions;
  #abort: AbortController | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(options: IndexBackfillOptions) {
    this.#o = options;
  }

  /** Starts the walk when there is something to index and it is not already walking. */
  start(): void {
    const progress = this.#o.index.progress();
    if (this.#abort || progress.complete || progress.deferred) return;
    const abort = new AbortController();
    this.#abort = abort;
    this.#running = this.#run(abort.signal)
      .catch((error: unknown) => this.#o.logger.warn('search index backfill failed', { code: errorCode(error) }))
      .finally(() => {
        if (this.#abort === abort) this.#abort = undefined;
      });
  }

  async stop(): Promise<void> {
    this.#abort?.abort();
    await this.#running;
    this.#abort = undefined;
  }

  async #run(signal: AbortSignal): Promise<void> {
    let reported = 0;
    const started = performance.now();
    // Not within start(): the first piece waits for a turn of the event loop like every other.
    await turn();
    await inPieces({ limits: { maxRows: MAX_ROWS }, gate: this.#o.checkpointer, signal }, (rows) => {
      const progress = this.#o.index.backfillStep(rows);
      if (progress.complete || performance.now() - reported >= PROGRESS_EVERY_MS) {
        reported = performance.now();
        this.#o.onProgress({ indexedParts: progress.indexedParts, totalParts: progress.totalParts, complete: progress.complete });
      }
      if (progress.complete) this.#o.logger.info('search index backfill complete', { durationMs: Math.round(performance.now() - started) });
      // A run is still writing parts for the walk; it is started again when the run ends.
      return !progress.complete && !progress.deferred;
    });
  }
}
