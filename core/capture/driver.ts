import { effectiveWindowDays, explicitWindowDays, newRunToken, pruneCutoffs, runBackfillProvider, windowSource, windowStart, type BackfillProgress, type PrunePass, type ProviderStats } from '../backfill/index.js';
import picomatch from 'picomatch';
import { PROVIDER_IDS, type ForgetKind, type Params, type ProviderId, type PruneReport, type Result, type TelemetryEntry } from '../api/index.js';
import type { Config } from '../config/index.js';
import { Checkpointer, CommitWindow, FileCheckpoints, type CommitWindowLimits, type HoldingFile, Materializer, mtimeVouches, RetentionPruner, Sink, Spool, StoredSpans, turn, type ProjectKeys, type SurveyedCheckpoint, type UserTurns } from '../gateway/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { folderHashOf } from '../projects/index.js';
import type { Db } from '../store/index.js';
import { createProviders, FingerprintMap, TranscriptReader, type FolderList, type TranscriptFile, type TranscriptProvider } from '../transcripts/index.js';
import { ProjectAssignment } from './assign.js';
import { SweepScheduler, type ProviderFailure, type TickTrigger } from './queue.js';
import { isCheck, lastCheckIn, recordPrune, recordRun, type Record } from './telemetry.js';

export interface CaptureOptions {
  db: Db;
  config: Config;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /**
   * Where committed sessions' working directories become project keys; with the folders it knows
   * (the projects room's), a Gemini chat known only by its folder's hash joins that folder's project.
   */
  projects: ProjectKeys & Partial<FolderList>;
  /** Records one telemetry row (counts and durations only). */
  record: Record;
  /** Reads stored telemetry rows of one kind, newest first: where the last check before this start is found. */
  recent?: (limit: number, kind: string) => TelemetryEntry[];
  onTick?: (providers: ProviderStats[], kind: 'scheduled' | 'manual') => void;
  onProgress?: (progress: BackfillProgress) => void;
  onBusy?: (busy: boolean, failed: readonly ProviderFailure[]) => void;
  /** Replaces the provider registry (benchmarks, tests with extra providers). */
  providers?: TranscriptProvider[];
  /** true/false forces the read worker on/off; unset lets the reader decide by core count. */
  readWorker?: boolean;
  /** Parts a run indexes in step before leaving the rest to the background index walk (tests, benchmarks). */
  inStepIndexParts?: number;
  /** Bytes a run may read and still index in step (tests). */
  inStepIndexBytes?: number;
  /** The commit window's limits (tests); the gateway's defaults otherwise. */
  commitLimits?: Partial<CommitWindowLimits>;
}

export type BackfillRequest = Params<'Backfill.Run'>;

/** `capture.exclude`: a folder matches as itself or as a parent (`/work/secret/**` covers `/work/secret`). */
function excludedFolders(globs: readonly string[]): (cwd: string) => boolean {
  if (globs.length === 0) return () => false;
  const matches = picomatch([...globs], { dot: true });
  return (cwd) => {
    const path = cwd.replace(/\\/g, '/');
    return matches(path) || matches(`${path}/`);
  };
}

/** The exclusion as checkpoints remember it: its globs, each once, in order (the same folders in any order are the same exclusion). */
function exclusionSignature(globs: readonly string[]): string[] {
  return [...new Set(globs)].sort();
}

/**
 * Those of `files` read whole (with no window: an import of everything) and unchanged since, by
 * their checkpoints: Home offers to import only the rest. A pass of an explicit retention policy
 * removes their old rows but not the checkpoint; importing them again would only be removed again.
 */
function readWhole(files: readonly TranscriptFile[], held: ReadonlyMap<string, SurveyedCheckpoint>): TranscriptFile[] {
  return files.filter((f) => {
    const cp = held.get(f.path);
    return cp !== undefined && cp.windowStartMs === null && cp.size === f.size && mtimeVouches(cp.mtimeMs, f.mtimeMs);
  });
}

/**
 * The lines left out as older than the window `cutoff` starts at, in those of `files` changed since
 * it, as their checkpoints say; and the files among them whose count does not say it: not known (a
 * checkpoint from before it was kept), or taken with a narrower window (the next scheduled tick reads
 * the file again from the start, and imports some of what it left out). A narrower read that left
 * nothing out is counted: nothing in its file is older than the window either.
 */
function leftOut(files: readonly TranscriptFile[], cutoff: number, held: ReadonlyMap<string, SurveyedCheckpoint>): { olderMessages: number; olderUncounted: number } {
  const out = { olderMessages: 0, olderUncounted: 0 };
  for (const f of files) {
    const cp = f.mtimeMs < cutoff ? undefined : held.get(f.path);
    if (!cp || cp.olderLeftOut === 0) continue;
    if (cp.olderLeftOut === null || (cp.windowStartMs !== null && cp.windowStartMs > cutoff)) out.olderUncounted += 1;
    else out.olderMessages += cp.olderLeftOut;
  }
  return out;
}

const SINK_TICK_MS = 2_000;
/**
 * A line's timestamp is taken a moment before the line is written, so a turn stamped just before a
 * tick started may be read only by the next one: it still counts as live.
 */
const LIVE_SLACK_MS = 120_000;
/** How many unreadable files a run's result or a listing names unless asked for more: each is a path. */
const UNREADABLE_LISTED = 100;
/** The first automatic cache-maintenance pass waits this long after start (or one interval if shorter). */
const FIRST_PRUNE_DELAY_MS = 60_000;
/** Sessions a move to a newly known folder re-keys in one transaction, between turns of the event loop. */
const MOVE_STEP_ROWS = 250;
/** Folder hashes the policy keeps (folderHashOf): a store holds far fewer folders than this. */
const FOLDER_HASHES = 4096;

/**
 * Capture (spec 000): the provider registry, the process-local fingerprint map, the gateway
 * materializer/spool/sink, and the serial queue that runs them. Other rooms speak to it through its
 * intentions (tick, backfill, cancel, prune, start, stop); its parts stay inside.
 */
export class Capture {
  /** Read by tests and benchmarks only (which providers, what the map holds, how the reader read). */
  readonly providers: TranscriptProvider[];
  readonly fingerprints = new FingerprintMap();
  readonly reader: TranscriptReader;
  readonly #materializer: Materializer;
  readonly #sink: Sink;
  readonly #commits: CommitWindow;
  readonly #checkpoints: FileCheckpoints;
  readonly #scheduler: SweepScheduler;
  readonly #checkpointer: Checkpointer;
  readonly #pruner: RetentionPruner;
  readonly #spans: StoredSpans;
  readonly #options: CaptureOptions;
  readonly #assignment: ProjectAssignment;
  /**
   * The projects whose sessions a move to the project they are assigned now holds back (a "folder
   * unknown" project's, a later spelling's), either project being forgotten: asked again on each run,
   * so an Unforget has the next one move them.
   */
  readonly #heldBack = new Set<string>();
  #pruneTimer: NodeJS.Timeout | undefined;
  readonly #turnListeners = new Set<(turns: UserTurns[]) => void>();
  /**
   * Turns stamped before this are history being imported (a cold import, a backfill, a new root),
   * not live work: the owner's start, then the start of the last completed scheduled tick.
   */
  #liveSince = Date.now() - LIVE_SLACK_MS;
  /** Whether the schedule skips its ticks now; set once it starts. */
  #schedule: { paused: () => boolean } | undefined;
  /** How often the schedule ticks: the configuration's at start, a saved one's since (reschedule). */
  #intervalMs: number;
  #lastTickAt: number | null = null;
  /** Sweep.Status's `lastCheckAt`: the last run that looked at every enabled agent's folders (see isCheck). */
  #lastCheckAt: number | null;

  constructor(options: CaptureOptions) {
    this.#options = options;
    this.#assignment = new ProjectAssignment(options.projects);
    this.#lastCheckAt = options.recent ? lastCheckIn(options.recent) : null;
    this.#intervalMs = options.config.sweep.interval_ms;
    this.providers = options.providers ?? createProviders(options.config, options.env);
    const excluded = excludedFolders(options.config.capture.exclude);
    // Asked for each session a batch names: one sha256 per distinct folder (bounded, as keys are).
    const folderHashes = new Map<string, string>();
    this.#sink = new Sink(options.db, this.#assignment.keys, options.logger);
    this.#materializer = new Materializer(options.db, new Spool(options.db), this.#sink, {
      projectKeyOf: (cwd) => this.#assignment.keys.keyOf(cwd),
      // As recorded or as assigned: an exclusion written for either spelling of a folder holds.
      excluded: (cwd) => excluded(cwd) || excluded(this.#assignment.folderOf(cwd)),
      formerKeysOf: (cwd) => this.#assignment.formerKeysOf(cwd),
      folderHashOf: (cwd) => {
        let hash = folderHashes.get(cwd);
        if (hash === undefined) {
          if (folderHashes.size >= FOLDER_HASHES) folderHashes.clear();
          folderHashes.set(cwd, (hash = folderHashOf(cwd)));
        }
        return hash;
      },
      // Written with the file's checkpoint (made below, before any run).
      held: (kind, id, ownFile, span, withheld) => this.#checkpoints.held(kind, id, ownFile, span, withheld),
      heldElsewhere: (sessionId, provider, file) => this.#checkpoints.heldElsewhere(sessionId, provider, file),
    });
    this.#sink.onUserTurns = (turns) => {
      const live = turns.filter((t) => t.at > this.#liveSince);
      if (live.length === 0) return;
      for (const listener of this.#turnListeners) listener(live);
    };
    this.#checkpointer = Checkpointer.of(options.db, options.logger);
    this.#checkpoints = new FileCheckpoints(options.db, exclusionSignature(options.config.capture.exclude), this.#checkpointer);
    // The exclusion is read once, at start: files it no longer holds back are read again from the next tick.
    this.#checkpoints.releaseLifted();
    // Started with the first write, not with the Core or a run: a CLI verb or a tick that imports
    // nothing (an unchanged or restarted one) spawns no thread.
    this.#commits = new CommitWindow(options.db, options.commitLimits ?? {}, { onOpen: () => this.#checkpointer.start(), gate: this.#checkpointer, settle: () => this.#checkpointer.settle() });
    this.#pruner = new RetentionPruner(options.db, this.#checkpointer);
    this.#spans = new StoredSpans(options.db);
    // STEWARD_READ_WORKER=1/0 forces the read worker on/off (tests of the built worker, diagnosis).
    const fromEnv = options.env.STEWARD_READ_WORKER === '1' ? true : options.env.STEWARD_READ_WORKER === '0' ? false : undefined;
    const readWorker = options.readWorker ?? fromEnv;
    this.reader = new TranscriptReader({ logger: options.logger, ...(readWorker === undefined ? {} : { worker: readWorker }) });
    this.#scheduler = new SweepScheduler({
      providers: this.#enabled().map((p) => p.id),
      run: (id, _kind, signal) => this.#run(id, true, windowStart(effectiveWindowDays(options.config, id)), signal),
      handoffMs: options.config.sweep.handoff_timeout_ms,
      logger: options.logger,
      // The one place a tick is recorded, whoever started it: the timer calls the queue, not tick() below.
      onTicked: ({ startedAt, trigger, queued }) => {
        this.#liveSince = Math.max(this.#liveSince, startedAt - LIVE_SLACK_MS);
        // A tick that only awaited runs already in flight is the check that queued them; that one records them
        // (as asked for by hand when a check by hand awaited it so: the queue's tick).
        // It looked at every enabled agent's folders: those it queued, and those in flight it awaited.
        if (queued.length > 0) this.#report(queued, 'scheduled', true, trigger);
      },
      ...(options.onBusy ? { onBusy: options.onBusy } : {}),
    });
  }

  /**
   * The check asked for by hand (Sweep.Tick): one scheduled tick now, a provider already in flight
   * awaited, not run twice; the running schedule's next tick then falls an interval after it ends
   * (checkNow). Recorded (like every tick) by the queue's `onTicked`.
   */
  tick(): Promise<ProviderStats[]> {
    return this.#scheduler.checkNow();
  }

  /**
   * A manual or onboarding backfill: ignores the fingerprint map and uses the requested window.
   * "All" is every enabled provider in registry order; one the user switched off runs only when named.
   */
  async backfill(request: BackfillRequest): Promise<ProviderStats[]> {
    const wanted = request.provider && request.provider !== 'all' ? [request.provider] : this.#enabled().map((p) => p.id);
    const window = (id: ProviderId) => (request.all ? null : request.days !== undefined ? windowStart(request.days === 0 ? null : request.days) : windowStart(effectiveWindowDays(this.#options.config, id)));
    // "Import everything" looks at every agent's folders as a tick does, so the schedule counts from it as
    // from a check by hand (its start, so no tick falls due meanwhile, then its end); an import of one
    // agent is no check of the others.
    const everything = this.#enabled().every((p) => wanted.includes(p.id));
    if (everything) this.#scheduler.checked(Date.now());
    const providers = await this.#scheduler.runManual(wanted, (id, signal) => this.#run(id, false, window(id), signal));
    const checkedAt = this.#report(providers, 'manual', everything);
    if (checkedAt !== null) this.#scheduler.checked(checkedAt);
    return providers;
  }

  /** Stops every manual or onboarding backfill (queued ones never start); returns how many. */
  cancelBackfills(): number {
    return this.#scheduler.cancelManual();
  }

  /**
   * Tells `listener`, after each committed step, which projects received a new genuine user turn that
   * is live work (the sweeper's trigger, spec 001): history imported now never triggers curation.
   * A listener's failure never rolls back capture.
   */
  onUserTurns(listener: (turns: UserTurns[]) => void): () => void {
    this.#turnListeners.add(listener);
    return () => this.#turnListeners.delete(listener);
  }

  /**
   * Cache maintenance: removes rows older than the retention window, with the queue to itself so it
   * never interleaves with an import. `manual` applies the effective window (default included);
   * the automatic pass applies only an explicit policy. A dry run counts without deleting; with
   * `retentionDays`, what the automatic pass would remove once that cache retention is saved.
   */
  prune(request: { manual: boolean; dryRun?: boolean | undefined; retentionDays?: number | undefined }): Promise<PruneReport> {
    const { retentionDays } = request;
    const pass: PrunePass = request.manual && retentionDays === undefined ? { manual: true } : { manual: false, retentionDays };
    const dryRun = request.dryRun === true || retentionDays !== undefined;
    return this.#scheduler.exclusive(async (signal) => {
      const started = performance.now();
      let lost = 0;
      const report: PruneReport & { removedMessages: number; removedConversations: number } = { dryRun, cutoffs: [], removedParts: 0, removedSessions: 0, removedMessages: 0, removedConversations: 0, durationMs: 0, complete: true };
      for (const { provider, cutoffMs } of pruneCutoffs(this.#options.config, PROVIDER_IDS, pass)) {
        const removed =
          cutoffMs === null ? { parts: 0, sessions: 0, messages: 0, conversations: 0, complete: true } : dryRun ? { ...(await this.#pruner.count(provider, cutoffMs)), complete: true } : await this.#pruner.prune(provider, cutoffMs, { signal });
        report.cutoffs.push({ provider, cutoffMs, removedParts: removed.parts, removedMessages: removed.messages, removedConversations: removed.conversations });
        report.removedParts += removed.parts;
        report.removedSessions += removed.sessions;
        report.removedMessages += removed.messages;
        report.removedConversations += removed.conversations;
        report.complete &&= removed.complete;
        // What would go for good (the agent deleted the transcript): said before a removal is confirmed.
        if (dryRun && cutoffMs !== null && removed.conversations > 0) lost += await this.#pruner.lost(provider, cutoffMs);
        // Under a saved clean-up window the survey keeps such files as "imported once" (the pass would
        // remove an import of them again); without one, a removal by hand leaves their history to offer.
        if (!dryRun && cutoffMs !== null && removed.parts > 0 && explicitWindowDays(this.#options.config, provider) === null) this.#checkpoints.narrowTo(provider, cutoffMs);
      }
      if (dryRun) report.lost = lost;
      report.durationMs = Math.round(performance.now() - started);
      if (!dryRun) recordPrune(this.#options, report, request.manual);
      return report;
    });
  }

  /**
   * A forget record was lifted (Unforget): the files known to hold what it covered (`sessionIds`: the
   * conversations it erased) are read again from their start by the next scheduled tick, their
   * checkpoints and fingerprints dropped once the run in progress is done (it may be reading one of
   * them). Says how many files are known to hold it (none: imported by an earlier version) and how
   * many of them that tick reads: those inside the schedule's window of an enabled agent (Import
   * earlier history reads the older ones).
   */
  reread(kind: ForgetKind, id: string, sessionIds: readonly string[]): { held: number; inWindow: number } {
    const files = this.#checkpoints.holding(kind, id, sessionIds);
    if (files.length === 0) return { held: 0, inWindow: 0 };
    const ticked = (f: HoldingFile) => {
      const provider = this.#enabled().find((p) => p.id === f.provider);
      const start = provider ? windowStart(effectiveWindowDays(this.#options.config, provider.id)) : undefined;
      return start !== undefined && f.mtimeMs !== null && (start === null || f.mtimeMs >= start);
    };
    const inWindow = files.filter(ticked).length;
    this.#scheduler
      .exclusive(async () => {
        // Asked again once no run is in flight: a run that withheld a file meanwhile recorded it at its checkpoint.
        this.#checkpoints.reread(kind, id, this.#checkpoints.holding(kind, id, sessionIds));
        // The map knows no path apart: the next tick asks the durable checkpoints, as after a restart.
        this.fingerprints.clear();
      })
      .catch((error: unknown) => this.#options.logger.warn('could not have unforgotten files read again', { code: errorCode(error) }));
    return { held: files.length, inWindow };
  }

  /** When the folders were last checked (lastCheckAt: see isCheck) and will be next: the schedule's timer, none while paused. */
  status(): Result<'Sweep.Status'> {
    const intervalMs = this.#intervalMs;
    const schedule = this.#schedule;
    const last = { lastTickAt: this.#lastTickAt, lastCheckAt: this.#lastCheckAt };
    if (!schedule) return { scheduled: false, intervalMs, ...last, nextTickAt: null };
    return { scheduled: true, intervalMs, ...last, nextTickAt: schedule.paused() ? null : this.#scheduler.nextTickAt };
  }

  /** The interval the schedule ticks on now (Settings' running value). */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  /**
   * A check interval saved while Steward runs (`sweep.interval_ms`, the environment's override
   * applied): the running schedule takes it at once, its next tick at the last one plus the new interval.
   */
  reschedule(intervalMs: number): void {
    this.#intervalMs = intervalMs;
    this.#scheduler.reschedule(intervalMs);
  }

  /**
   * What the enabled providers' folders hold, from their listing alone (discovery stats files and
   * never opens a transcript): how many, how large, how old, and how much the scheduled window leaves out.
   * What the files' times cannot show (old lines in a file changed since) comes from the files' checkpoints.
   */
  async survey(): Promise<Result<'Providers.Survey'>> {
    const started = performance.now();
    const providers: Result<'Providers.Survey'>['providers'] = [];
    // The stored messages' dates, one query for every agent: what the files' dates say of a copied history is the copy's day.
    const stored = await this.#spans.byProvider();
    for (const provider of this.#enabled()) {
      const { files, failed } = await provider.discover();
      const windowDays = effectiveWindowDays(this.#options.config, provider.id);
      const cutoff = windowStart(windowDays);
      const older = files.filter((f) => cutoff !== null && f.mtimeMs < cutoff);
      // One load of the checkpoints answers both questions below (an open window, or no file, asks neither).
      const held = cutoff === null || files.length === 0 ? new Map<string, SurveyedCheckpoint>() : await this.#checkpoints.surveyed(provider.id);
      const imported = readWhole(older, held);
      const { olderMessages, olderUncounted } = cutoff === null ? { olderMessages: 0, olderUncounted: 0 } : leftOut(files, cutoff, held);
      // A reduce, not Math.min(...): a large tree holds more files than a call takes arguments.
      const oldest = files.reduce((n, f) => Math.min(n, f.mtimeMs), Infinity);
      const newest = files.reduce((n, f) => Math.max(n, f.mtimeMs), -Infinity);
      const span = stored.get(provider.id);
      providers.push({
        provider: provider.id,
        files: files.length,
        bytes: files.reduce((n, f) => n + f.size, 0),
        oldestAt: files.length > 0 ? Math.round(oldest) : null,
        newestAt: files.length > 0 ? Math.round(newest) : null,
        ...(span ? { stored: span } : {}),
        windowDays: windowDays ?? 0,
        windowFrom: windowSource(this.#options.config, provider.id),
        cleanUpDays: explicitWindowDays(this.#options.config, provider.id) ?? 0,
        older: { files: older.length, bytes: older.reduce((n, f) => n + f.size, 0), imported: { files: imported.length, bytes: imported.reduce((n, f) => n + f.size, 0) } },
        olderMessages,
        olderUncounted,
        failed,
      });
    }
    return { providers, durationMs: Math.round(performance.now() - started) };
  }

  /**
   * The files of enabled providers that could not be read when last tried, newest failure first: the
   * person's own files, named for them (the panel, the CLI), never for status, telemetry or logs.
   */
  unreadable(limit = UNREADABLE_LISTED, providers: readonly ProviderId[] = this.#enabled().map((p) => p.id)): Result<'Sweep.Unreadable'> {
    const all = this.#checkpoints.failures(providers);
    const files = all.slice(0, limit).map((f) => ({ provider: f.provider, path: f.path, code: f.code, failedAt: f.failedAt, size: f.size, mtimeMs: Math.trunc(f.mtimeMs) }));
    return { files, total: all.length };
  }

  /** A run's result with the files its `unreadable` counts are about, named (when there are any). */
  named(providers: ProviderStats[]): Result<'Sweep.Tick'> {
    const failing = PROVIDER_IDS.filter((id) => providers.some((p) => p.provider === id && p.unreadable?.length));
    if (failing.length === 0) return { providers };
    return { providers, unreadable: this.unreadable(UNREADABLE_LISTED, failing).files };
  }

  /** The providers the configuration leaves on, in registry order: the schedule's, "all" of a backfill's, the survey's. */
  #enabled(): TranscriptProvider[] {
    return this.providers.filter((p) => this.#options.config.providers[p.id].enabled);
  }

  /** Scheduled ticks are skipped while `paused()` holds; Sweep.Tick and backfills still run on request. */
  start(paused: () => boolean = () => false): void {
    this.#schedule ??= { paused };
    this.#scheduler.start(this.#intervalMs, paused);
    this.#sink.start(SINK_TICK_MS, (error) => this.#options.logger.warn('sink tick failed', { code: errorCode(error) }));
    this.#schedulePrune(paused);
    // The first tick after start: its fingerprint map is empty, so the durable checkpoints answer.
    // The schedule's own, counted from its start (no check by hand that would move it).
    if (!paused()) void this.#scheduler.tick();
  }

  async stop(): Promise<void> {
    this.#sink.stop();
    clearTimeout(this.#pruneTimer);
    this.#pruneTimer = undefined;
    await this.#scheduler.stop();
    await this.#checkpointer.stop();
    await this.reader.stop();
  }

  /**
   * Sessions stored in a project that is another one's now move to it, whatever their age: a Gemini
   * hash folder's once its folder is known, a later spelling's of a folder (another case on Windows,
   * a WSL folder through its share) once the earliest is a project. A run's window limits what it
   * imports, not where stored conversations belong. Their rows are re-keyed through the sink, which
   * vacates the project they leave (its row goes unless its notes folder exists: ProjectStore.vacated)
   * and moves their search tags; their files are not read again (a chat older than the window would
   * not move on a read, and its file would be read again on every sweep).
   */
  async #moveNewlyKnown(): Promise<void> {
    const { projects } = this.#options;
    for (const folder of new Set([...this.#heldBack, ...this.#assignment.newlyKnown()])) {
      if (this.#intoForgotten(folder)) continue;
      const rows = this.#sink.storedOf(projects.keyOf(folder));
      for (let from = 0; from < rows.length; from += MOVE_STEP_ROWS) {
        this.#sink.write(rows.slice(from, from + MOVE_STEP_ROWS), []);
        await turn();
      }
    }
  }

  /**
   * Whether a move would put a project's sessions into a forgotten project, or take them out of one
   * (a forget still erasing them). They stay where they are, a move into one counted in the log once:
   * a forget keeps a project's conversations out, and only the forget itself erases rows (new lines
   * of theirs are withheld like any of that project's).
   */
  #intoForgotten(folder: string): boolean {
    const into = this.#materializer.forgotten('project', this.#assignment.keys.keyOf(folder));
    if (!into && !this.#materializer.forgotten('project', this.#options.projects.keyOf(folder))) {
      this.#heldBack.delete(folder);
      return false;
    }
    if (this.#heldBack.has(folder)) return true;
    this.#heldBack.add(folder);
    if (!into) return true;
    const sessions = this.#sink.storedOf(this.#options.projects.keyOf(folder)).length;
    this.#options.logger.info('sessions of a project assigned elsewhere not moved into a forgotten project', { sessions });
    return true;
  }

  /** One provider's run; its stats count the messages its new parts make up as they land. */
  async #run(id: ProviderId, scheduled: boolean, windowStartMs: number | null, signal: AbortSignal): Promise<ProviderStats> {
    const provider = this.providers.find((p) => p.id === id);
    if (!provider) throw new Error('unknown provider');
    const stats = await runBackfillProvider(
      provider,
      {
        materializer: this.#materializer,
        sink: this.#sink,
        commits: this.#commits,
        fingerprints: this.fingerprints,
        checkpoints: this.#checkpoints,
        logger: this.#options.logger,
        reader: this.reader,
      },
      {
        token: newRunToken(),
        scheduled,
        windowStartMs,
        maxLineBytes: this.#options.config.sweep.max_line_bytes,
        signal,
        ...(this.#options.onProgress ? { onProgress: this.#options.onProgress } : {}),
        ...(this.#options.inStepIndexParts !== undefined ? { inStepIndexParts: this.#options.inStepIndexParts } : {}),
        ...(this.#options.inStepIndexBytes !== undefined ? { inStepIndexBytes: this.#options.inStepIndexBytes } : {}),
      },
    );
    // A session this run stored may have made the folder of a Gemini hash folder known. A failed move
    // fails no import: the next process, whose first run asks again, moves them.
    await this.#moveNewlyKnown().catch((error: unknown) => this.#options.logger.warn('moving chats to a known folder failed', { code: errorCode(error) }));
    return stats;
  }

  /** Once shortly after start, then every `prune_interval_ms`; only an explicit policy deletes anything. */
  #schedulePrune(paused: () => boolean): void {
    const interval = this.#options.config.query.cache.retention.prune_interval_ms;
    const pass = () => {
      this.#pruneTimer = setTimeout(pass, interval);
      this.#pruneTimer.unref();
      if (paused() || pruneCutoffs(this.#options.config, PROVIDER_IDS, { manual: false }).every((c) => c.cutoffMs === null)) return;
      this.prune({ manual: false }).catch((error: unknown) => this.#options.logger.warn('cache prune failed', { code: errorCode(error) }));
    };
    this.#pruneTimer = setTimeout(pass, Math.min(FIRST_PRUNE_DELAY_MS, interval));
    this.#pruneTimer.unref();
  }

  /**
   * `coveredAll`: the run looked at every enabled agent's folders (whether it is a check: isCheck); `trigger`: a tick's, who started it.
   * Returns when it was recorded if it was a check (the last check every surface shows), else null.
   */
  #report(providers: ProviderStats[], kind: 'scheduled' | 'manual', coveredAll: boolean, trigger: TickTrigger = 'schedule'): number | null {
    const at = Date.now();
    const check = isCheck(providers, coveredAll);
    if (kind === 'scheduled') this.#lastTickAt = at;
    if (check) this.#lastCheckAt = at;
    recordRun(this.#options, providers, kind, check, at, trigger);
    this.#options.onTick?.(providers, kind);
    return check ? at : null;
  }
}
