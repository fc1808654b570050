import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ProviderId } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { sqliteOptions } from '../store/index.js';
import { addLineStats } from './lines.js';
import { unpackBatch, type PackedBatch } from './packed.js';
import type { LineStats, ReadOptions, TranscriptBatch, TranscriptFile, TranscriptProvider } from './types.js';

export type ReaderRequest =
  | { type: 'read'; id: number; provider: ProviderId; file: TranscriptFile; options: ReadOptions }
  | { type: 'ack'; id: number }
  | { type: 'cancel'; id: number };

export type ReaderReply =
  | { type: 'batch'; id: number; batch: PackedBatch }
  | { type: 'done'; id: number; stats: LineStats }
  | { type: 'error'; id: number; code: string; stats: LineStats };

interface Pending {
  queue: ReaderReply[];
  wake: (() => void) | undefined;
}

interface Job {
  id: number;
  pending: Pending;
}

const WORKER_URL = new URL('./read-worker.js', import.meta.url);
/**
 * With one core the worker would only take turns with the owner. From two on it parses while the
 * owner writes (measured on 2 cores with read-ahead: a cold import about 20% faster and a similar
 * event-loop p99); without read-ahead it idled at every file boundary and did not pay.
 */
const MIN_CORES_FOR_WORKER = 2;
/**
 * Files asked for ahead of the one the owner reads. A queued file costs the worker nothing until its
 * turn (the worker's credit bounds what it holds), but with only one ahead most files of a real
 * history (small ones) left the worker waiting at each boundary while the owner wrote.
 */
const READ_AHEAD_FILES = 16;

/** A file the owner will read, with the options it will read it with. */
export interface UpcomingRead {
  file: TranscriptFile;
  options: ReadOptions;
}

/** Thrown when the worker could not finish a file; the file is counted failed and retried next run. */
export class ReadFailed extends Error {
  readonly code: string;
  constructor(code: string) {
    super('transcript read failed');
    this.code = code;
  }
}

/**
 * Reads transcript files in a worker thread so that reading, JSON parsing and projection never run
 * on the owner's event loop; the owner only materializes the batches. Where the compiled worker is
 * not available (running from sources) or it fails, files are read in-thread instead.
 */
export class TranscriptReader {
  #worker: Worker | undefined;
  #disabled: boolean;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  /** Files asked for ahead, in the order the owner will read them (the worker reads them in that order). */
  #ahead: Array<{ provider: ProviderId; path: string; job: Job }> = [];
  #readsStarted = 0;
  readonly #logger: Logger | undefined;

  /** `worker`: true forces the worker (when built), false forbids it; unset decides by core count. */
  constructor(options: { worker?: boolean; logger?: Logger } = {}) {
    const wanted = options.worker ?? availableParallelism() >= MIN_CORES_FOR_WORKER;
    this.#disabled = !wanted || !existsSync(fileURLToPath(WORKER_URL));
    this.#logger = options.logger;
  }

  get usesWorker(): boolean {
    return !this.#disabled;
  }

  /** Files the worker was asked to read, read-aheads included: one per file read when none is wasted. */
  get readsStarted(): number {
    return this.#readsStarted;
  }

  read(provider: TranscriptProvider, file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const worker = this.#ensureWorker();
    if (!worker) {
      this.cancelReadAhead();
      return provider.read(file, options, stats);
    }
    const ahead = this.#takeAhead(provider.id, file);
    return this.#viaWorker(worker, ahead ?? this.#start(worker, provider.id, file, options), stats);
  }

  /**
   * Asks the worker for the files the owner will read next (`upcoming`, in order), so it parses them
   * while the owner writes this one. Files already asked for in the same order are kept; from the
   * first that differs on, the old ones are cancelled. In-thread reading has nothing to overlap.
   */
  readAhead(provider: TranscriptProvider, upcoming: Iterable<UpcomingRead>): void {
    const worker = this.#ensureWorker();
    if (!worker) return;
    let index = 0;
    for (const { file, options } of upcoming) {
      if (index >= READ_AHEAD_FILES) break;
      const queued = this.#ahead[index];
      if (queued && (queued.provider !== provider.id || queued.path !== file.path)) this.#cancelAheadFrom(index);
      if (!this.#ahead[index]) this.#ahead.push({ provider: provider.id, path: file.path, job: this.#start(worker, provider.id, file, options) });
      index += 1;
    }
    this.#cancelAheadFrom(index);
  }

  /** Drops every read-ahead nobody will read (a run that ended early). */
  cancelReadAhead(): void {
    this.#cancelAheadFrom(0);
  }

  async stop(): Promise<void> {
    this.cancelReadAhead();
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #ensureWorker(): Worker | undefined {
    if (this.#disabled) return undefined;
    if (this.#worker) return this.#worker;
    try {
      // An OpenClaw store is opened in the worker: it needs the better-sqlite3 build this process loads (Electron's own).
      const worker = new Worker(WORKER_URL, { workerData: { sqliteBinding: sqliteOptions().nativeBinding } });
      worker.unref();
      worker.on('message', (reply: ReaderReply) => this.#deliver(reply));
      const fail = (error?: unknown) => {
        if (this.#worker !== worker) return;
        this.#worker = undefined;
        this.#disabled = true;
        this.#logger?.warn('read worker stopped; transcripts are read in-thread', { code: error === undefined ? 'worker_exit' : errorCode(error) });
        // Every file in flight fails now; later files are read in-thread.
        for (const id of [...this.#pending.keys()]) this.#deliver({ type: 'error', id, code: 'worker_exit', stats: { lines: 0, failedLines: 0, oversizeLines: 0 } });
      };
      worker.on('error', fail);
      worker.on('exit', () => fail());
      this.#worker = worker;
      return worker;
    } catch (error) {
      this.#disabled = true;
      this.#logger?.warn('read worker unavailable; transcripts are read in-thread', { code: errorCode(error) });
      return undefined;
    }
  }

  /**
   * The worker keeps the process alive while a read waits on it, and not when idle. Unreferenced
   * before it was online, it kept the process alive anyway; once unreferenced after, a one-shot
   * command awaiting a read ended with the event loop empty (exit 13, nothing printed).
   */
  #holdWhileBusy(): void {
    const worker = this.#worker;
    if (!worker) return;
    if (this.#pending.size > 0) worker.ref();
    else worker.unref();
  }

  #deliver(reply: ReaderReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    pending.queue.push(reply);
    pending.wake?.();
    pending.wake = undefined;
  }

  #start(worker: Worker, provider: ProviderId, file: TranscriptFile, options: ReadOptions): Job {
    const job: Job = { id: this.#nextId++, pending: { queue: [], wake: undefined } };
    this.#readsStarted += 1;
    this.#pending.set(job.id, job.pending);
    this.#holdWhileBusy();
    worker.postMessage({ type: 'read', id: job.id, provider, file, options } satisfies ReaderRequest);
    return job;
  }

  /** The read-ahead of this file when it is the next one asked for; otherwise every read-ahead goes. */
  #takeAhead(provider: ProviderId, file: TranscriptFile): Job | undefined {
    const head = this.#ahead[0];
    if (head && head.provider === provider && head.path === file.path) return this.#ahead.shift()!.job;
    this.cancelReadAhead();
    return undefined;
  }

  #cancelAheadFrom(index: number): void {
    for (const { job } of this.#ahead.splice(index)) {
      this.#pending.delete(job.id);
      this.#holdWhileBusy();
      this.#worker?.postMessage({ type: 'cancel', id: job.id } satisfies ReaderRequest);
    }
  }

  async *#viaWorker(worker: Worker, job: Job, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const { id, pending } = job;
    let finished = false;
    try {
      for (;;) {
        const reply = pending.queue.shift();
        if (!reply) {
          await new Promise<void>((resolve) => (pending.wake = resolve));
          continue;
        }
        if (reply.type === 'batch') {
          yield unpackBatch(reply.batch);
          worker.postMessage({ type: 'ack', id } satisfies ReaderRequest);
          continue;
        }
        finished = true;
        addLineStats(stats, reply.stats);
        if (reply.type === 'error') throw new ReadFailed(reply.code);
        return;
      }
    } finally {
      this.#pending.delete(id);
      this.#holdWhileBusy();
      if (!finished && this.#worker === worker) worker.postMessage({ type: 'cancel', id } satisfies ReaderRequest);
    }
  }
}
