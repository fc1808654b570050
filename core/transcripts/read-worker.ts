import { parentPort, workerData } from 'node:worker_threads';
import { useSqliteNativeBinding } from '../store/binding/index.js';
import { parsersOnly } from './providers/index.js';
import { packBatch } from './packed.js';
import { blockOnReads } from './lines.js';
import type { LineStats, ReadOptions, TranscriptFile, TranscriptProvider } from './types.js';
import type { ProviderId } from '../api/index.js';
import type { ReaderReply, ReaderRequest } from './reader.js';

/**
 * The read worker: streams, parses and projects transcript files off the owner's thread and posts
 * bounded batches back. Files are read one after another in the order they were asked for (the
 * owner's order: the file it reads now, then its read-ahead), and at most CREDIT batches are
 * unacknowledged across all of them, so memory stays bounded when the owner's writes are slower than
 * parsing, and a run of small files never leaves the worker waiting at each file boundary.
 */
const CREDIT = 16;
const port = parentPort;
const binding = (workerData as { sqliteBinding?: unknown } | null)?.sqliteBinding;
useSqliteNativeBinding(typeof binding === 'string' ? binding : undefined);
blockOnReads();
// Roots are irrelevant here: the worker only reads files the owner discovered.
const providers: Record<ProviderId, TranscriptProvider> = parsersOnly();

interface Job {
  id: number;
  provider: ProviderId;
  file: TranscriptFile;
  options: ReadOptions;
  /** Batches posted and not yet acknowledged: returned to the credit when the owner cancels. */
  unacked: number;
  finished: boolean;
  cancelled: boolean;
}

/** Jobs by id until cancelled, or read through with every batch acknowledged. */
const jobs = new Map<number, Job>();
const queue: Job[] = [];
let credit = CREDIT;
let wake: (() => void) | undefined;
let reading = false;

function post(reply: ReaderReply): void {
  port?.postMessage(reply);
}

function nudge(): void {
  wake?.();
  wake = undefined;
}

function release(job: Job): void {
  if (job.cancelled || (job.finished && job.unacked === 0)) jobs.delete(job.id);
}

async function read(job: Job): Promise<void> {
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  try {
    for await (const batch of providers[job.provider].read(job.file, job.options, stats)) {
      while (credit === 0 && !job.cancelled) await new Promise<void>((resolve) => (wake = resolve));
      if (job.cancelled) return;
      credit -= 1;
      job.unacked += 1;
      post({ type: 'batch', id: job.id, batch: packBatch(batch) });
    }
    post({ type: 'done', id: job.id, stats });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (!job.cancelled) post({ type: 'error', id: job.id, code: typeof code === 'string' ? code.slice(0, 40) : 'read_failed', stats });
  } finally {
    job.finished = true;
    release(job);
  }
}

/** Reads the queued files in order, one at a time; a file cancelled before its turn is never opened. */
async function drain(): Promise<void> {
  if (reading) return;
  reading = true;
  try {
    for (let job = queue.shift(); job; job = queue.shift()) if (!job.cancelled) await read(job);
  } finally {
    reading = false;
  }
}

port?.on('message', (message: ReaderRequest) => {
  if (message.type === 'read') {
    const job: Job = { id: message.id, provider: message.provider, file: message.file, options: message.options, unacked: 0, finished: false, cancelled: false };
    jobs.set(job.id, job);
    queue.push(job);
    void drain();
    return;
  }
  const job = jobs.get(message.id);
  if (!job) return;
  if (message.type === 'ack') {
    credit += 1;
    job.unacked -= 1;
  } else {
    // The owner acknowledges nothing more of a cancelled file: what it held comes back at once.
    credit += job.unacked;
    job.unacked = 0;
    job.cancelled = true;
  }
  release(job);
  nudge();
});
