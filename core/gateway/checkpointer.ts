import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { errorCode, type Logger } from '../log/index.js';
import { sqliteOptions, type Db } from '../store/index.js';

/**
 * The worker's whole program. It is evaluated from a string so the same code runs from the built
 * output and from sources under test; it only checkpoints and never writes rows.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
db.pragma('busy_timeout = 1000');
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.postMessage('ready');
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Moves WAL checkpoints (page copies and their fsync) off the owner's thread: while it runs, the
 * connection's automatic checkpoint is off and a worker with its own connection checkpoints
 * passively, so a cold import's commits never stall the event loop on a checkpoint. Any failure of
 * the worker restores SQLite's automatic checkpoint.
 */
export class Checkpointer {
  readonly #db: Db;
  readonly #intervalMs: number;
  #worker: Worker | undefined;
  #exited: Promise<void> = Promise.resolve();
  readonly #logger: Logger | undefined;

  constructor(db: Db, intervalMs = 500, logger?: Logger) {
    this.#db = db;
    this.#intervalMs = intervalMs;
    this.#logger = logger;
  }

  get running(): boolean {
    return this.#worker !== undefined;
  }

  start(): void {
    if (this.#worker || this.#db.memory || !this.#db.open) return;
    let worker: Worker;
    try {
      const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, file: this.#db.name, intervalMs: this.#intervalMs, nativeBinding: sqliteOptions().nativeBinding } });
    } catch (error) {
      this.#logger?.warn('checkpoint worker unavailable; SQLite checkpoints in-thread', { code: errorCode(error) });
      return;
    }
    worker.unref();
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.once('message', () => {
      if (this.#worker === worker && this.#db.open) this.#db.pragma('wal_autocheckpoint = 0');
    });
    const fallBack = (error?: unknown) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#logger?.warn('checkpoint worker stopped; SQLite checkpoints in-thread', { code: error === undefined ? 'exit' : errorCode(error) });
      if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    };
    worker.once('error', fallBack);
    worker.once('exit', () => fallBack());
  }

  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    // Held while it stops: an unref'd worker and timer leave nothing to keep a shutting-down owner's
    // event loop alive, and `steward serve` would then exit 13 with its shutdown unsettled.
    worker.ref();
    worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)));
    await Promise.race([this.#exited, timeout]);
    clearTimeout(timer);
    await worker.terminate();
  }
}
