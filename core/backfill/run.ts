import type { Logger } from '../log/index.js';
import type { Materializer, RunToken, Sink } from '../gateway/index.js';
import type { FingerprintMap, LineStats, TranscriptFile, TranscriptProvider, TranscriptReader } from '../transcripts/index.js';

export interface ProviderStats {
  provider: string;
  discovered: number;
  read: number;
  unchanged: number;
  failed: number;
  partsWritten: number;
  durationMs: number;
  /** Complete lines that failed to parse or exceeded the line cap. */
  failedLines: number;
}

export interface BackfillProgress {
  provider: string;
  filesDone: number;
  filesTotal: number;
  partsWritten: number;
}

/** Runtime context of one provider invocation; the scheduled marker is not an operator setting. */
export interface RunContext {
  /** A fresh opaque object per invocation: the materializer's in-run state is keyed by it. */
  token: RunToken;
  /** Scheduled runs consult the fingerprint map; manual and onboarding backfills ignore it. */
  scheduled: boolean;
  windowStartMs: number | null;
  maxLineBytes: number;
  signal?: AbortSignal;
  onProgress?: (progress: BackfillProgress) => void;
}

export interface BackfillDeps {
  materializer: Materializer;
  sink: Sink;
  fingerprints: FingerprintMap;
  logger: Logger;
  /** Reads off the owner's thread when available; otherwise the provider reads in-thread. */
  reader?: TranscriptReader;
}

export function newRunToken(): RunToken {
  return Object.freeze({});
}

const BATCH_PARTS = 250;
const PROGRESS_EVERY_MS = 250;

/** A file whose newest byte is older than the window cannot hold an in-window line. */
function outsideWindow(file: TranscriptFile, windowStartMs: number | null): boolean {
  return windowStartMs !== null && file.mtimeMs < windowStartMs;
}

/**
 * One provider invocation: enumerate the roots, read and project only what is new or changed (for
 * a scheduled run), materialize every batch under the run token, then drain the spool.
 */
export async function runBackfillProvider(provider: TranscriptProvider, deps: BackfillDeps, ctx: RunContext): Promise<ProviderStats> {
  const started = performance.now();
  const stats: ProviderStats = { provider: provider.id, discovered: 0, read: 0, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 0, failedLines: 0 };
  const discovery = await provider.discover();
  stats.discovered = discovery.files.length;
  stats.failed += discovery.failed;
  if (ctx.scheduled) deps.fingerprints.retainOnly(provider.id, discovery.files);
  let lastProgress = 0;
  const progress = (done: number, force = false) => {
    const now = performance.now();
    if (!ctx.onProgress || (!force && now - lastProgress < PROGRESS_EVERY_MS)) return;
    lastProgress = now;
    ctx.onProgress({ provider: provider.id, filesDone: done, filesTotal: discovery.files.length, partsWritten: stats.partsWritten });
  };
  let done = 0;
  for (const file of discovery.files) {
    if (ctx.signal?.aborted) break;
    done += 1;
    if ((ctx.scheduled && deps.fingerprints.isUnchanged(file)) || outsideWindow(file, ctx.windowStartMs)) {
      stats.unchanged += 1;
      if (ctx.scheduled) deps.fingerprints.advance(file, provider.id);
      continue;
    }
    const lines: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    try {
      let cancelled = false;
      const options = { maxLineBytes: ctx.maxLineBytes, windowStartMs: ctx.windowStartMs, batchParts: BATCH_PARTS };
      const batches = deps.reader ? deps.reader.read(provider, file, options, lines) : provider.read(file, options, lines);
      for await (const batch of batches) {
        stats.partsWritten += deps.materializer.materialize(ctx.token, batch).partsAppended;
        progress(done);
        if (ctx.signal?.aborted) {
          cancelled = true;
          break;
        }
      }
      // A cancelled file was not read through: its fingerprint stays behind so the next run reads it.
      if (cancelled) break;
      // Only now has the file been read and every session it yielded consumed. A manual run ignores the
      // map both ways: its window may be narrower than the scheduled one, so it must not mark files done.
      if (ctx.scheduled) deps.fingerprints.advance(file, provider.id);
      stats.read += 1;
    } catch {
      stats.failed += 1;
    }
    stats.failedLines += lines.failedLines + lines.oversizeLines;
  }
  await deps.sink.drain();
  progress(done, true);
  stats.durationMs = Math.round(performance.now() - started);
  deps.logger.info('transcript scan', {
    provider: provider.id,
    scheduled: ctx.scheduled,
    reader: deps.reader?.usesWorker ? 'worker' : 'thread',
    discovered: stats.discovered,
    read: stats.read,
    unchanged: stats.unchanged,
    failed: stats.failed,
    failedLines: stats.failedLines,
    partsWritten: stats.partsWritten,
    durationMs: stats.durationMs,
  });
  return stats;
}
