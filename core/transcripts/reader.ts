import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LineStats, ProviderId, ReadOptions, TranscriptBatch, TranscriptFile, TranscriptProvider } from './types.js';

export type ReaderRequest =
  | { type: 'read'; id: number; provider: ProviderId; file: TranscriptFile; options: ReadOptions }
  | { type: 'ack'; id: number }
  | { type: 'cancel'; id: number };

export type ReaderReply =
  | { type: 'batch'; id: number; batch: TranscriptBatch }
  | { type: 'done'; id: number; stats: LineStats }
  | { type: 'error'; id: number; code: string; stats: LineStats };

interface Pending {
  queue: ReaderReply[];
  wake: (() => void) | undefined;
}

const WORKER_URL = new URL('./read-worker.js', import.meta.url);
/**
 * Below this many cores a second busy thread competes with the owner for CPU (measured: slower
 * imports and a worse event-loop p99 on a loaded 2-core machine), so reads stay in-thread there.
 */
const MIN_CORES_FOR_WORKER = 4;

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

  /** `worker`: true forces the worker (when built), false forbids it; unset decides by core count. */
  constructor(options: { worker?: boolean } = {}) {
    const wanted = options.worker ?? availableParallelism() >= MIN_CORES_FOR_WORKER;
    this.#disabled = !wanted || !existsSync(fileURLToPath(WORKER_URL));
  }

  get usesWorker(): boolean {
    return !this.#disabled;
  }

  read(provider: TranscriptProvider, file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const worker = this.#ensureWorker();
    return worker ? this.#viaWorker(worker, provider.id, file, options, stats) : provider.read(file, options, stats);
  }

  async stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #ensureWorker(): Worker | undefined {
    if (this.#disabled) return undefined;
    if (this.#worker) return this.#worker;
    try {
      const worker = new Worker(WORKER_URL);
      worker.unref();
      worker.on('message', (reply: ReaderReply) => this.#deliver(reply));
      const fail = () => {
        if (this.#worker !== worker) return;
        this.#worker = undefined;
        this.#disabled = true;
        // Every file in flight fails now; later files are read in-thread.
        for (const id of [...this.#pending.keys()]) this.#deliver({ type: 'error', id, code: 'worker_exit', stats: { lines: 0, failedLines: 0, oversizeLines: 0 } });
      };
      worker.on('error', fail);
      worker.on('exit', fail);
      this.#worker = worker;
      return worker;
    } catch {
      this.#disabled = true;
      return undefined;
    }
  }

  #deliver(reply: ReaderReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    pending.queue.push(reply);
    pending.wake?.();
    pending.wake = undefined;
  }

  async *#viaWorker(worker: Worker, provider: ProviderId, file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const id = this.#nextId++;
    const pending: Pending = { queue: [], wake: undefined };
    this.#pending.set(id, pending);
    let finished = false;
    try {
      worker.postMessage({ type: 'read', id, provider, file, options } satisfies ReaderRequest);
      for (;;) {
        const reply = pending.queue.shift();
        if (!reply) {
          await new Promise<void>((resolve) => (pending.wake = resolve));
          continue;
        }
        if (reply.type === 'batch') {
          yield reply.batch;
          worker.postMessage({ type: 'ack', id } satisfies ReaderRequest);
          continue;
        }
        finished = true;
        stats.lines += reply.stats.lines;
        stats.failedLines += reply.stats.failedLines;
        stats.oversizeLines += reply.stats.oversizeLines;
        if (reply.type === 'error') throw new ReadFailed(reply.code);
        return;
      }
    } finally {
      this.#pending.delete(id);
      if (!finished && this.#worker === worker) worker.postMessage({ type: 'cancel', id } satisfies ReaderRequest);
    }
  }
}
