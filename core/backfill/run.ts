import type { EventPayload, ProviderSweepStats } from '../api/index.js';
import { CodeTally, errorCode, type Logger } from '../log/index.js';
import type { CommitWindow, Materializer, RunToken, Sink } from '../gateway/index.js';
import type { FingerprintMap, LineStats, ReadOptions, TranscriptFile, TranscriptProvider, TranscriptReader } from '../transcripts/index.js';

/** One provider's counts for a run: the contract's shape, declared once in core/api. */
export type ProviderStats = ProviderSweepStats;

export type BackfillProgress = EventPayload<'backfill.progress'>;

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
  /** Parts a run indexes in step; beyond them the background walk indexes the rest after the run. */
  inStepIndexParts?: number;
}

export interface BackfillDeps {
  materializer: Materializer;
  sink: Sink;
  /** Groups the run's writes into few commits; fingerprints advance only once their rows commit. */
  commits: CommitWindow;
  fingerprints: FingerprintMap;
  logger: Logger;
  /** Reads off the owner's thread when available; otherwise the provider reads in-thread. */
  reader?: TranscriptReader;
}

export function newRunToken(): RunToken {
  return Object.freeze({});
}

const BATCH_PARTS = 250;
/** A tick's new parts are searchable when it ends; a cold import or a long backfill hands most of its parts to the index walk. */
const IN_STEP_INDEX_PARTS = 20_000;
const PROGRESS_EVERY_MS = 250;
/** How long a run may keep the event loop between turns. */
const HOLD_MS = 10;

/** A file whose newest byte is older than the window cannot hold an in-window line. */
function outsideWindow(file: TranscriptFile, windowStartMs: number | null): boolean {
  return windowStartMs !== null && file.mtimeMs < windowStartMs;
}

interface FileIo {
  options: ReadOptions;
  /** Told how many parts each batch committed to the sink. */
  written: (parts: number) => void;
  /** Starts reading the file after this one, so parsing it overlaps this file's writes. */
  readAhead: () => void;
  progress: () => void;
  /** Gives the event loop a turn when this run has held it for a while, or when `now`. */
  yieldTurn: (now: boolean) => Promise<void>;
}

interface FileOutcome {
  status: 'read' | 'cancelled' | 'failed' | 'vanished';
  /** Set when the file failed: the error's code, for the log and the tick result. */
  code?: string;
  partsWritten: number;
  lines: LineStats;
  withheld: { forgotten: number; excluded: number };
}

/**
 * Reads one file and materializes its batches inside the run's commit window. Each batch's rows go
 * through the spool and its sink step at once, so the spool holds one batch at a time.
 */
async function importFile(provider: TranscriptProvider, file: TranscriptFile, deps: BackfillDeps, io: FileIo, ctx: RunContext): Promise<FileOutcome> {
  const { options, progress } = io;
  const outcome: FileOutcome = { status: 'read', partsWritten: 0, lines: { lines: 0, failedLines: 0, oversizeLines: 0 }, withheld: { forgotten: 0, excluded: 0 } };
  try {
    const batches = deps.reader ? deps.reader.read(provider, file, options, outcome.lines) : provider.read(file, options, outcome.lines);
    // After this file's read began (it may adopt the read-ahead started for it), never before.
    io.readAhead();
    for await (const batch of batches) {
      deps.commits.open();
      const appended = deps.materializer.materialize(ctx.token, batch);
      const rows = appended.partsAppended + appended.sessionsAppended;
      outcome.withheld.forgotten += appended.withheld.forgotten;
      outcome.withheld.excluded += appended.withheld.excluded;
      // Counted as the sink moves them: a copy of a part committed under another session is not new.
      if (rows > 0) {
        const written = deps.sink.flushStep(rows).partsWritten;
        outcome.partsWritten += written;
        io.written(written);
      }
      const due = deps.commits.add(rows, appended.textAppended);
      progress();
      await io.yieldTurn(due);
      if (due) {
        // A commit writes the window's pages at once: it gets a turn of its own, before and after.
        deps.commits.commit();
        await io.yieldTurn(true);
      }
      if (ctx.signal?.aborted) {
        outcome.status = 'cancelled';
        break;
      }
    }
  } catch (error) {
    outcome.code = errorCode(error);
    // Deleted between the listing and the read (a session cleaned up, a log rotated): nothing failed.
    outcome.status = outcome.code === 'ENOENT' ? 'vanished' : 'failed';
  }
  return outcome;
}

/** Parts held back on purpose are counted, never dropped silently; the field appears once one was. */
function addWithheld(stats: ProviderStats, withheld: FileOutcome['withheld']): void {
  if (withheld.forgotten === 0 && withheld.excluded === 0) return;
  const total = (stats.withheld ??= { forgotten: 0, excluded: 0 });
  total.forgotten += withheld.forgotten;
  total.excluded += withheld.excluded;
}

/** The first file from index `from` on that the run will read (for read-ahead). */
function firstToRead(files: readonly TranscriptFile[], from: number, skipped: (file: TranscriptFile) => boolean): TranscriptFile | undefined {
  for (let j = from; j < files.length; j += 1) if (!skipped(files[j]!)) return files[j];
  return undefined;
}

/** Gives the event loop a turn once the run has held it for HOLD_MS, or at once when asked. */
function pacer(): (now: boolean) => Promise<void> {
  // Batches read ahead arrive already queued, and awaiting one is then only a microtask: without
  // an explicit turn the loop would hold the event loop for as long as the queue stays full.
  let heldSince = performance.now();
  return async (now) => {
    if (!now && performance.now() - heldSince < HOLD_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    heldSince = performance.now();
  };
}

/** Progress events, at most every PROGRESS_EVERY_MS unless forced. */
function progressReporter(provider: TranscriptProvider, ctx: RunContext, filesTotal: number, stats: ProviderStats): (done: number, force?: boolean) => void {
  let last = 0;
  return (done, force = false) => {
    const now = performance.now();
    if (!ctx.onProgress || (!force && now - last < PROGRESS_EVERY_MS)) return;
    last = now;
    ctx.onProgress({ provider: provider.id, filesDone: done, filesTotal, partsWritten: stats.partsWritten });
  };
}

function logScan(deps: BackfillDeps, ctx: RunContext, stats: ProviderStats): void {
  const { provider, discovered, read, unchanged, vanished, failed, failedLines, partsWritten, durationMs } = stats;
  const reader = deps.reader?.usesWorker ? 'worker' : 'thread';
  const fields = { provider, scheduled: ctx.scheduled, reader, discovered, read, unchanged, vanished, failed, failedLines, partsWritten, durationMs };
  if (!stats.errors?.length) return deps.logger.info('transcript scan', fields);
  // Codes only: which file failed would be a path, and what it said would be transcript text.
  deps.logger.warn('transcript scan had failures', { ...fields, errors: stats.errors.map((e) => `${e.code}:${e.count}`).join(',') });
}

/**
 * One provider invocation: enumerate the roots, read and project only what is new or changed (for
 * a scheduled run), materialize every batch under the run token, then drain the spool.
 */
export async function runBackfillProvider(provider: TranscriptProvider, deps: BackfillDeps, ctx: RunContext): Promise<ProviderStats> {
  const started = performance.now();
  const stats: ProviderStats = { provider: provider.id, discovered: 0, read: 0, unchanged: 0, vanished: 0, failed: 0, partsWritten: 0, durationMs: 0, failedLines: 0 };
  const errors = new CodeTally();
  const { files, failed, cancelled, errors: walkErrors } = await provider.discover(ctx.signal);
  stats.discovered = files.length;
  stats.failed += failed;
  errors.addAll(walkErrors);
  // A cancelled walk saw only part of the tree: forgetting the rest would make the next tick reread it.
  if (ctx.scheduled && !cancelled) deps.fingerprints.retainOnly(provider.id, files);
  const progress = progressReporter(provider, ctx, files.length, stats);
  const options: ReadOptions = { maxLineBytes: ctx.maxLineBytes, windowStartMs: ctx.windowStartMs, batchParts: BATCH_PARTS };
  const skipped = (file: TranscriptFile) => (ctx.scheduled && deps.fingerprints.isUnchanged(file)) || outsideWindow(file, ctx.windowStartMs);
  const yieldTurn = pacer();
  let done = 0;
  let written = 0;
  const inStep = ctx.inStepIndexParts ?? IN_STEP_INDEX_PARTS;
  const countWritten = (parts: number) => {
    written += parts;
    if (written > inStep) deps.sink.deferIndexing();
  };
  try {
    for (const [i, file] of files.entries()) {
      if (ctx.signal?.aborted) break;
      done += 1;
      if (skipped(file)) {
        stats.unchanged += 1;
        if (ctx.scheduled) deps.fingerprints.advance(file, provider.id);
        continue;
      }
      // A scheduled run reads a changed file from where its last committed read stopped, when its provider can.
      const resumable = (f: TranscriptFile) => (ctx.scheduled ? deps.fingerprints.resumable(f) : f);
      const readAhead = () => {
        const next = firstToRead(files, i + 1, skipped);
        if (next) deps.reader?.readAhead(provider, resumable(next), options);
      };
      const outcome = await importFile(provider, resumable(file), deps, { options, readAhead, written: countWritten, progress: () => progress(done), yieldTurn }, ctx);
      stats.partsWritten += outcome.partsWritten;
      stats.failedLines += outcome.lines.failedLines + outcome.lines.oversizeLines;
      addWithheld(stats, outcome.withheld);
      if (outcome.status === 'failed') {
        stats.failed += 1;
        errors.add(outcome.code ?? 'internal');
      }
      if (outcome.status === 'vanished') stats.vanished = (stats.vanished ?? 0) + 1;
      // A cancelled file was not read through: its fingerprint stays behind so the next run reads it.
      if (outcome.status === 'cancelled') break;
      if (outcome.status !== 'read') continue;
      stats.read += 1;
      // Only once the file was read, every session it yielded consumed and their rows committed. A
      // manual run ignores the map both ways: its window may be narrower than the scheduled one.
      if (ctx.scheduled) deps.commits.afterCommit(() => deps.fingerprints.advance(file, provider.id, outcome.lines.resume));
    }
  } finally {
    deps.reader?.cancelReadAhead();
    deps.commits.commit();
  }
  try {
    stats.partsWritten += (await deps.sink.drain()).partsWritten;
  } finally {
    deps.sink.resumeIndexing();
  }
  progress(done, true);
  stats.errors = errors.list();
  stats.durationMs = Math.round(performance.now() - started);
  logScan(deps, ctx, stats);
  return stats;
}
