import type { EventPayload } from '../api/index.js';
import type { SearchIndex } from '../gateway/index.js';
import { errorCode, type Logger } from '../log/index.js';

/** How long one piece may hold the event loop; the piece size follows what the last one took. */
const TARGET_MS = 20;
const MIN_ROWS = 50;
const MAX_ROWS = 5_000;
const PROGRESS_EVERY_MS = 500;

export interface IndexBackfillOptions {
  index: SearchIndex;
  logger: Logger;
  onProgress: (progress: EventPayload<'search.indexing'>) => void;
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
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
    let rows = MIN_ROWS * 4;
    let reported = 0;
    const started = performance.now();
    for (;;) {
      await turn();
      if (signal.aborted) return;
      const begun = performance.now();
      const progress = this.#o.index.backfillStep(rows);
      const took = performance.now() - begun;
      rows = Math.round(Math.min(MAX_ROWS, Math.max(MIN_ROWS, (rows * TARGET_MS) / Math.max(took, 1))));
      if (progress.complete || performance.now() - reported >= PROGRESS_EVERY_MS) {
        reported = performance.now();
        this.#o.onProgress({ indexedParts: progress.indexedParts, totalParts: progress.totalParts, complete: progress.complete });
      }
      if (progress.complete) {
        this.#o.logger.info('search index backfill complete', { durationMs: Math.round(performance.now() - started) });
        return;
      }
      // A run is still writing parts for the walk; it is started again when the run ends.
      if (progress.deferred) return;
    }
  }
}
