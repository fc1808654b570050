import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import picomatch from 'picomatch';
import { localDay, StewardError, type CuratorKind, type DataBoundary, type EventName, type EventPayload, type ProjectNotes, type Result } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { createCurator, CuratorError, offlineDays, type ApiKeys, type Curator, type RemoteOptions } from './curators/index.js';
import { CallBudget } from './budget.js';
import { buildDigest, renderPrompt } from './digest.js';
import { extract, hasNewActivity } from './extract.js';
import { CuratorPauses } from './pauses.js';
import { projectNotes } from './notes-state.js';
import { projectPaths, type ProjectPaths } from './paths.js';
import { createRedactor, secretValuesFromEnv } from '../secrets/index.js';
import { endpointHash, readState, stateWritten, updateState, type SweeperState } from './state.js';
import { systemClock, type Clock, type Digest, type DigestSource, type SweeperProject } from './types.js';
import { changelogDays, removeStaleNotes, writeNotes, type WriteResult } from './writer.js';

export interface SweeperSettings {
  enabled: boolean;
  curator: CuratorKind;
  model: string;
  baseUrl?: string | undefined;
  anthropicBaseUrl?: string | undefined;
  inputTokenBudget: number;
  timeoutMs: number;
  minIntervalMs: number;
  ignore: string[];
  /** Model calls a day across every project; remote curation pauses past it until the next day. */
  dailyModelCalls: number;
  /** Where a local Ollama server is looked for (Settings offers its models). */
  ollamaUrl: string;
}

export type SweeperRunResult = Result<'Sweeper.Run'>;
export type SweeperPlanAll = Result<'Sweeper.PlanAll'>;
export type SweeperRunAll = Result<'Sweeper.RunAll'>;
/** A reason remote curation stands still, as the panel and Projects.Get show it. */
export type CuratorPause = NonNullable<Result<'Projects.Get'>['paused']>;

/** A new genuine user turn capture committed: its project and when it was said. */
export interface LiveTurn {
  projectKey: string;
  at: number;
}

/** Where a curator's text goes (spec 004's data boundaries): the offline one keeps it in this process. */
export function curatorBoundary(settings: Pick<SweeperSettings, 'curator' | 'baseUrl'>): DataBoundary {
  if (settings.curator === 'offline') return 'local_process';
  if (settings.curator === 'anthropic') return 'remote';
  try {
    const host = new URL(settings.baseUrl ?? 'https://api.openai.com/v1').hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host === '::1' || /^127\./.test(host) || /^10\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\./.test(host) || host.endsWith('.local')) return 'local_network';
    return 'remote';
  } catch {
    return 'unknown';
  }
}

/** The most model requests one sweep can make: four turns, each with two retries. */
export const MAX_CALLS_PER_SWEEP = 12;

export class SweeperFailure extends Error {
  readonly code: 'sweep_failed' | 'curator_paused';
  constructor(code: 'sweep_failed' | 'curator_paused', message: string) {
    super(message);
    this.name = 'SweeperFailure';
    this.code = code;
  }
}

export interface SweeperOptions {
  home: string;
  source: DigestSource;
  settings: SweeperSettings;
  env: NodeJS.ProcessEnv;
  clock?: Clock;
  emit?: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  record?: (kind: string, data: Record<string, unknown>) => void;
  logger?: Logger;
  /** Where API keys come from; the environment by default (headless mode). */
  apiKeys?: () => ApiKeys;
  /** Tuning of the remote curators' own retry policy (tests shorten the waits). */
  remote?: RemoteOptions;
  /** Builds the curator; by default from the settings. */
  curatorFactory?: (settings: SweeperSettings, keys: ApiKeys) => Curator;
  /** Whether enqueue() arms timers: only a long-running owner schedules sweeps. */
  schedule?: boolean;
  /** The app's Pause: a due scheduled sweep waits for Resume instead of calling a model. */
  isPaused?: () => boolean;
  backoffCapMs?: number;
  /** The whole sweep's deadline; three request timeouts by default. */
  sweepDeadlineMs?: number;
}

const BACKOFF_FLOOR_MS = 60_000;
/** One piece of the re-arm scan: at most this many projects' state files, or this long on the loop. */
const SCAN_PIECE_PROJECTS = 100;
const SCAN_PIECE_MS = 10;
/** One turn of the event loop, given between the scan's pieces (as core/gateway/pace.ts does). */
const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** What the activity gate and the budget decided, before anything is read. */
type RunKind = 'scheduled' | 'manual';
/** A sweep may spend at most this many request timeouts in all (repairs and retries included). */
const SWEEP_DEADLINE_REQUESTS = 3;
/** How much of the remaining history a rebuild after a forget dates the changelog from. */
const REBUILD_LIMITS = { sessions: 100, messages: 40 } as const;

/** The earliest day any forget since the last rebuild reaches back to; null (every day) once one named none. */
function staleFromDay(state: SweeperState, day: string | null): string | null {
  if (state.notesStaleSince === null) return day;
  if (state.notesStaleFromDay === null || day === null) return null;
  return day < state.notesStaleFromDay ? day : state.notesStaleFromDay;
}

/**
 * The stale mark cleared by a rebuild that started from `before`, unless a forget came since then: the
 * rebuild may have read its conversation, so the notes stay withheld for the next rebuild. Counted,
 * since a later forget may leave the mark's time and day as they were.
 */
function staleCleared(now: SweeperState, before: SweeperState): Partial<SweeperState> {
  const unmoved = now.notesStaleMarks === before.notesStaleMarks && now.notesStaleSince === before.notesStaleSince && now.notesStaleFromDay === before.notesStaleFromDay;
  return unmoved ? { notesStaleSince: null, notesStaleFromDay: null } : {};
}

/** A rebuild starts from the stored conversations alone: the old notes may carry the forgotten one forward. */
function withoutNotes(digest: Digest): Digest {
  return { ...digest, since: null, notes: { ...digest.notes, overview: null, changelogTail: null } };
}


/** The curator these settings build, as sweep-state.json names it; `endpoint` is its base URL's hash (null offline). */
interface CuratorId {
  mode: CuratorKind;
  model: string | null;
  endpoint: string | null;
}

/**
 * Whether the state's backoff was earned by this curator (kind and, for a remote one, model and
 * endpoint): a backoff or a failure count never holds a different curator, nor the same one pointed
 * elsewhere (a wrong base URL fixed). A state that names none holds any; one that names no endpoint
 * (written before endpoints were recorded) holds any endpoint.
 */
function earnedBy(state: SweeperState, curator: CuratorId): boolean {
  if (state.lastMode === null) return true;
  if (state.lastMode !== curator.mode) return false;
  if (curator.mode === 'offline') return true;
  return state.lastModel === curator.model && (state.lastEndpoint === null || state.lastEndpoint === curator.endpoint);
}

/** The base URL a remote curator is sent to, as configured (unset: its default, named by ''), hashed. */
function endpointOf(settings: SweeperSettings): string | null {
  if (settings.curator === 'offline') return null;
  return endpointHash((settings.curator === 'anthropic' ? settings.anthropicBaseUrl : settings.baseUrl) || '');
}

function curatorOf(settings: SweeperSettings): CuratorId {
  if (settings.curator === 'offline') return { mode: 'offline', model: null, endpoint: null };
  return { mode: settings.curator, model: settings.model, endpoint: endpointOf(settings) };
}

function sameCurator(a: SweeperSettings, b: SweeperSettings): boolean {
  return a.curator === b.curator && a.model === b.model && a.baseUrl === b.baseUrl && a.anthropicBaseUrl === b.anthropicBaseUrl;
}

/** Failures that show a request got through, so the credentials were accepted (a rejected key fails as auth). */
const REACHED: ReadonlySet<string> = new Set(['format', 'truncated', 'refusal']);

function envKeys(env: NodeJS.ProcessEnv): ApiKeys {
  return { anthropic: env.ANTHROPIC_API_KEY, openai: env.OPENAI_API_KEY };
}

/** The curator a sweep ran and the hash of the endpoint it was sent to (see earnedBy). */
interface Sent {
  curator: Curator;
  endpoint: string | null;
}

interface Target {
  project: SweeperProject;
  paths: ProjectPaths;
}

/**
 * Per-project curation (spec 001): a debounced, coalescing queue in front of a single-flight runner,
 * an activity gate, a failure budget, and a pause when the provider refuses for billing or auth.
 */
export class Sweeper {
  readonly #o: SweeperOptions;
  readonly #clock: Clock;
  #settings: SweeperSettings;
  /** The armed sweep of each project: the clock's handle and when it falls due. */
  readonly #timers = new Map<string, { handle: unknown; due: number }>();
  /** Projects whose scheduled sweep fell due while the app was paused. */
  readonly #deferred = new Set<string>();
  readonly #lastStarted = new Map<string, number>();
  readonly #paused: CuratorPauses;
  readonly #budget: CallBudget;
  #ignoreCompiled: { ignore: readonly string[]; matches: (path: string) => boolean } | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  #abort = new AbortController();
  #stopped = false;
  /** The re-arm scans still reading after their first piece (see #rearm); the newest round wins. */
  #scan: Promise<void> = Promise.resolve();
  #scanRound = 0;
  /** Counters for the benchmark and diagnostics. */
  readonly stats = { enqueued: 0, coalesced: 0, runs: 0, calls: 0, notLive: 0 };

  constructor(options: SweeperOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#settings = options.settings;
    this.#paused = new CuratorPauses(options.home, options.logger);
    this.#budget = new CallBudget(options.home, () => this.#clock.now(), options.logger);
    // A failure before a restart is still tried again (its backoff ends even while the app is down),
    // and notes withheld by a forget made while no owner ran are rebuilt, as a live forget's are.
    this.#rearm();
  }

  get settings(): SweeperSettings {
    return this.#settings;
  }

  /**
   * New settings apply to the next sweep; choosing a curator again lifts its pause (a budget change
   * does not). A different curator is not held by another's backoff: failed projects are swept soon.
   */
  updateSettings(next: SweeperSettings, options: { liftPauses?: boolean } = {}): void {
    const before = this.#settings;
    this.#settings = next;
    const lift = options.liftPauses ?? true;
    if (lift) this.#paused.clear();
    if (lift || !sameCurator(before, next)) this.#rearm();
  }

  /** What holds the configured curator: another curator's pause is no concern of the current one. */
  pauses(): CuratorPause[] {
    const pause = this.pauseOf(this.#settings.curator);
    return pause ? [pause] : [];
  }

  pauseOf(curator: CuratorKind): CuratorPause | null {
    return this.#providerPause(curator) ?? this.#budgetPause(curator);
  }

  /** The provider's pause of a curator; one for a missing key is lifted once a key is there. */
  #providerPause(curator: CuratorKind): CuratorPause | null {
    if (this.#paused.get(curator) && !this.#pauseStands(curator)) {
      this.#paused.lift(curator);
      this.#o.logger?.info('curator pause lifted: a key is available now', { mode: curator });
      return null;
    }
    return this.#paused.get(curator) ?? null;
  }

  /** Whether the curator's provider pause still holds (one for a missing key ends once a key is there). */
  #pauseStands(curator: CuratorKind): boolean {
    if (!this.#paused.get(curator)) return false;
    return !(this.#paused.keyMissing(curator) && this.#hasKey(curator));
  }

  #hasKey(curator: CuratorKind): boolean {
    const keys = this.apiKeys();
    if (curator === 'anthropic') return !!keys.anthropic;
    return curator === 'openai-compatible' && !!keys.openai;
  }

  /** Model calls spent today and the daily limit. */
  budget(): { limit: number; usedToday: number } {
    return { limit: this.#settings.dailyModelCalls, usedToday: this.#budget.usedToday() };
  }

  /** Past the daily budget a remote curator stands still until the next day or a raise; never the offline one. */
  #budgetPause(curator: CuratorKind): CuratorPause | null {
    if (curator === 'offline' || !this.#budget.exhausted(this.#settings.dailyModelCalls)) return null;
    const { limit } = this.budget();
    return {
      curator,
      reason: 'daily_budget',
      message: `Today's budget of ${limit} model call${limit === 1 ? '' : 's'} is spent; remote curation resumes tomorrow, or now if you raise the budget in Settings.`,
      since: this.#clock.now(),
    };
  }

  liftPause(curator: CuratorKind): void {
    this.#paused.lift(curator);
    if (curator === this.#settings.curator) this.#rearm();
  }

  /** Keys the owner's key ring holds (the app's keychain, or the environment in headless mode). */
  apiKeys(): ApiKeys {
    return this.#o.apiKeys ? this.#o.apiKeys() : envKeys(this.#o.env);
  }

  /** Whether the person forgot the project: its notes are gone and none are written (see GatewayDigestSource). */
  isForgotten(projectKey: string): boolean {
    return this.#o.source.isForgotten?.(projectKey) ?? false;
  }

  /** Whether the store holds any project: a key asked of one that holds none was not mistyped, nothing was imported yet. */
  holdsProjects(): boolean {
    return this.#o.source.projects().length > 0;
  }

  target(projectKey: string): Target | null {
    const project = this.#o.source.project(projectKey);
    return project ? { project, paths: projectPaths(this.#o.home, project.slug) } : null;
  }

  isIgnored(project: Pick<SweeperProject, 'cwd'>): boolean {
    if (this.#settings.ignore.length === 0) return false;
    const cwd = project.cwd.replace(/\\/g, '/');
    const matches = this.#ignoreMatcher();
    return matches(cwd) || matches(`${cwd}/`);
  }

  /** The ignore list compiled once per settings, not twice per project asked (a list of every project asks each). */
  #ignoreMatcher(): (path: string) => boolean {
    const ignore = this.#settings.ignore;
    if (this.#ignoreCompiled?.ignore !== ignore) this.#ignoreCompiled = { ignore, matches: picomatch(ignore, { dot: true }) };
    return this.#ignoreCompiled.matches;
  }

  /**
   * Where each project's notes stand (off, scratch, ignored, waiting, failed, paused, none, current),
   * judged as #gate judges a sweep, from each sweep state and the settings: no notes file is read.
   * `lastActivityAt` is the projects table's, the one the list shows. Read in pieces, as the re-arm
   * scan reads: a state file each, 300 projects held the loop ~10 ms on a loaded 2-CPU machine.
   */
  async notesOf(projects: ReadonlyArray<Pick<SweeperProject, 'cwd' | 'slug'> & { lastActivityAt: number | null }>): Promise<ProjectNotes[]> {
    const gate = { enabled: this.#settings.enabled, paused: this.pauseOf(this.#settings.curator) !== null, now: this.#clock.now() };
    const notes: ProjectNotes[] = [];
    let pieceStart = Number.NEGATIVE_INFINITY;
    for (const [i, project] of projects.entries()) {
      // A turn first too: the caller has just read the list on this turn.
      if (i % SCAN_PIECE_PROJECTS === 0 || performance.now() - pieceStart > SCAN_PIECE_MS) {
        await turn();
        pieceStart = performance.now();
      }
      const state = readState(projectPaths(this.#o.home, project.slug).state, this.#o.logger);
      notes.push(projectNotes(project.lastActivityAt, state, { ...gate, ignored: this.isIgnored(project) }));
    }
    return notes;
  }

  /** The project's sweep state; a damaged file is kept aside and reported here (see readState). */
  state(target: Target): SweeperState {
    return readState(target.paths.state, this.#o.logger);
  }

  /** Settles once the choice is on disk; a sweep's state write still pending never overwrites it (see updateState). */
  async setScratch(projectKey: string, scratch: boolean): Promise<boolean | null> {
    const target = this.target(projectKey);
    if (!target) return null;
    // The user's answer settles a scratch flag a damaged state file left in doubt.
    const written = updateState(target.paths.state, (state) => ({ ...state, scratch, degraded: null }), this.#o.logger);
    if (scratch) this.#cancelTimer(projectKey);
    await written;
    return scratch;
  }

  /**
   * Capture committed new genuine user turns (already live: newer than the owner's start or its last
   * tick). Only turns newer than the project's watermark are new activity; the rest are counted.
   */
  onLiveTurns(turns: readonly LiveTurn[]): void {
    const keys: string[] = [];
    for (const turn of turns) {
      const target = this.target(turn.projectKey);
      const watermark = target ? this.state(target).watermark : null;
      if (watermark !== null && turn.at <= watermark) this.stats.notLive += 1;
      else keys.push(turn.projectKey);
    }
    this.enqueue(keys);
  }

  /**
   * Bursts fold into one trailing run per project, at most one per min interval and never before a
   * failure's backoff ends; nothing is armed unless this process schedules.
   */
  enqueue(projectKeys: Iterable<string>): void {
    if (!this.#o.schedule || this.#stopped || !this.#settings.enabled) return;
    for (const key of new Set(projectKeys)) {
      this.stats.enqueued += 1;
      if (this.#timers.has(key)) {
        this.stats.coalesced += 1;
        continue;
      }
      const now = this.#clock.now();
      const last = this.#lastStarted.get(key) ?? this.#persistedLastSweep(key);
      const settle = Math.min(30_000, this.#settings.minIntervalMs);
      this.#arm(key, Math.max(now + settle, last + this.#settings.minIntervalMs, this.#backoffEnd(key)));
    }
  }

  #backoffEnd(key: string): number {
    const target = this.target(key);
    return (target ? this.#heldUntil(this.state(target)) : null) ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * When the state's backoff ends, if it holds the configured curator. After a pause the pause is
   * the hold: once the person answered it (or a missing key appeared) the project need not wait more.
   */
  #heldUntil(state: SweeperState): number | null {
    const curator = curatorOf(this.#settings);
    if (state.nextAttemptAt === null || !earnedBy(state, curator)) return null;
    if (state.lastOutcome === 'paused' && !this.#pauseStands(curator.mode)) return null;
    return state.nextAttemptAt;
  }

  /**
   * A scheduling owner tries failed (or paused, once lifted) projects again: each is armed once, when
   * its backoff for the configured curator ends, or soon when none holds it. Notes withheld after a
   * forget are rebuilt soon, as notesStale arms them (even with the sweeper off: the rebuild then
   * removes them). An earlier armed run stays. Every project's state file is read, so in pieces: the
   * first at once, the rest each after a turn of the event loop (a thousand projects held it ~45 ms in
   * one go). A later call or stop ends a scan.
   */
  #rearm(): void {
    if (!this.#o.schedule || this.#stopped) return;
    const round = ++this.#scanRound;
    const projects = this.#o.source.projects();
    const next = this.#rearmPiece(projects, 0);
    if (next >= projects.length) return;
    const rest = this.#rearmRest(projects, next, round).catch((error: unknown) => this.#o.logger?.warn('projects could not all be re-armed', { code: errorCode(error) }));
    this.#scan = Promise.all([this.#scan, rest]).then(() => undefined);
  }

  async #rearmRest(projects: readonly SweeperProject[], from: number, round: number): Promise<void> {
    for (let at = from; at < projects.length; ) {
      await turn();
      if (this.#stopped || round !== this.#scanRound) return;
      at = this.#rearmPiece(projects, at);
    }
  }

  /** Re-arms from `from` on, for at most a piece's count or time; returns where the next piece starts. */
  #rearmPiece(projects: readonly SweeperProject[], from: number): number {
    const began = performance.now();
    const now = this.#clock.now();
    const settle = Math.min(30_000, this.#settings.minIntervalMs);
    let at = from;
    while (at < projects.length && at - from < SCAN_PIECE_PROJECTS && (at === from || performance.now() - began < SCAN_PIECE_MS)) {
      this.#rearmOne(projects[at]!, now + settle);
      at += 1;
    }
    return at;
  }

  #rearmOne(project: SweeperProject, soon: number): void {
    const target = { project, paths: projectPaths(this.#o.home, project.slug) };
    if (!existsSync(target.paths.state)) return;
    const state = this.state(target);
    const due = state.notesStaleSince !== null ? soon : this.#retryDue(project, state, soon);
    if (due === null) return;
    const armed = this.#timers.get(project.projectKey);
    if (armed && armed.due <= due) return;
    this.#cancelTimer(project.projectKey);
    this.#arm(project.projectKey, due);
  }

  /** When a failed or paused project is tried again (null: not at all, or not while the sweeper is off). */
  #retryDue(project: SweeperProject, state: SweeperState, soon: number): number | null {
    if (!this.#settings.enabled || (state.lastOutcome !== 'failed' && state.lastOutcome !== 'paused') || state.scratch || this.isIgnored(project)) return null;
    return Math.max(soon, this.#heldUntil(state) ?? Number.NEGATIVE_INFINITY);
  }

  /** After a failure in a scheduling owner, the project is tried again when its backoff ends (stop cancels it). */
  #retryLater(key: string, at: number): void {
    if (!this.#o.schedule || this.#stopped || !this.#settings.enabled || this.#timers.has(key)) return;
    this.#arm(key, at);
  }

  /** A trailing run that lands inside a backoff (a failure since it was armed) runs when the backoff ends. */
  #arm(key: string, due: number): void {
    const now = this.#clock.now();
    this.#timers.set(key, {
      due,
      handle: this.#clock.setTimeout(() => {
        this.#timers.delete(key);
        if (this.#o.isPaused?.()) return void this.#deferred.add(key);
        this.run(key, { kind: 'scheduled' }).then(
          (result) => {
            const end = this.#backoffEnd(key);
            if (result.outcome === 'skipped' && result.reason === 'backoff' && !this.#stopped && !this.#timers.has(key)) this.#arm(key, end);
          },
          () => undefined,
        );
      }, Math.max(0, due - now)),
    });
  }

  /** On Resume, the sweeps that fell due during the pause are queued again. */
  resume(): void {
    const keys = [...this.#deferred];
    this.#deferred.clear();
    this.enqueue(keys);
  }

  /** After a restart the interval still counts from the last sweep recorded in sweep-state.json. */
  #persistedLastSweep(key: string): number {
    const target = this.target(key);
    const last = target ? this.state(target).lastSweepAt : null;
    if (last !== null) this.#lastStarted.set(key, last);
    return last ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * A forgotten project's notes go with it (history): its pending sweep is dropped and, once no
   * sweep is running, its folder under STEWARD_HOME is removed. True when there was one.
   */
  async forgetProject(projectKey: string, slug: string): Promise<boolean> {
    this.#cancelTimer(projectKey);
    this.#deferred.delete(projectKey);
    await this.#chain;
    const { dir, state } = projectPaths(this.#o.home, slug);
    // A state write still landing would bring the folder back after it went.
    await stateWritten(state);
    if (!existsSync(dir)) return false;
    await rm(dir, { recursive: true, force: true });
    return true;
  }

  /**
   * A conversation of the project was forgotten (history): its notes may name it. They are withheld
   * from now on (context, Projects.Get) and the project's next sweep, armed soon, rebuilds them from
   * what is still stored, even with nothing new. A project never swept has no notes to rebuild.
   * `firstActiveAt` (UTC ms): when the conversation began; changelog days before it are kept.
   */
  async notesStale(projectKey: string, firstActiveAt: number | null = null): Promise<void> {
    const target = this.target(projectKey);
    if (!target || !existsSync(target.paths.dir)) return;
    const now = this.#clock.now();
    const day = firstActiveAt === null ? null : localDay(firstActiveAt);
    await updateState(target.paths.state, (state) => ({ ...state, notesStaleSince: state.notesStaleSince ?? now, notesStaleFromDay: staleFromDay(state, day), notesStaleMarks: state.notesStaleMarks + 1 }), this.#o.logger);
    if (!this.#o.schedule || this.#stopped) return;
    this.#cancelTimer(projectKey);
    this.#arm(projectKey, now + Math.min(30_000, this.#settings.minIntervalMs));
  }

  /**
   * A rebuild that left the notes withheld (a forget came while it ran) is run again soon, from what is
   * stored now; a forget in this process armed it already, one made by another process (the CLI) did not.
   */
  #rebuildAgain(projectKey: string, state: SweeperState): void {
    if (state.notesStaleSince === null || !this.#o.schedule || this.#stopped || this.#timers.has(projectKey)) return;
    this.#arm(projectKey, this.#clock.now() + Math.min(30_000, this.#settings.minIntervalMs));
  }

  pendingKeys(): string[] {
    return [...this.#timers.keys()];
  }

  #cancelTimer(key: string): void {
    const timer = this.#timers.get(key);
    if (timer !== undefined) this.#clock.clearTimeout(timer.handle);
    this.#timers.delete(key);
  }

  /** One sweep; sweeps never overlap anywhere in the app. `force` bypasses the gate and backoff. */
  run(projectKey: string, options: { force?: boolean; kind?: RunKind } = {}): Promise<SweeperRunResult> {
    if (options.kind !== 'scheduled') this.#cancelTimer(projectKey);
    const next = this.#chain.then(() => this.#sweep(projectKey, options.force ?? false, options.kind ?? 'manual'));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  /** Settles when every re-arm scan, every queued or running sweep and every state write has finished. */
  async whenIdle(): Promise<void> {
    await this.#scan;
    await this.#chain;
    await stateWritten();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const key of [...this.#timers.keys()]) this.#cancelTimer(key);
    this.#abort.abort();
    await this.#scan;
    await this.#chain;
    // The user's last scratch choice reaches the disk before the process goes.
    await stateWritten();
    this.#abort = new AbortController();
  }

  /** Projects marked scratch (never swept), by name. */
  scratchProjects(): Array<{ projectKey: string; name: string }> {
    return this.#o.source
      .projects()
      .filter((project) => this.state({ project, paths: projectPaths(this.#o.home, project.slug) }).scratch)
      .map((project) => ({ projectKey: project.projectKey, name: project.name }));
  }

  /** The projects a sweep of all would curate now: those whose activity gate is open. */
  eligible(): string[] {
    return this.#o.source
      .projects()
      .filter((project) => {
        const target = { project, paths: projectPaths(this.#o.home, project.slug) };
        return this.#gate(target, this.state(target), this.#o.source.latestActivity(project.projectKey), false) === null;
      })
      .map((p) => p.projectKey);
  }

  /** What "Sweep all projects now" would do, named before it runs. */
  planAll(): SweeperPlanAll {
    const projects = this.eligible().length;
    const remote = this.#settings.curator !== 'offline';
    return {
      projects,
      curator: this.#settings.curator,
      model: remote ? this.#settings.model : null,
      dataBoundary: curatorBoundary(this.#settings),
      maxModelCalls: remote ? projects * MAX_CALLS_PER_SWEEP : 0,
      budget: this.budget(),
      enabled: this.#settings.enabled,
    };
  }

  /** Sweeps every eligible project in turn, once the caller confirmed the plan it was shown. */
  async runAll(confirmed: { projects: number; curator: CuratorKind }): Promise<SweeperRunAll> {
    const keys = this.eligible();
    if (confirmed.curator !== this.#settings.curator || confirmed.projects !== keys.length) {
      throw new StewardError('stale_plan', `The plan changed since it was shown (now ${keys.length} project${keys.length === 1 ? '' : 's'} with the ${this.#settings.curator} curator); review it again`);
    }
    const results: NonNullable<SweeperRunAll['results']> = [];
    const summary: SweeperRunAll = { projects: keys.length, ok: 0, nochange: 0, skipped: 0, failed: 0, paused: 0, calls: 0, results };
    for (const key of keys) {
      // Each project by name with its outcome, so a caller can say which failed and why.
      const name = this.target(key)?.project.name ?? key;
      try {
        const result = await this.run(key);
        summary[result.outcome] += 1;
        summary.calls += result.calls;
        results.push({ projectKey: key, name, outcome: result.outcome, reason: result.reason, message: null });
      } catch (error) {
        const outcome = error instanceof SweeperFailure && error.code === 'curator_paused' ? 'paused' : 'failed';
        summary[outcome] += 1;
        results.push({ projectKey: key, name, outcome, reason: null, message: error instanceof SweeperFailure ? error.message : null });
      }
    }
    return summary;
  }

  #skip(projectKey: string, reason: string): SweeperRunResult {
    return {
      projectKey,
      outcome: 'skipped',
      reason,
      mode: this.#settings.curator,
      model: null,
      calls: 0,
      tokensIn: 0,
      tokensOut: 0,
      durationMs: 0,
      overview: 'none',
      changelog: 'none',
      factsAdded: 0,
    };
  }

  #gate(target: Target, state: SweeperState, activityAt: number | null, force: boolean): string | null {
    if (!this.#settings.enabled) return 'disabled';
    if (state.scratch) return 'scratch';
    if (this.isIgnored(target.project)) return 'ignored';
    if (activityAt === null) return 'no-activity';
    if (force) return null;
    if (state.watermark !== null && activityAt <= state.watermark) return 'no-activity';
    const held = this.#heldUntil(state);
    if (held !== null && this.#clock.now() < held) return 'backoff';
    return null;
  }

  async #sweep(projectKey: string, force: boolean, kind: RunKind): Promise<SweeperRunResult> {
    const target = this.target(projectKey);
    if (!target) return this.#skip(projectKey, 'unknown-project');
    const state = this.state(target);
    const activityAt = this.#o.source.latestActivity(projectKey);
    if (state.notesStaleSince !== null) return this.#rebuild(target, state, activityAt, force, kind);
    const skipped = this.#gate(target, state, activityAt, force);
    if (skipped !== null || activityAt === null) return this.#skip(projectKey, skipped ?? 'no-activity');
    const pause = this.#providerPause(this.#settings.curator);
    if (pause && !force) throw new SweeperFailure('curator_paused', `The sweeper is paused for ${pause.curator}: ${pause.message}`);
    // The budget is the user's cap: a forced run does not pass it; a scheduled one waits quietly.
    const budget = this.#budgetPause(this.#settings.curator);
    if (budget && kind === 'scheduled') return this.#skip(projectKey, 'daily-budget');
    if (budget) throw new SweeperFailure('curator_paused', budget.message);
    this.#lastStarted.set(projectKey, this.#clock.now());
    return this.#attempt(target, state, activityAt);
  }

  /**
   * After a forget: nothing new is needed. With no conversation left, or a project the sweeper may not
   * curate (disabled, scratch, ignored), the stale notes are simply removed; otherwise they are redone.
   */
  async #rebuild(target: Target, state: SweeperState, activityAt: number | null, force: boolean, kind: RunKind): Promise<SweeperRunResult> {
    const { projectKey } = target.project;
    const blocked = this.#gate(target, state, activityAt ?? 0, true);
    if (blocked !== null || activityAt === null) {
      await removeStaleNotes(target.paths, state.notesStaleFromDay);
      const after = await updateState(target.paths.state, (s) => ({ ...s, ...staleCleared(s, state), overviewPreserved: false }), this.#o.logger);
      this.#rebuildAgain(projectKey, after);
      this.#o.logger?.info('stale notes removed after a forget', { reason: blocked ?? 'no-activity' });
      // Days before the forgotten conversations may stay in CHANGELOG.md: then no day was added, which a
      // rebuild says as nothing-new (see #succeeded); told otherwise, the person reads "changelog empty".
      const kept = blocked === null && changelogDays(target.paths).size > 0;
      return { ...this.#skip(projectKey, kept ? 'nothing-new' : (blocked ?? 'no-activity')), outcome: 'ok', overview: 'empty', changelog: 'empty' };
    }
    // Withheld meanwhile: a rebuild waits for a paused curator like any sweep (forcing passes a provider's pause, never the budget).
    const pause = (force ? null : this.#providerPause(this.#settings.curator)) ?? this.#budgetPause(this.#settings.curator);
    if (pause && kind === 'scheduled') return this.#skip(projectKey, pause.reason === 'daily_budget' ? 'daily-budget' : 'paused');
    if (pause) throw new SweeperFailure('curator_paused', pause.message);
    this.#lastStarted.set(projectKey, this.#clock.now());
    return this.#attempt(target, state, activityAt, true);
  }

  /**
   * The changelog days a rebuild writes: one offline bullet per day of the remaining conversations
   * (no model call), from `fromDay` on, and for earlier days the kept changelog has no section for
   * (a sweep may have dated their activity under a later day it then removed).
   */
  async #rebuiltDays(target: Target, redactor: ReturnType<typeof createRedactor>, activityAt: number, now: number, fromDay: string | null) {
    const wide = withoutNotes(await buildDigest(this.#o.source, target.project, target.paths, redactor, activityAt, now, null, REBUILD_LIMITS));
    const kept = fromDay === null ? new Set<string>() : changelogDays(target.paths);
    return offlineDays(wide, extract(wide)).filter((day) => fromDay === null || day.date >= fromDay || !kept.has(day.date));
  }

  /** `rebuild`: after a forget, the notes are written afresh from the stored conversations alone. */
  async #attempt(target: Target, state: SweeperState, activityAt: number, rebuild = false): Promise<SweeperRunResult> {
    const settings = this.#settings;
    const keys = this.apiKeys();
    const curator = (this.#o.curatorFactory ?? ((s, k) => createCurator(s, k, this.#o.remote)))(settings, keys);
    const { projectKey } = target.project;
    const endpoint = endpointOf(settings);
    const started = this.#clock.now();
    const wallStart = performance.now();
    this.stats.runs += 1;
    this.#o.emit?.('sweeper.started', { projectKey, mode: curator.kind, model: curator.model });
    const deadline = AbortSignal.timeout(this.#o.sweepDeadlineMs ?? settings.timeoutMs * SWEEP_DEADLINE_REQUESTS);
    try {
      const redactor = createRedactor([...secretValuesFromEnv(this.#o.env), ...[keys.anthropic, keys.openai].filter((k): k is string => !!k && k.length > 8)]);
      // Gone before the curator runs: a failed rebuild leaves no stale notes behind, only a retry.
      if (rebuild) await removeStaleNotes(target.paths, state.notesStaleFromDay);
      const built = await buildDigest(this.#o.source, target.project, target.paths, redactor, activityAt, started, rebuild ? null : state.watermark);
      const digest = rebuild ? withoutNotes(built) : built;
      const today = localDay(started);
      const prompt = renderPrompt(digest, today, settings.inputTokenBudget);
      const reply = await curator.curate({ digest, prompt, today, signal: AbortSignal.any([this.#abort.signal, deadline]) });
      this.stats.calls += reply.calls;
      this.#budget.spend(reply.calls);
      // A forced sweep with nothing newer than the watermark redoes the overview; the changelog has nothing to record.
      const fresh = hasNewActivity(digest);
      // The changelog is dated by the activity it describes, never by the day the sweep ran.
      const days = rebuild ? await this.#rebuiltDays(target, redactor, activityAt, started, state.notesStaleFromDay) : fresh ? (reply.days ?? [{ date: localDay(activityAt), bullet: reply.sections.changelog }]) : [];
      const written = await writeNotes({ project: target.project, paths: target.paths, sections: reply.sections, days, overviewBefore: digest.overviewSnapshot, redactor });
      const rebuilt = rebuild ? state : undefined;
      const result = await this.#succeeded(target, fresh ? activityAt : null, { curator, endpoint }, reply, written, Math.round(performance.now() - wallStart), rebuilt);
      this.#o.emit?.('sweeper.finished', result);
      return result;
    } catch (error) {
      // The whole sweep (repairs and retries included) has a deadline, not only each request.
      const failure = deadline.aborted && !this.#abort.signal.aborted ? new CuratorError('timeout', 'The sweep ran past its deadline; nothing was written') : error;
      throw await this.#failed(target, { curator, endpoint }, failure, Math.round(performance.now() - wallStart));
    }
  }

  /**
   * `covered` is the activity this sweep reported, the new watermark; null when there was nothing new to report.
   * `rebuilt`: the state this sweep rebuilt the notes from (after a forget); a forget since then keeps them withheld.
   */
  async #succeeded(target: Target, covered: number | null, { curator, endpoint }: Sent, reply: { calls: number; tokensIn: number; tokensOut: number }, written: WriteResult, durationMs: number, rebuilt?: SweeperState): Promise<SweeperRunResult> {
    this.#paused.lift(curator.kind);
    // A kept edit whose lines moved into the manual block rewrote the file too: that is a change.
    const changed = written.overviewRewritten || written.changelog === 'appended' || written.factsAdded.length > 0;
    // A rebuild after a forget whose days the kept CHANGELOG.md already holds added none: nothing new to
    // record, which 'empty' alone would tell as an empty changelog.
    const nothingNew = covered === null || (rebuilt !== undefined && written.changelog === 'empty');
    const now = this.#clock.now();
    const after = await updateState(target.paths.state, (state) => ({
      ...state,
      degraded: null,
      watermark: covered ?? state.watermark,
      lastSweepAt: now,
      lastOutcome: changed ? 'ok' : 'nochange',
      lastError: null,
      lastMode: curator.kind,
      lastModel: curator.model,
      lastEndpoint: endpoint,
      consecutiveFailures: 0,
      nextAttemptAt: null,
      tokensIn: state.tokensIn + reply.tokensIn,
      tokensOut: state.tokensOut + reply.tokensOut,
      overviewPreserved: written.overview === 'preserved',
      ...(rebuilt !== undefined ? staleCleared(state, rebuilt) : {}),
    }), this.#o.logger);
    if (rebuilt !== undefined) this.#rebuildAgain(target.project.projectKey, after);
    const result: SweeperRunResult = {
      projectKey: target.project.projectKey,
      outcome: changed ? 'ok' : 'nochange',
      reason: nothingNew ? 'nothing-new' : null,
      mode: curator.kind,
      model: curator.model,
      calls: reply.calls,
      tokensIn: reply.tokensIn,
      tokensOut: reply.tokensOut,
      durationMs,
      overview: written.overview,
      changelog: covered === null ? 'none' : written.changelog,
      factsAdded: written.factsAdded.length,
      ...(written.note ? { note: written.note } : {}),
    };
    this.#o.record?.('sweeper.sweep', { projectKey: target.project.projectKey, mode: curator.kind, model: curator.model, tokensIn: reply.tokensIn, tokensOut: reply.tokensOut, calls: reply.calls, durationMs, outcome: result.outcome });
    this.#o.logger?.info('sweep finished', { outcome: result.outcome, mode: curator.kind, calls: reply.calls, durationMs });
    return result;
  }

  /**
   * A later failure that is not about the key answers an auth pause: with a missing key any does (a
   * key was there to send), with a rejected one a failure that shows the request got through.
   */
  #liftAuthPause(curator: CuratorKind, failure: CuratorError | null): void {
    if (this.#paused.get(curator)?.reason !== 'auth' || failure?.failure === 'auth') return;
    const through = failure !== null && (failure.status !== null || REACHED.has(failure.failure));
    if (this.#paused.keyMissing(curator) || through) this.#paused.lift(curator);
  }

  /** A failure never advances the watermark; it backs off exponentially and may pause the curator. */
  async #failed(target: Target, { curator, endpoint }: Sent, error: unknown, durationMs: number): Promise<SweeperFailure> {
    const failure = error instanceof CuratorError ? error : null;
    const code = failure?.failure ?? 'internal';
    // Not a curator's refusal: the cause (a file or database error) is named by its code only.
    const cause = failure ? undefined : errorCode(error);
    const message = failure?.message ?? `The sweep failed unexpectedly (${cause}); nothing was written`;
    const calls = failure?.calls ?? 0;
    this.stats.calls += calls;
    this.#budget.spend(calls);
    if (code === 'cancelled') {
      // Shutdown is not the project's fault: no backoff, no failure count, the same activity next time.
      this.#o.logger?.info('sweep cancelled', { mode: curator.kind });
      return new SweeperFailure('sweep_failed', message);
    }
    const base = Math.max(this.#settings.minIntervalMs, BACKOFF_FLOOR_MS);
    const now = this.#clock.now();
    const paused = failure?.pause === true;
    // A missing key (nothing was sent) pauses until a key is there; a rejected one until the person acts.
    if (paused && failure) this.#paused.set({ curator: curator.kind, reason: failure.failure as 'spend_limit' | 'auth', message, since: now, keyMissing: failure.failure === 'auth' && failure.status === null });
    else this.#liftAuthPause(curator.kind, failure);
    const written = await updateState(target.paths.state, (state) => {
      // Another curator's failures are not this one's: its count starts afresh.
      const before = earnedBy(state, { mode: curator.kind, model: curator.model, endpoint }) ? state.consecutiveFailures : 0;
      return {
        ...state,
        lastSweepAt: now,
        lastOutcome: paused ? 'paused' : 'failed',
        lastError: { code, message },
        lastMode: curator.kind,
        lastModel: curator.model,
        lastEndpoint: endpoint,
        consecutiveFailures: before + 1,
        nextAttemptAt: now + Math.min(base * 2 ** before, this.#o.backoffCapMs ?? 6 * 3_600_000),
      };
    }, this.#o.logger);
    // A paused curator waits for the person; any other failure is tried again when its backoff ends.
    if (!paused && written.nextAttemptAt !== null) this.#retryLater(target.project.projectKey, written.nextAttemptAt);
    this.#o.emit?.('sweeper.failed', { projectKey: target.project.projectKey, code, message, paused });
    this.#o.record?.('sweeper.sweep', { projectKey: target.project.projectKey, mode: curator.kind, model: curator.model, tokensIn: 0, tokensOut: 0, calls, durationMs, outcome: paused ? 'paused' : 'failed', failure: code });
    this.#o.logger?.warn('sweep failed', { failure: code, cause, mode: curator.kind, calls, paused });
    return new SweeperFailure(paused ? 'curator_paused' : 'sweep_failed', message);
  }
}
