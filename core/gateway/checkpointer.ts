import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { errorCode, type Logger } from '../log/index.js';
import { sqliteOptions, type Db } from '../store/index.js';

/** Who may touch the disk now: a commit asks before it writes the WAL and says when it is done. */
export interface DiskGate {
  /** True when the commit may go ahead (always, with `force`). */
  enter(force?: boolean): boolean;
  leave(): void;
}

/** The disk gate's states: the owner's commit and the worker's checkpoint never overlap. */
const FREE = 0;
const COMMITTING = 1;
const CHECKPOINTING = 2;
/** The gate's second slot counts the commits that went through it: the worker's sign of quiet. */
const COMMITS = 1;

/**
 * The worker's whole program. It is evaluated from a string so the same code runs from the built
 * output and from sources under test; it only checkpoints and never writes rows.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
db.pragma('busy_timeout = 1000');
const gate = new Int32Array(workerData.gate);
let seen = Atomics.load(gate, ${COMMITS});
let truncatedAt = -1;
/** Empties the WAL file; needs the write lock, so it gives up at once when a writer holds it. True when emptied. */
const truncate = (commits) => {
  db.pragma('busy_timeout = 0');
  try {
    if (db.pragma('wal_checkpoint(TRUNCATE)')[0].busy !== 0) return false;
    truncatedAt = commits;
    return true;
  } finally { db.pragma('busy_timeout = 1000'); }
};
/** Runs \`work\` holding the disk, unless the owner is committing: false then, to be tried again. */
const underGate = (work) => {
  if (Atomics.compareExchange(gate, 0, ${FREE}, ${CHECKPOINTING}) !== ${FREE}) return false;
  try { work(); } catch {} finally { Atomics.compareExchange(gate, 0, ${CHECKPOINTING}, ${FREE}); }
  return true;
};
/** Blocks this thread until \`attempt\` gets the disk: for checkpoints the owner is waiting on. */
const untilDone = (attempt) => { while (!attempt()) Atomics.wait(gate, 0, ${COMMITTING}, 50); };
// The owner is committing: a scheduled checkpoint tries again shortly rather than sync the disk under its writes.
const checkpoint = (final) => underGate(() => {
  const commits = Atomics.load(gate, ${COMMITS});
  // No commit for a whole interval: the writers are quiet, and the file may shrink now.
  if ((final || commits === seen) && commits !== truncatedAt) truncate(commits);
  else db.pragma('wal_checkpoint(PASSIVE)');
  seen = commits;
});
let timer;
const schedule = (ms) => { timer = setTimeout(() => schedule(checkpoint(false) ? workerData.intervalMs : workerData.retryMs), ms); };
schedule(workerData.intervalMs);
parentPort.postMessage('ready');
parentPort.on('message', (message) => {
  if (message === 'settle') {
    // Copies every frame now, waiting out a commit that holds the disk; the owner waits for the answer.
    let result;
    untilDone(() => underGate(() => { result = db.pragma('wal_checkpoint(PASSIVE)')[0]; }));
    parentPort.postMessage({ type: 'settled', complete: result !== undefined && result.busy === 0 && result.log === result.checkpointed });
    return;
  }
  if (message === 'truncate') {
    // Copies every frame and empties the file now, for an owner that must leave no old page in it.
    let emptied = false;
    untilDone(() => underGate(() => { emptied = truncate(Atomics.load(gate, ${COMMITS})); }));
    parentPort.postMessage({ type: 'settled', complete: emptied });
    return;
  }
  if (message !== 'stop') return;
  clearTimeout(timer);
  // The owner's last commit is done: wait for it rather than skip the final checkpoint.
  untilDone(() => checkpoint(true));
  db.close();
  parentPort.close();
});
`;

const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
const shared = new WeakMap<Db, Checkpointer>();
/** How soon a checkpoint skipped for an owner's commit is tried again. */
const RETRY_MS = 25;
/**
 * How often the worker checkpoints. A checkpoint copies each page the WAL holds once, however many
 * commits wrote it since the last one, and an import's commits (a second or less apart on a large
 * store) write most leaves of the random part_id key each time: every 500 ms, a 1M-part import
 * wrote 2.88 GB; every second, 2.57 GB and 0.89× the time (four alternated runs each).
 */
const INTERVAL_MS = 1_000;
/** How long after asking to empty the WAL an owner is taken to still want it (DiskScrub tries every 50 ms). */
const QUIET_MS = 250;

/**
 * Checkpoints every frame and empties the WAL file on this thread, giving up at once (false) rather
 * than wait on a reader whose snapshot still needs frames, or inside a transaction.
 */
export function truncateHere(db: Db): boolean {
  if (db.memory || !db.open || db.inTransaction) return false;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return (db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]?.busy === 0;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

/**
 * Moves WAL checkpoints (page copies and their fsync) off the owner's thread: while it runs, the
 * connection's automatic checkpoint is off and a worker with its own connection checkpoints
 * passively, so a cold import's commits never stall the event loop on a checkpoint. Any failure of
 * the worker restores SQLite's automatic checkpoint.
 *
 * The two never touch the disk at once (a shared gate): a checkpoint's fsync made an owner's commit
 * that wrote the WAL meanwhile wait on the file system's journal, 100 ms and more. A commit that
 * finds a checkpoint running can wait (the run keeps filling its window); one the owner must make
 * now is made anyway.
 */
export class Checkpointer implements DiskGate {
  /**
   * One per connection: capture's commit windows and the search index walk write through the same
   * one, so one thread checkpoints and one gate keeps both writers' commits off its fsync.
   */
  static of(db: Db, logger?: Logger): Checkpointer {
    let checkpointer = shared.get(db);
    if (!checkpointer) shared.set(db, (checkpointer = new Checkpointer(db, undefined, logger)));
    return checkpointer;
  }

  readonly #db: Db;
  readonly #intervalMs: number;
  readonly #gate = new Int32Array(new SharedArrayBuffer(8));
  /** The connection's WAL size limit, held back while the worker runs. */
  #sizeLimit: number | undefined;
  #worker: Worker | undefined;
  #exited: Promise<void> = Promise.resolve();
  readonly #logger: Logger | undefined;
  /** Owners waiting in `settle` or `truncate`, answered in order (the worker handles messages one at a time). */
  #settling: Array<(complete: boolean) => void> = [];
  /** Until when work that holds a transaction across turns should leave none open (see `wantsQuiet`). */
  #quietUntil = 0;

  constructor(db: Db, intervalMs = INTERVAL_MS, logger?: Logger) {
    this.#db = db;
    this.#intervalMs = intervalMs;
    this.#logger = logger;
  }

  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Takes the disk for a commit unless a checkpoint holds it; `force` takes it in any case. */
  enter(force = false): boolean {
    const was = Atomics.compareExchange(this.#gate, 0, FREE, COMMITTING);
    if (was === FREE) return true;
    // A commit that must happen now goes ahead of a running checkpoint; the worker's own stop waits.
    if (force) Atomics.store(this.#gate, 0, COMMITTING);
    return force;
  }

  leave(): void {
    Atomics.add(this.#gate, COMMITS, 1);
    Atomics.store(this.#gate, 0, FREE);
    Atomics.notify(this.#gate, 0);
  }

  /**
   * While the worker runs, a commit never truncates the WAL: with a size limit, the first commit
   * after each complete checkpoint cut the file back, and cutting hundreds of megabytes stalled it
   * 100–450 ms. The worker empties the file instead once the writers are quiet.
   */
  #takeOver(): void {
    this.#db.pragma('wal_autocheckpoint = 0');
    this.#sizeLimit ??= this.#db.pragma('journal_size_limit', { simple: true }) as number;
    this.#db.pragma('journal_size_limit = -1');
  }

  #giveBack(): void {
    if (!this.#db.open) return;
    this.#db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    if (this.#sizeLimit !== undefined) this.#db.pragma(`journal_size_limit = ${this.#sizeLimit}`);
    this.#sizeLimit = undefined;
  }

  start(): void {
    if (this.#worker || this.#db.memory || !this.#db.open) return;
    let worker: Worker;
    try {
      const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
      const workerData = { modulePath, file: this.#db.name, intervalMs: this.#intervalMs, retryMs: RETRY_MS, gate: this.#gate.buffer, nativeBinding: sqliteOptions().nativeBinding };
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    } catch (error) {
      this.#logger?.warn('checkpoint worker unavailable; SQLite checkpoints in-thread', { code: errorCode(error) });
      return;
    }
    worker.unref();
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: 'ready' | { type: 'settled'; complete: boolean }) => {
      if (message === 'ready') {
        if (this.#worker === worker && this.#db.open) this.#takeOver();
      } else if (this.#worker === worker) {
        this.#settling.shift()?.(message.complete);
      }
    });
    const fallBack = (error?: unknown) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#answerSettling();
      this.#logger?.warn('checkpoint worker stopped; SQLite checkpoints in-thread', { code: error === undefined ? 'exit' : errorCode(error) });
      this.#giveBack();
    };
    worker.once('error', fallBack);
    worker.once('exit', () => fallBack());
  }

  /**
   * Checkpoints every frame now and resolves once that is done: true when the whole WAL was copied.
   * Call it between commits, never inside a transaction. The next transaction then starts the WAL
   * file over from its beginning. A transaction that begins while frames still wait to be copied can
   * never do that, and an import opens its next window right after each commit. So without this the
   * WAL grew by every byte an import wrote (1.25 GB in a 1 GB import). Past about 700 MB its
   * commits took 80–160 ms instead of 10–40 ms. Resolves false at once without a worker.
   */
  settle(): Promise<boolean> {
    const worker = this.#worker;
    if (!worker) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.#settling.push(resolve);
      worker.postMessage('settle');
    });
  }

  /**
   * Checkpoints every frame and empties the WAL file (TRUNCATE) now; resolves true once it is empty.
   * A WAL keeps old copies of the pages it holds, and a file the size limit cut back keeps older frames
   * past its new end: wiping a forget from the disk (DiskScrub) ends with this. False while a reader's
   * snapshot still needs frames (the caller tries again). Without a worker, this thread does it.
   */
  truncate(): Promise<boolean> {
    this.#quietUntil = performance.now() + QUIET_MS;
    const worker = this.#worker;
    const emptied = worker
      ? new Promise<boolean>((resolve) => {
          this.#settling.push(resolve);
          worker.postMessage('truncate');
        })
      : Promise.resolve(this.#truncateHere());
    return emptied.then((done) => {
      if (done) this.#quietUntil = 0;
      return done;
    });
  }

  /**
   * Whether an owner is emptying the WAL (truncate, tried again until it is): it needs a moment with
   * no transaction open on this connection, and the index walk's windows stay open across turns
   * (PieceWindow). Such work commits and opens none while this holds.
   */
  wantsQuiet(): boolean {
    return performance.now() < this.#quietUntil;
  }

  #truncateHere(): boolean {
    return truncateHere(this.#db);
  }

  /** Nobody is left waiting on a worker that will not answer. */
  #answerSettling(): void {
    for (const resolve of this.#settling.splice(0)) resolve(false);
  }

  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    this.#answerSettling();
    this.#giveBack();
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
