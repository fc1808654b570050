import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteOptions } from '../store/index.js';

/**
 * The worker's whole program, evaluated from a string so the same code runs from the built output
 * and from sources under test. It opens the file read-only and only runs the one MATCH statement.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
db.pragma('busy_timeout = 1000');
const newest = db.prepare(workerData.sql).pluck();
parentPort.on('message', ({ id, match, lo, hi, parts, limit }) => {
  try {
    parentPort.postMessage({ id, keys: newest.all(match, lo, hi, parts, limit) });
  } catch (error) {
    parentPort.postMessage({ id, code: typeof error?.code === 'string' ? error.code : 'internal' });
  }
});
`;

export interface MatchRequest {
  match: string;
  lo: number;
  hi: number;
  /** Parts up to this rowid (SearchFilter.partRowid). */
  parts: number;
  limit: number;
}

/** Why a match off the owner's thread gave no keys: FTS5 refused it, it ran too long, or it failed. */
export class MatchFailure extends Error {
  readonly reason: 'syntax' | 'timeout' | 'failed';
  constructor(reason: MatchFailure['reason']) {
    super(`The full-text match ${reason === 'syntax' ? 'was refused' : reason === 'timeout' ? 'ran too long' : 'failed'}`);
    this.name = 'MatchFailure';
    this.reason = reason;
  }
}

interface Pending {
  resolve: (keys: number[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Runs a full-text MATCH on a thread of its own, with its own read-only connection (WAL lets it read
 * beside the owner's writes; it sees what is committed). For the matches FTS5 answers by merging whole
 * posting lists (a broad prefix), which hold a thread for as long as the merge takes: there, the
 * owner's event loop keeps serving while the person waits. Started at the first such match; a match
 * that runs past its time is stopped with its worker, and the next one starts a fresh worker.
 */
export class MatchWorker {
  readonly #file: string;
  readonly #sql: string;
  #worker: Worker | undefined;
  #next = 0;
  readonly #pending = new Map<number, Pending>();

  constructor(file: string, sql: string) {
    this.#file = file;
    this.#sql = sql;
  }

  keys(request: MatchRequest, timeoutMs: number): Promise<number[]> {
    const worker = this.#start();
    const id = (this.#next += 1);
    return new Promise<number[]>((resolve, reject) => {
      // A match past its time holds the worker's thread: only stopping the worker ends it.
      const timer = setTimeout(() => this.#stop(worker, new MatchFailure('timeout')), timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...request });
    });
  }

  /** Stops the worker; matches still waiting fail. */
  async close(): Promise<void> {
    const worker = this.#worker;
    if (worker) await this.#stop(worker, new MatchFailure('failed'));
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, file: this.#file, sql: this.#sql, nativeBinding: sqliteOptions().nativeBinding } });
    // Never what keeps a stopping owner alive; a match waiting on it holds its own timer.
    worker.unref();
    worker.on('message', (reply: { id: number; keys?: number[]; code?: string }) => this.#settle(reply));
    worker.once('error', () => void this.#stop(worker, new MatchFailure('failed')));
    worker.once('exit', () => void this.#stop(worker, new MatchFailure('failed')));
    this.#worker = worker;
    return worker;
  }

  #settle({ id, keys, code }: { id: number; keys?: number[]; code?: string }): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (keys) pending.resolve(keys);
    else pending.reject(new MatchFailure(code === 'SQLITE_ERROR' ? 'syntax' : 'failed'));
  }

  async #stop(worker: Worker, reason: MatchFailure): Promise<void> {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const { reject, timer } of waiting) {
      clearTimeout(timer);
      reject(reason);
    }
    await worker.terminate();
  }
}
