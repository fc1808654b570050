import { parentPort, workerData } from 'node:worker_threads';
import { useSqliteNativeBinding } from '../store/index.js';
import { parsersOnly } from './providers/index.js';
import type { LineStats, ReadOptions, TranscriptFile, TranscriptProvider } from './types.js';
import type { ProviderId } from '../api/index.js';
import type { ReaderReply, ReaderRequest } from './reader.js';

/**
 * The read worker: streams, parses and projects transcript files off the owner's thread and posts
 * bounded batches back. At most CREDIT batches are unacknowledged, so memory stays bounded when the
 * owner's writes are slower than parsing.
 */
const CREDIT = 4;
const port = parentPort;
const binding = (workerData as { sqliteBinding?: unknown } | null)?.sqliteBinding;
useSqliteNativeBinding(typeof binding === 'string' ? binding : undefined);
// Roots are irrelevant here: the worker only reads files the owner discovered.
const providers: Record<ProviderId, TranscriptProvider> = parsersOnly();

interface Job {
  credit: number;
  wake: (() => void) | undefined;
  cancelled: boolean;
}
const jobs = new Map<number, Job>();

function post(reply: ReaderReply): void {
  port?.postMessage(reply);
}

async function read(id: number, provider: ProviderId, file: TranscriptFile, options: ReadOptions): Promise<void> {
  const job: Job = { credit: CREDIT, wake: undefined, cancelled: false };
  jobs.set(id, job);
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  try {
    for await (const batch of providers[provider].read(file, options, stats)) {
      while (job.credit === 0 && !job.cancelled) await new Promise<void>((resolve) => (job.wake = resolve));
      if (job.cancelled) break;
      job.credit -= 1;
      post({ type: 'batch', id, batch });
    }
    post({ type: 'done', id, stats });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    post({ type: 'error', id, code: typeof code === 'string' ? code.slice(0, 40) : 'read_failed', stats });
  } finally {
    jobs.delete(id);
  }
}

port?.on('message', (message: ReaderRequest) => {
  if (message.type === 'read') {
    void read(message.id, message.provider, message.file, message.options);
    return;
  }
  const job = jobs.get(message.id);
  if (!job) return;
  if (message.type === 'ack') job.credit += 1;
  else job.cancelled = true;
  job.wake?.();
  job.wake = undefined;
});
