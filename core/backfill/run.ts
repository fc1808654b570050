import { basename } from 'node:path';
import type { EventPayload, ProviderSweepStats, SkipReason } from '../api/index.js';
import { CodeTally, errorCode, type Logger } from '../log/index.js';
import { mtimeVouches, pacer, type CheckpointIdentity, type Pace, type CommitWindow, type FileCheckpoint, type FileCheckpoints, type Materializer, type RunToken, type Sink } from '../gateway/index.js';
import { failWhenNothingRead, type DiscoveryResult, type FingerprintMap, type LineStats, type ReadOptions, type TranscriptFile, type TranscriptProvider, type TranscriptReader, type UpcomingRead } from '../transcripts/index.js';

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
  /** A run that will read more bytes than this leaves all its parts to the walk from the start. */
  inStepIndexBytes?: number;
}

export interface BackfillDeps {
  materializer: Materializer;
  sink: Sink;
  /** Groups the run's writes into few commits; fingerprints advance only once their rows commit. */
  commits: CommitWindow;
  fingerprints: FingerprintMap;
  /**
   * Durable per-file checkpoints: a scheduled run after a restart skips unchanged files and reads an
   * appended one from its offset. Written in the commit window of the rows they cover. Manual runs
   * read every file from 0 whatever they say, and write them too.
   */
  checkpoints?: FileCheckpoints;
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
/**
 * A run that will read more than this (a cold import, an import of history) is not a live tick: its
 * parts all go to the index walk from the start, so the import itself does not pay for indexing the
 * first of them (about a third of a cold import's time on the owner's thread).
 */
const IN_STEP_INDEX_BYTES = 32 * 1024 * 1024;

/** The bytes a run's plans will read: whole files, or what follows a resume offset. */
function bytesToRead(files: readonly TranscriptFile[], plans: readonly FilePlan[]): number {
  return plans.reduce((sum, plan, i) => (plan.skip ? sum : sum + Math.max(0, files[i]!.size - (plan.options.resume?.offset ?? 0))), 0);
}
const PROGRESS_EVERY_MS = 250;
/** How long a run may keep the event loop between turns. */
const HOLD_MS = 10;

/** A file whose newest byte is older than the window cannot hold an in-window line. */
function outsideWindow(file: TranscriptFile, windowStartMs: number | null): boolean {
  return windowStartMs !== null && file.mtimeMs < windowStartMs;
}

/** A checkpoint's provider state; a damaged one counts as none (OpenClaw then reads from 0). */
function parseState(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Whether lines read with a window starting at `read` include every line a window starting at `now` wants. */
function windowCovers(read: number | null, now: number | null): boolean {
  return read === null || (now !== null && now >= read);
}

/**
 * What a checkpoint allows for a file: skipping it (the same inode, size, mtime and ctime, read by this
 * parser version with a window at least as wide), verifying it (only the ctime moved), resuming from
 * it (the file changed), or nothing (a new inode, another parser version, a wider window: read from 0).
 */
function checkpointPlan(file: TranscriptFile, cp: CheckpointIdentity | undefined, parserVersion: number, windowStartMs: number | null): 'unchanged' | 'verify' | 'resume' | undefined {
  if (!cp || cp.parserVersion !== parserVersion || cp.dev !== file.dev || cp.ino !== file.ino || !windowCovers(cp.windowStartMs, windowStartMs)) return undefined;
  // A chmod, a new link or an xattr moves the ctime, and so does a rewrite to the same size with its mtime
  // set back (utimes): only the stored hashes tell them apart. A checkpoint that kept no ctime weighs none.
  if (file.size === cp.size && mtimeVouches(cp.mtimeMs, file.mtimeMs)) return (cp.ctimeMs ?? file.ctimeMs) === file.ctimeMs ? 'unchanged' : 'verify';
  // What else changed is the provider's to judge: a line file checks the bytes before the offset (a
  // shrunk or rewritten file is read from 0), a database its own watermarks.
  return 'resume';
}

/**
 * Whether a checkpoint can tell its file's bytes from others' without a read of the whole file: a line
 * file's hashes of its head and of the bytes before its offset, a store's watermarks (its state). A
 * whole document's (a Gemini chat) or a compressed archive's has neither, and a file whose ctime alone
 * moved is not read whole for it: its same-size rewrite with its mtime set back goes unseen.
 */
function verifiable(cp: FileCheckpoint): boolean {
  return cp.headHash !== '' || cp.state !== null;
}

/**
 * Whether a read planned from this checkpoint starts at the file's start: none, or one with no offset
 * and no provider state to go on from. (A line file whose head changed since is read from 0 too, but
 * only its provider finds that out, once the read is under way: it does not refresh.)
 */
function readsFromStart(resumedFrom: FileCheckpoint | undefined): boolean {
  return resumedFrom === undefined || (resumedFrom.offset === 0 && resumedFrom.state === null);
}

/** The window a new checkpoint vouches for: the narrower of the one before its old offset and this run's. */
function coveredWindow(resumedFrom: FileCheckpoint | undefined, windowStartMs: number | null): number | null {
  if (!resumedFrom || resumedFrom.windowStartMs === null) return windowStartMs;
  return windowStartMs === null ? resumedFrom.windowStartMs : Math.max(resumedFrom.windowStartMs, windowStartMs);
}

interface FileIo {
  /** This file's read options (a resume point when a checkpoint allows one). */
  options: ReadOptions;
  /** A read from the file's start: parts already held are rewritten as this parser reads them. */
  refresh: boolean;
  /** Told how many parts each batch committed. */
  written: (parts: number) => void;
  /** Starts reading the files after this one, so parsing them overlaps this file's writes. */
  readAhead: () => void;
  progress: () => void;
  /** Gives the event loop a turn when this run has held it for a while, or when `now`. */
  yieldTurn: Pace;
}

interface FileOutcome {
  status: 'read' | 'cancelled' | 'failed' | 'vanished';
  /** Set when the file failed: the error's code, for the log and the tick result. */
  code?: string;
  /** The file failed in its own read (its bytes), not in Steward's writes nor for a passing reason: it is remembered. */
  unreadable?: boolean;
  partsWritten: number;
  messagesWritten: number;
  lines: LineStats;
  withheld: { forgotten: number; excluded: number };
}

/**
 * Read failures that say nothing of the file's bytes, so the file is not remembered as unreadable: the
 * system short of something, a store busy, the read worker gone, a cancel; and a permission refused,
 * which a chmod lifts without changing what a failure is recognised by (inode, size, mtime). Such a
 * file is tried again on the next tick (a refused open reads no byte), and stays Steward's error.
 */
const PASSING = [
  ...['worker_exit', 'cancelled', 'AbortError'],
  ...['EACCES', 'EPERM', 'EMFILE', 'ENFILE', 'ENOMEM', 'EAGAIN', 'EBUSY', 'EINTR', 'EIO', 'ETIMEDOUT'],
  // A network or FUSE mount that dropped, a file the cloud evicted: the file is as it was, the mount is not.
  ...['ESTALE', 'ENOTCONN', 'EDEADLK'],
  // SQLite says CANTOPEN where the system said EACCES (a store a chmod lifts), READONLY where a WAL's -shm cannot be made.
  ...['SQLITE_NOMEM', 'SQLITE_IOERR', 'SQLITE_INTERRUPT', 'SQLITE_PROTOCOL', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'],
];

/**
 * Read failures of a file caught in another program's hands: an OpenClaw store it held locked (BUSY,
 * LOCKED), or wrote while Steward read it without locks (store_changed). The file's, as one caught
 * mid-write is: named to the person and said to wait (remedyOf), not an error of Steward's. But it is
 * tried again every tick, changed or not: a lock is let go without the file changing.
 */
const RETRIED = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'store_changed'];

function oneOf(codes: readonly string[], code: string): boolean {
  return codes.some((p) => code === p || code.startsWith(`${p}_`));
}

function passing(code: string): boolean {
  return oneOf(PASSING, code);
}

/** Whether a file that failed by `code` is read again on the next tick even while it is as it was (see RETRIED). */
function retriedEachTick(code: string): boolean {
  return oneOf(RETRIED, code);
}

/**
 * A read's own failure by one code whichever thread read the file (a reader that threw without a code
 * of its own could not make sense of the bytes, and the read worker says so as `read_failed`), and
 * whether it is the file's (remembered as unreadable) or passing (tried again next tick).
 */
export function readFailure(thrown: string): { code: string; unreadable: boolean } {
  const code = thrown === 'internal' || (JS_ERROR.test(thrown) && !passing(thrown)) ? 'read_failed' : thrown;
  return { code, unreadable: !passing(code) };
}

/** A JavaScript error's class (`TypeError`), which the in-thread reader's code is when it threw one. */
const JS_ERROR = /^[A-Z][A-Za-z]*Error$/;

/** Reads one file and materializes its batches inside the run's commit window. */
async function importFile(provider: TranscriptProvider, file: TranscriptFile, deps: BackfillDeps, io: FileIo, ctx: RunContext): Promise<FileOutcome> {
  const { options, progress } = io;
  const outcome: FileOutcome = { status: 'read', partsWritten: 0, messagesWritten: 0, lines: { lines: 0, failedLines: 0, oversizeLines: 0, bytesRead: 0 }, withheld: { forgotten: 0, excluded: 0 } };
  // Set while a batch is being written: a failure then is Steward's (its store), not the file's.
  let writing = false;
  deps.checkpoints?.fileBegins();
  try {
    const read = deps.reader ? deps.reader.read(provider, file, options, outcome.lines) : provider.read(file, options, outcome.lines);
    // A line file in which no line could be read fails whole, as a document that does not parse.
    const batches = failWhenNothingRead(file.path, read, outcome.lines);
    // After this file's read began (it may adopt the read-ahead started for it), never before.
    io.readAhead();
    for await (const batch of batches) {
      writing = true;
      deps.commits.open();
      const appended = deps.materializer.materialize(ctx.token, batch, { refresh: io.refresh, file: file.path });
      const rows = appended.partsAppended + appended.partsRefreshed + appended.sessionsAppended;
      outcome.withheld.forgotten += appended.withheld.forgotten;
      outcome.withheld.excluded += appended.withheld.excluded;
      // Lines another file holds in other words are lines that yielded nothing stored: counted with them.
      if (appended.copiesDiffering > 0) addSkipped(outcome.lines, 'differing_copy', appended.copiesDiffering);
      // Counted as they land: a copy of a part committed under another session is not new.
      outcome.partsWritten += appended.partsWritten;
      outcome.messagesWritten += appended.messagesWritten;
      if (appended.partsWritten > 0) io.written(appended.partsWritten);
      const due = deps.commits.add(rows, appended.textAppended);
      progress();
      await io.yieldTurn(due);
      // A commit writes the window's pages at once: it gets a turn of its own, before and after. While
      // a WAL checkpoint writes the disk it waits, and the window keeps filling. Every few commits the
      // next window waits for the whole WAL to be copied, so it can start the file over.
      if (due && deps.commits.commitWhenQuiet()) {
        await deps.commits.settle();
        await io.yieldTurn(true);
      }
      if (ctx.signal?.aborted) {
        outcome.status = 'cancelled';
        break;
      }
      writing = false;
    }
  } catch (error) {
    outcome.code = errorCode(error);
    // Deleted between the listing and the read (a session cleaned up, a log rotated): nothing failed.
    outcome.status = outcome.code === 'ENOENT' ? 'vanished' : 'failed';
    if (outcome.status === 'failed' && !writing) Object.assign(outcome, readFailure(outcome.code));
  }
  return outcome;
}

/**
 * Remembers a file that could not be read, as it was listed, so the next ticks do not read it again
 * until it changes. Remembering is a convenience: if it cannot be written (a read-only store), the
 * file is only read again, and the run goes on.
 */
function rememberUnreadable(provider: TranscriptProvider, file: TranscriptFile, code: string, deps: BackfillDeps): void {
  try {
    deps.checkpoints?.recordFailure(provider.id, file, provider.parserVersion, code);
  } catch (error) {
    deps.logger.warn('could not remember an unreadable transcript file', { provider: provider.id, code: errorCode(error) });
  }
}

/** A file read through (or gone) is no longer one that could not be read. */
function forgetUnreadable(provider: TranscriptProvider, paths: Iterable<string>, deps: BackfillDeps): void {
  try {
    deps.checkpoints?.clearFailures(provider.id, paths);
  } catch (error) {
    deps.logger.warn('could not forget an unreadable transcript file', { provider: provider.id, code: errorCode(error) });
  }
}

function addSkipped(lines: LineStats, reason: SkipReason, n: number): void {
  lines.skipped ??= {};
  lines.skipped[reason] = (lines.skipped[reason] ?? 0) + n;
}

/** Parts held back on purpose are counted, never dropped silently; the field appears once one was. */
function addWithheld(stats: ProviderStats, withheld: FileOutcome['withheld']): void {
  if (withheld.forgotten === 0 && withheld.excluded === 0) return;
  const total = (stats.withheld ??= { forgotten: 0, excluded: 0 });
  total.forgotten += withheld.forgotten;
  total.excluded += withheld.excluded;
}

/** The files from `from` on that the run will read, in order, as the reader's read-ahead takes them. */
function* toRead(files: readonly TranscriptFile[], plans: readonly FilePlan[], from: number): Generator<UpcomingRead> {
  for (let j = from; j < plans.length; j += 1) {
    const plan = plans[j]!;
    if (!plan.skip) yield { file: files[j]!, options: plan.options };
  }
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
  const { provider, discovered, read, unchanged, vanished, failed, failedLines, partsWritten, durationMs, bytesRead } = stats;
  const reader = deps.reader?.usesWorker ? 'worker' : 'thread';
  // Counts by reason only: never which file, never what a line said.
  const skipped = Object.entries(stats.skipped ?? {})
    .map(([reason, n]) => `${reason}:${n}`)
    .join(',');
  const cancel = stats.cancelled ? { cancelled: true, notReached: stats.notReached ?? 0 } : {};
  // How many of the failures are files that could not be read, and how many of those were not opened again.
  const unreadable = stats.unreadable ? { unreadable: stats.unreadable.reduce((n, e) => n + e.count, 0), unreadableUnchanged: stats.unreadableUnchanged ?? 0 } : {};
  const fields = { provider, scheduled: ctx.scheduled, reader, discovered, read, unchanged, outsideWindow: stats.outsideWindow, vanished, failed, failedLines, skipped, bytesRead, partsWritten, durationMs, ...unreadable, ...cancel };
  if (!stats.errors?.length) return deps.logger.info('transcript scan', fields);
  // Codes only: which file failed would be a path, and what it said would be transcript text.
  const errors = stats.errors.map((e) => `${e.code}:${e.count}`).join(',');
  // Files already known unreadable and unchanged since were warned of when they failed: every tick
  // would otherwise warn again of the same file, and a warning that never stops is one nobody reads.
  if (stats.failed === (stats.unreadableUnchanged ?? 0)) return deps.logger.info('transcript scan', { ...fields, errors });
  deps.logger.warn('transcript scan had failures', { ...fields, errors });
}

/**
 * A run a cancel stopped says so, with the files it never read through: a cancelled run must not read
 * as a finished one. A cancelled listing found only part of the tree, so its files are all not reached.
 */
function markCancelled(stats: ProviderStats, notReached: number): void {
  stats.cancelled = true;
  stats.notReached = notReached;
}

/** A transcript's lines that failed or held nothing to import, and the bytes read of it. */
function addLines(stats: ProviderStats, lines: LineStats): void {
  stats.failedLines += lines.failedLines + lines.oversizeLines;
  for (const [reason, n] of Object.entries(lines.skipped ?? {}) as Array<[SkipReason, number]>) {
    stats.skipped ??= {};
    stats.skipped[reason] = (stats.skipped[reason] ?? 0) + n;
  }
  stats.bytesRead = (stats.bytesRead ?? 0) + (lines.bytesRead ?? 0);
}

/**
 * A read file's new checkpoint, in the commit window of its last rows (a fresh one if that one committed).
 * `excluded`: parts of this read a folder exclusion held back; with those before a resume point, they
 * mark the checkpoint, so that lifting the exclusion has the file read again (FileCheckpoints.releaseLifted).
 */
function saveCheckpoint(provider: TranscriptProvider, file: TranscriptFile, lines: LineStats, excluded: number, resumedFrom: FileCheckpoint | undefined, deps: BackfillDeps, ctx: RunContext): void {
  const end = lines.checkpoint;
  if (!deps.checkpoints || !end) return;
  deps.commits.open();
  deps.checkpoints.put(provider.id, {
    path: file.path,
    dev: file.dev,
    ino: file.ino,
    size: file.size,
    mtimeMs: file.mtimeMs,
    ctimeMs: file.ctimeMs,
    offset: end.offset,
    headHash: end.headHash,
    tailHash: end.tailHash,
    parserVersion: provider.parserVersion,
    windowStartMs: coveredWindow(resumedFrom, ctx.windowStartMs),
    state: stateText(end.state),
    olderLeftOut: olderLeftOut(lines, resumedFrom, coveredWindow(resumedFrom, ctx.windowStartMs)),
    heldBack: excluded > 0 || resumedFrom?.heldBack === true,
    readWhole: readWhole(lines, excluded),
    holds: end.holds,
    heldIn: end.heldIn,
  });
  deps.commits.add(1, 0);
}

/** Keeps the new ctime of a file its checkpoint vouches for (CTIME_MOVED), in the run's commit window. */
function keepCtime(provider: TranscriptProvider, file: TranscriptFile, deps: BackfillDeps): void {
  if (!deps.checkpoints) return;
  deps.commits.open();
  deps.checkpoints.keepCtime(provider.id, file.path, file.ctimeMs);
  deps.commits.add(1, 0);
}

/**
 * Whether the read met every conversation the file holds (FileCheckpoint.readWhole): from its start,
 * no line left out, and not a store's read, which goes on per session (it keeps its own count of older lines).
 */
function readWhole(lines: LineStats, excluded: number): boolean {
  const leftOut = (lines.skipped?.outside_window ?? 0) + lines.failedLines + lines.oversizeLines + excluded;
  return !lines.resumed && lines.checkpoint?.olderLeftOut === undefined && leftOut === 0;
}

/** A provider's state as the checkpoint stores it (JSON text). */
function stateText(state: unknown): string | null {
  return state === null || state === undefined ? null : JSON.stringify(state);
}

/**
 * The lines a file's checkpoint says were left out as older than the window (`covered`, the one it
 * vouches for): what this read left out, plus, when it went on from the checkpoint before, what that
 * one said; unknown (null) when that one did not know. A read from the start (a file rewritten or
 * replaced, a new parser, a wider window, any manual run) counts them afresh, never twice.
 */
function olderLeftOut(lines: LineStats, resumedFrom: FileCheckpoint | undefined, covered: number | null): number | null {
  // Every read up to here had an open window: nothing was older than it.
  if (covered === null) return 0;
  // A store that reads on per session keeps its own count.
  if (lines.checkpoint?.olderLeftOut !== undefined) return lines.checkpoint.olderLeftOut;
  const read = lines.skipped?.outside_window ?? 0;
  if (!lines.resumed || !resumedFrom) return read;
  return resumedFrom.olderLeftOut === null ? null : resumedFrom.olderLeftOut + read;
}

/**
 * A manual run read whole a file its checkpoint vouches for: the checkpoint is kept, but a count of
 * older lines it does not know (kept from before it was counted) is taken from this read, when this
 * read's window reached as far back (FileCheckpoints.recountOlder). With it goes the provider's state
 * when the provider keeps its count there, so that the next read on from it adds to a known count.
 */
function recountOlder(provider: TranscriptProvider, file: TranscriptFile, lines: LineStats, excluded: number, deps: BackfillDeps, ctx: RunContext): void {
  const end = lines.checkpoint;
  const older = end ? olderLeftOut(lines, undefined, ctx.windowStartMs) : null;
  if (!deps.checkpoints || !end || older === null) return;
  deps.commits.open();
  if (deps.checkpoints.recountOlder(provider.id, file.path, older, end.olderLeftOut === undefined ? null : stateText(end.state), ctx.windowStartMs, Date.now(), { readWhole: readWhole(lines, excluded), holds: end.holds, heldIn: end.heldIn })) deps.commits.add(1, 0);
}

/**
 * Per file: skipped (unchanged, outside the window, or unreadable as it was: each counted as such), or read with these
 * options. `vouched`: a manual run reads the file anyway, but the checkpoint there already vouches
 * for it as it is (this parser, a window at least as wide): it is kept, not narrowed to the manual
 * run's window; only a count of older lines it does not know may be taken from the read (recountOlder).
 */
type FilePlan =
  | { skip: 'unchanged' | 'outsideWindow' }
  /** Could not be read when last tried and unchanged since: not opened, and counted failed again. */
  | { skip: 'unreadable'; code: string }
  /**
   * `known`: a manual run reads again a file remembered unreadable and unchanged since (a retry on request);
   * the code it failed by then. Failing again by it, the file is still unreadable, no failure of this run.
   */
  | { skip: false; options: ReadOptions; resumedFrom: FileCheckpoint | undefined; vouched?: boolean; known?: string; verify?: true }
  /** Only the file's ctime moved, by its move or with nothing to verify (see `verifiable`): unchanged, its new ctime kept. */
  | { skip: 'unchanged'; keepCtime: true };
const UNCHANGED: FilePlan = { skip: 'unchanged' };
const CTIME_MOVED: FilePlan = { skip: 'unchanged', keepCtime: true };
/** Never opened, whatever the fingerprints say: counted apart, so "up to date" never means "not read". */
const OUTSIDE_WINDOW: FilePlan = { skip: 'outsideWindow' };

/**
 * Files that moved since their checkpoint was written (Codex moves a rollout to archived_sessions/,
 * OpenClaw renames a reset session's file): a file with no checkpoint of its own takes the one left at
 * a path no longer there with the same device and inode, so the move reads nothing. What the
 * checkpoint then allows is judged as for any file (size, mtime, the bytes before its offset).
 */
class MovedFiles {
  /** The paths the walk found (asked only once a file has no checkpoint of its own). */
  readonly #present: () => Promise<ReadonlySet<string>>;
  #byInode: Map<string, string> | undefined;

  constructor(present: () => Promise<ReadonlySet<string>>) {
    this.#present = present;
  }

  /** The path whose checkpoint `file` takes over, now re-keyed in `loaded` (the run's checkpoints); undefined when none. */
  async from(file: TranscriptFile, loaded: Map<string, CheckpointIdentity>): Promise<string | undefined> {
    if (loaded.has(file.path)) return undefined;
    if (!this.#byInode) {
      const present = await this.#present();
      this.#byInode = new Map([...loaded].filter(([path]) => !present.has(path)).map(([path, cp]) => [`${cp.dev}:${cp.ino}`, path]));
    }
    const key = `${file.dev}:${file.ino}`;
    const from = this.#byInode.get(key);
    // A move keeps the name or adds to it (`archived_sessions/<same name>`, `<id>.jsonl.reset.<ts>`); a
    // new transcript given a deleted one's inode (ext4 reuses it at once) is not that transcript.
    if (from === undefined || !basename(file.path).startsWith(basename(from))) return undefined;
    this.#byInode.delete(key);
    loaded.set(file.path, loaded.get(from)!);
    loaded.delete(from);
    return from;
  }
}

/**
 * Plans every file of a run. The process-local map is the first check; the durable checkpoints are
 * loaded (once, in pages) only when a file is not answered by it — after a restart, or when files changed —
 * so an unchanged tick reads nothing from them. Checkpoints of files a complete walk no longer finds
 * are forgotten (their rows stay).
 */
async function planFiles(provider: TranscriptProvider, discovery: DiscoveryResult, deps: BackfillDeps, ctx: RunContext, yieldTurn: Pace): Promise<FilePlan[]> {
  const base: ReadOptions = { maxLineBytes: ctx.maxLineBytes, windowStartMs: ctx.windowStartMs, batchParts: BATCH_PARTS };
  const { files } = discovery;
  // A cancelled walk saw only part of the tree: forgetting the rest would make the next tick reread it.
  const complete = ctx.scheduled && !discovery.cancelled;
  const gone = complete ? deps.fingerprints.retainOnly(provider.id, files) : [];
  let loaded: Map<string, CheckpointIdentity> | undefined;
  const load = async () => (loaded ??= (await deps.checkpoints?.identities(provider.id)) ?? new Map<string, CheckpointIdentity>());
  // The walk's paths, built only when asked (a file with no checkpoint, checkpoints or failures to weigh
  // against the walk: an unchanged tick asks nothing of it), with turns: 20,000 paths at once held the loop 5 ms and more.
  let present: Set<string> | undefined;
  const presentPaths = async (): Promise<ReadonlySet<string>> => {
    if (present) return present;
    const paths = new Set<string>();
    for (const file of files) {
      paths.add(file.path);
      const due = yieldTurn();
      if (due) await due;
    }
    return (present = paths);
  };
  const moves = ctx.scheduled ? new MovedFiles(presentPaths) : undefined;
  // Files older than the schedule's window are not tried: one that could not be read is no longer said
  // to be waiting to be. (A manual run's window may be narrower; the schedule still tries those.)
  const aged: string[] = [];
  /** What a file's own facts answer, with no checkpoint asked: older than the window, or unchanged since this process read it. */
  const known = (file: TranscriptFile): FilePlan | undefined => {
    if (outsideWindow(file, ctx.windowStartMs)) return aged.push(file.path), OUTSIDE_WINDOW;
    if (ctx.scheduled && deps.fingerprints.isUnchanged(file)) return UNCHANGED;
    return undefined;
  };
  /** A moved file takes its checkpoint and holds with it (see MovedFiles); what they allow is judged after. */
  const takeOver = async (file: TranscriptFile, checkpoints: Map<string, CheckpointIdentity>): Promise<boolean> => {
    const from = await moves?.from(file, checkpoints);
    if (from !== undefined) deps.checkpoints?.move(provider.id, from, file.path);
    return from !== undefined;
  };
  /**
   * A file older than the window is never read, so at a path this run does not know it may be one the
   * agent moved (Codex archiving an old rollout, OpenClaw resetting an old session): unmoved, its old
   * path's holds would be marked gone when the walk misses it, and stay so, the file never read to
   * bring them back. It takes them over unread, as a file inside the window would before its read.
   */
  const agedMove = async (file: TranscriptFile): Promise<void> => {
    if (!moves || deps.fingerprints.isUnchanged(file)) return;
    const checkpoints = await load();
    if (!checkpoints.has(file.path)) await takeOver(file, checkpoints);
  };
  const plan = async (file: TranscriptFile): Promise<FilePlan> => {
    // A file caught in another program's hands is tried again, and its failure is new each time (RETRIED).
    const failure = deps.checkpoints?.failedAsIs(provider.id, file, provider.parserVersion);
    const known = failure && !retriedEachTick(failure.code) ? failure.code : undefined;
    // A manual run reads it anyway: a backfill is how a person asks for a file to be tried again.
    if (known !== undefined && ctx.scheduled) return { skip: 'unreadable', code: known };
    const checkpoints = await load();
    // Only a file with no checkpoint of its own may have taken one over (MovedFiles.from).
    const moved = !checkpoints.has(file.path) && (await takeOver(file, checkpoints));
    const verdict = checkpointPlan(file, checkpoints.get(file.path), provider.parserVersion, ctx.windowStartMs);
    if (!ctx.scheduled) return { skip: false, options: base, resumedFrom: undefined, vouched: verdict === 'unchanged', ...(known !== undefined ? { known } : {}) };
    if (verdict === 'unchanged') return UNCHANGED;
    // A rename moves the ctime: a move the agent made (archiving, a reset) reads nothing for it.
    if (verdict === 'verify' && moved) return CTIME_MOVED;
    const resumed = verdict === 'resume' || verdict === 'verify' ? deps.checkpoints?.get(provider.id, file.path) : undefined;
    if (verdict === 'verify' && resumed && !verifiable(resumed)) return CTIME_MOVED;
    // A file whose ctime alone moved is read on from its checkpoint: its provider verifies the bytes before
    // the offset (the hashes, a store's watermarks) and reads from 0 only when they differ.
    const verify = verdict === 'verify' ? { verify: true as const } : {};
    return { skip: false, options: resumed ? { ...base, resume: { offset: resumed.offset, headHash: resumed.headHash, tailHash: resumed.tailHash, state: parseState(resumed.state) } } : base, resumedFrom: resumed, ...verify };
  };
  const plans: FilePlan[] = [];
  // A tree of 20,000 files takes tens of milliseconds to plan: the event loop gets its turns meanwhile.
  for (const file of files) {
    const answered = known(file);
    if (answered === OUTSIDE_WINDOW) await agedMove(file);
    plans.push(answered ?? (await plan(file)));
    const due = yieldTurn();
    if (due) await due;
  }
  if (complete && loaded) {
    const found = await presentPaths();
    // As many checkpoints as files after a restart: weighed with turns, as the files were.
    for (const path of loaded.keys()) {
      if (!found.has(path)) gone.push(path);
      const due = yieldTurn();
      if (due) await due;
    }
  }
  if (gone.length > 0) await deps.checkpoints?.remove(provider.id, [...new Set(gone)]);
  if (complete && deps.checkpoints && deps.checkpoints.hasFailures(provider.id)) forgetUnreadable(provider, deps.checkpoints.failuresGone(provider.id, await presentPaths()), deps);
  if (ctx.scheduled && aged.length > 0) forgetUnreadable(provider, aged, deps);
  return plans;
}

/**
 * One provider invocation: enumerate the roots, read and project only what is new or changed (for
 * a scheduled run: by the process-local fingerprint map, then the durable checkpoints), materialize
 * every batch under the run token, then drain what an older version left in the spool.
 */
export async function runBackfillProvider(provider: TranscriptProvider, deps: BackfillDeps, ctx: RunContext): Promise<ProviderStats> {
  const started = performance.now();
  const stats: ProviderStats = { provider: provider.id, discovered: 0, read: 0, unchanged: 0, outsideWindow: 0, vanished: 0, failed: 0, partsWritten: 0, durationMs: 0, failedLines: 0, skipped: {}, bytesRead: 0 };
  const errors = new CodeTally();
  const unreadable = new CodeTally();
  const discovery = await provider.discover(ctx.signal);
  const { files } = discovery;
  // Transcripts only: a file that only describes them is read, and counted as none (describesOnly).
  let transcripts = 0;
  for (const file of files) if (!file.describesOnly) transcripts += 1;
  stats.discovered = transcripts;
  stats.failed += discovery.failed;
  errors.addAll(discovery.errors);
  // Folders the walk could not open are no transcript file: said apart, so the files' counts add up.
  if (discovery.errors?.length) stats.foldersFailed = discovery.errors.map((e) => ({ ...e }));
  // Batches read ahead arrive already queued, and awaiting one is then only a microtask: without
  // an explicit turn the loop would hold the event loop for as long as the queue stays full.
  const yieldTurn = pacer(HOLD_MS);
  const plans = await planFiles(provider, discovery, deps, ctx, yieldTurn);
  const progress = progressReporter(provider, ctx, transcripts, stats);
  let done = 0;
  /** The index of the file a cancel stopped the run at (not read through); undefined when it ran to the end. */
  let stoppedAt: number | undefined;
  let written = 0;
  let messagesWritten = 0;
  const inStep = ctx.inStepIndexParts ?? IN_STEP_INDEX_PARTS;
  if (bytesToRead(files, plans) > (ctx.inStepIndexBytes ?? IN_STEP_INDEX_BYTES)) deps.sink.deferIndexing();
  const countWritten = (parts: number) => {
    written += parts;
    if (written > inStep) deps.sink.deferIndexing();
  };
  try {
    for (const [i, file] of files.entries()) {
      if (ctx.signal?.aborted) {
        stoppedAt = i;
        break;
      }
      if (!file.describesOnly) done += 1;
      const plan = plans[i]!;
      if (plan.skip === 'unreadable') {
        // Still failing, so still counted so; but no byte of it is read until it changes.
        stats.failed += 1;
        errors.add(plan.code);
        unreadable.add(plan.code);
        stats.unreadableUnchanged = (stats.unreadableUnchanged ?? 0) + 1;
        continue;
      }
      if (plan.skip) {
        // A file that only describes transcripts is counted as none of them, whichever the skip.
        if (!file.describesOnly) {
          if (plan.skip === 'outsideWindow') stats.outsideWindow = (stats.outsideWindow ?? 0) + 1;
          else stats.unchanged += 1;
        }
        if (plan === CTIME_MOVED) keepCtime(provider, file, deps);
        if (ctx.scheduled) deps.fingerprints.advance(file, provider.id);
        // Skipping 20,000 unchanged files is tens of milliseconds too.
        const due = yieldTurn();
        if (due) await due;
        continue;
      }
      const readAhead = () => deps.reader?.readAhead(provider, toRead(files, plans, i + 1));
      // A read from the file's start refreshes the rows it meets. Without a checkpoint, this parser
      // version may be reading the file for the first time over rows an older one wrote (the
      // parser-version upgrade). A manual run always reads from 0, so it always refreshes: the
      // checkpoint it leaves vouches for rows as this parser reads them, and the upgrade a scheduled
      // run would have made is not skipped. A checkpoint with nothing to go on from (Gemini's: a chat
      // re-emits and rewinds what it holds, so it is read whole) is a read from the start too: what
      // changed in a message already stored lands on the tick that reads it.
      const refresh = readsFromStart(plan.resumedFrom);
      const outcome = await importFile(provider, file, deps, { options: plan.options, refresh, readAhead, written: countWritten, progress: () => progress(done), yieldTurn }, ctx);
      stats.partsWritten += outcome.partsWritten;
      messagesWritten += outcome.messagesWritten;
      // A file that only describes transcripts holds no transcript line: its lines and bytes are none of the run's.
      if (!file.describesOnly) addLines(stats, outcome.lines);
      addWithheld(stats, outcome.withheld);
      if (outcome.status === 'failed') {
        stats.failed += 1;
        errors.add(outcome.code ?? 'internal');
        if (outcome.unreadable) {
          const code = outcome.code ?? 'read_failed';
          unreadable.add(code);
          // Read again on request and failing as it did, unchanged: still unreadable (a warning), and already remembered.
          if (code === plan.known) stats.unreadableUnchanged = (stats.unreadableUnchanged ?? 0) + 1;
          else rememberUnreadable(provider, file, code, deps);
        }
      }
      if (outcome.status === 'vanished') {
        if (!file.describesOnly) stats.vanished = (stats.vanished ?? 0) + 1;
        forgetUnreadable(provider, [file.path], deps);
      }
      // A cancelled file was not read through: its fingerprint stays behind so the next run reads it.
      if (outcome.status === 'cancelled') {
        stoppedAt = i;
        break;
      }
      if (outcome.status !== 'read') continue;
      // A file verified (its ctime alone moved) that held no line past its offset is as it was: unchanged.
      if (!file.describesOnly) {
        if (plan.verify && outcome.lines.lines === 0) stats.unchanged += 1;
        else stats.read += 1;
      }
      forgetUnreadable(provider, [file.path], deps);
      // Only once the file was read, every session it yielded consumed and their rows committed. A
      // manual run reads whatever the checkpoints say, then leaves one for what it read (with its own
      // window, which may be narrower), so the next scheduled tick does not read the file again. The
      // process-local map knows no window: only a scheduled run advances it.
      if (plan.vouched) recountOlder(provider, file, outcome.lines, outcome.withheld.excluded, deps, ctx);
      else saveCheckpoint(provider, file, outcome.lines, outcome.withheld.excluded, plan.resumedFrom, deps, ctx);
      if (ctx.scheduled) deps.commits.afterCommit(() => deps.fingerprints.advance(file, provider.id));
    }
  } finally {
    deps.reader?.cancelReadAhead();
    deps.commits.commit();
  }
  try {
    const drained = await deps.sink.drain();
    stats.partsWritten += drained.partsWritten;
    messagesWritten += drained.messagesWritten;
  } finally {
    deps.sink.resumeIndexing();
  }
  progress(done, true);
  if (stoppedAt !== undefined || discovery.cancelled) markCancelled(stats, stoppedAt === undefined ? 0 : files.length - stoppedAt);
  stats.messagesWritten = messagesWritten;
  stats.errors = errors.list();
  if (unreadable.size > 0) stats.unreadable = unreadable.list();
  stats.durationMs = Math.round(performance.now() - started);
  logScan(deps, ctx, stats);
  return stats;
}
