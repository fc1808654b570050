import { parentPort, workerData } from 'node:worker_threads';
import { useSqliteNativeBinding } from '../store/binding/index.js';
import { createProvider, parsersOnly } from './providers/index.js';
import { packBatch, packDiscovery } from './packed.js';
import { blockOnReads } from './lines.js';
import { blockOnWalks } from './scan.js';
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
blockOnWalks();
// Roots are irrelevant to reading: the worker reads the files the owner asks for.
const providers: Record<ProviderId, TranscriptProvider> = parsersOnly();
/** Walks in progress by request id: a cancel aborts the walk, which then answers with what it found. */
const walks = new Map<number, AbortController>();
/** The owner's providers, built here over the same roots, by provider and roots. */
const walkers = new Map<string, TranscriptProvider>();

function walker(provider: ProviderId, roots: Readonly<Record<string, readonly string[]>>): TranscriptProvider {
  const key = JSON.stringify([provider, roots]);
  let built = walkers.get(key);
  if (!built) walkers.set(key, (built = createProvider(provider, roots as never)));
  return built;
}

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

/** Walks the roots the owner's provider was built over, as that provider would (see TranscriptReader.discover). */
async function discover(id: number, provider: ProviderId, roots: Readonly<Record<string, readonly string[]>>): Promise<void> {
  const walk = new AbortController();
  walks.set(id, walk);
  try {
    const result = await walker(provider, roots).discover(walk.signal);
    post({ type: 'discovered', id, result: packDiscovery(result) });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    post({ type: 'discovered', id, code: typeof code === 'string' ? code.slice(0, 40) : 'discover_failed' });
  } finally {
    walks.delete(id);
  }
}

port?.on('message', (message: ReaderRequest) => {
  if (message.type === 'discover') {
    void discover(message.id, message.provider, message.roots);
    return;
  }
  if (message.type === 'cancel') walks.get(message.id)?.abort();
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
