import type { ProviderStats } from '../backfill/index.js';
import type { ProviderId } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';

export type RunKind = 'scheduled' | 'manual';

/** Who started a tick: the schedule (its timer, the start-up tick) or a person (a check by hand: checkNow). */
export type TickTrigger = 'schedule' | 'hand';

/** A provider whose run failed, or failed on some files, while the queue was busy; codes only. */
export interface ProviderFailure {
  provider: ProviderId;
  codes: string[];
}

export interface ProviderRunner {
  (provider: ProviderId, kind: RunKind, signal: AbortSignal): Promise<ProviderStats>;
}

/** Who a tick is for, shared by the runs it queued: a check by hand that finds them all running makes it the person's (tick). */
interface Origin {
  trigger: TickTrigger;
}

interface Job {
  provider: ProviderId;
  kind: RunKind;
  /** The tick that queued a scheduled run; none for a backfill. */
  origin?: Origin;
  start: (signal: AbortSignal) => Promise<ProviderStats>;
  promise: Promise<ProviderStats>;
  resolve: (stats: ProviderStats) => void;
  settled: boolean;
  abort: AbortController;
}

export interface SweepSchedulerOptions {
  /** Registry order. */
  providers: readonly ProviderId[];
  run: ProviderRunner;
  /** The bounded wait on the run at the head of the queue. */
  handoffMs: number;
  logger: Logger;
  /** The queue went busy (true) or drained (false); `failed` names providers that failed meanwhile, with why. */
  onBusy?: (busy: boolean, failed: readonly ProviderFailure[]) => void;
  /** A scheduled tick, whoever started it (the timer, Sweep.Tick, the start-up tick), settled for every provider. */
  onTicked?: (tick: SettledTick) => void;
}

export interface SettledTick {
  /** When the tick was queued. */
  startedAt: number;
  /**
   * Who started it, so its telemetry row says what happened (a check by hand is no scheduled check);
   * 'hand' too when a check by hand found all its runs in flight and awaited them (tick).
   */
  trigger: TickTrigger;
  /** Every provider's stats, in registry order: the runs it queued and the ones already in flight it awaited. */
  providers: ProviderStats[];
  /** The stats of the runs this tick queued itself; the others belong to (and are reported by) the tick that queued them. */
  queued: ProviderStats[];
}

/** The stats of a run that failed with `code` before it could report any (it threw, or outlived the handoff bound). */
export function settledStats(provider: ProviderId, durationMs: number, code: string): ProviderStats {
  return { provider, discovered: 0, read: 0, unchanged: 0, failed: 1, partsWritten: 0, durationMs: Math.round(durationMs), failedLines: 0, errors: [{ code, count: 1 }] };
}

/**
 * A queued run cancelled before it started (a backfill cancelled, the owner stopping): it listed
 * nothing and failed at nothing. The shape a running run reports when cancelled, so one word covers both.
 */
export function cancelledStats(provider: ProviderId): ProviderStats {
  return { provider, discovered: 0, read: 0, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 0, failedLines: 0, cancelled: true, notReached: 0 };
}

/**
 * The sweep driver's queue: every due provider is queued in registry order and one provider runs
 * at a time. A queued or running scheduled provider counts as in flight, so a later tick awaits it
 * rather than duplicating or reordering it. The head is awaited for a bounded time only.
 */
export class SweepScheduler {
  readonly #options: SweepSchedulerOptions;
  readonly #queue: Job[] = [];
  readonly #inFlight = new Map<ProviderId, Job>();
  #running: Job | undefined;
  #drained: Promise<void> = Promise.resolve();
  #failedWhileBusy: ProviderFailure[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** The schedule's interval, what skips a tick, and its last check: when the timer last fired, a check by hand ended, or it started. */
  #interval: { ms: number; skip: () => boolean; lastAt: number } | undefined;
  #nextAt = 0;
  #stopped = false;
  /** Set while an exclusive task holds the queue: no provider run starts until it settles. */
  #held: Promise<void> | undefined;
  #exclusiveAbort: AbortController | undefined;

  constructor(options: SweepSchedulerOptions) {
    this.#options = options;
  }

  /**
   * Queues every due provider; resolves once each has settled, in registry order. Every tick goes
   * through here, so `onTicked` is told of each one before its caller resumes.
   */
  tick(trigger: TickTrigger = 'schedule'): Promise<ProviderStats[]> {
    const startedAt = Date.now();
    const origin: Origin = { trigger };
    const queued = new Set<ProviderId>();
    const awaited = new Set<Origin>();
    const promises = this.#options.providers.map((provider) => {
      const existing = this.#inFlight.get(provider);
      if (existing) {
        if (existing.origin) awaited.add(existing.origin);
        return existing.promise;
      }
      const job = this.#enqueue(provider, 'scheduled', (signal) => this.#options.run(provider, 'scheduled', signal), origin);
      this.#inFlight.set(provider, job);
      queued.add(provider);
      return job.promise;
    });
    // A check by hand that queued nothing has no row of its own: the ticks it awaited answered the
    // person, so their rows say a person asked. One that queued runs says so in its own row only.
    if (trigger === 'hand' && queued.size === 0) for (const other of awaited) other.trigger = 'hand';
    this.#pump();
    const all = Promise.all(promises);
    // Who it was for is read as it settles: a check by hand may have joined it meanwhile.
    all.then((providers) => this.#ticked({ startedAt, trigger: origin.trigger, providers, queued: providers.filter((_, i) => queued.has(this.#options.providers[i]!)) }), () => undefined);
    return all;
  }

  /** Manual and onboarding backfills go through the same queue, so they never overlap a sweep. */
  runManual(providers: readonly ProviderId[], start: (provider: ProviderId, signal: AbortSignal) => Promise<ProviderStats>): Promise<ProviderStats[]> {
    const promises = providers.map((provider) => this.#enqueue(provider, 'manual', (signal) => start(provider, signal)).promise);
    this.#pump();
    return Promise.all(promises);
  }

  /**
   * Cancels every manual or onboarding backfill: queued ones settle at once with nothing imported,
   * the running one is aborted and stops between batches, keeping what it committed. Returns how many.
   */
  cancelManual(): number {
    const queued = this.#queue.filter((job) => job.kind === 'manual');
    for (const job of queued) {
      this.#queue.splice(this.#queue.indexOf(job), 1);
      this.#settle(job, cancelledStats(job.provider));
    }
    const running = this.#running?.kind === 'manual' && !this.#running.abort.signal.aborted ? this.#running : undefined;
    running?.abort.abort();
    return queued.length + (running ? 1 : 0);
  }

  /**
   * Runs `task` with the queue to itself: the provider run in progress finishes first (within the
   * handoff bound), queued and newly due providers wait until the task settles. Cache maintenance
   * goes through here so it never interleaves with an import. `stop()` aborts the signal.
   */
  async exclusive<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    while (this.#held) await this.#held;
    let release!: () => void;
    this.#held = new Promise<void>((resolve) => (release = resolve));
    const abort = new AbortController();
    this.#exclusiveAbort = abort;
    if (this.#stopped) abort.abort();
    try {
      await this.#drained;
      return await task(abort.signal);
    } finally {
      this.#held = undefined;
      this.#exclusiveAbort = undefined;
      release();
      this.#pump();
    }
  }

  /** For inspection and tests: which provider runs, which wait. */
  get running(): ProviderId | undefined {
    return this.#running?.provider;
  }

  get queued(): ProviderId[] {
    return this.#queue.map((job) => job.provider);
  }

  isInFlight(provider: ProviderId): boolean {
    return this.#inFlight.has(provider);
  }

  /** `skip` (e.g. the app is paused) is asked on every interval; a skipped interval queues nothing. */
  start(intervalMs: number, skip: () => boolean = () => false): void {
    if (this.#timer || this.#stopped) return;
    this.#interval = { ms: intervalMs, skip, lastAt: Date.now() };
    this.#arm(Date.now() + intervalMs);
  }

  /**
   * A new interval for the running schedule (a saved setting): the next tick falls at the last check
   * (or the start) plus the new interval, at once when that is past (#rearm). Before start, start names its own.
   */
  reschedule(intervalMs: number): void {
    const interval = this.#interval;
    if (!this.#timer || !interval || interval.ms === intervalMs) return;
    interval.ms = intervalMs;
    this.#rearm();
  }

  /**
   * A check asked for by hand (Sweep.Tick: Check now, Import now, `steward sweep`): a tick now, after
   * which the running schedule counts from its end (#rearm), so no scheduled tick follows it within an
   * interval. Its end, not its start: a long check is not followed by another moments later, and the
   * next check falls an interval after the "last check" every surface shows (recorded as it ends).
   */
  async checkNow(): Promise<ProviderStats[]> {
    // Moved from its start too: a timer falling due while it runs would queue again an agent it already read.
    this.checked(Date.now());
    const providers = await this.tick('hand');
    this.checked(Date.now());
    return providers;
  }

  /**
   * A check ended at `at` (a check by hand, or an import that looked at every agent's folders): the
   * running schedule counts from it (#rearm), its next tick an interval after. Nothing while it is not running.
   */
  checked(at: number): void {
    if (!this.#timer || !this.#interval) return;
    this.#interval.lastAt = at;
    this.#rearm();
  }

  /** When the timer ticks next (ticked or skipped), or null when it is not running. */
  get nextTickAt(): number | null {
    return this.#timer ? this.#nextAt : null;
  }

  /**
   * One timer a tick, each arming the next from when it fired: a new interval (reschedule) then
   * replaces a single pending timer. A tick never awaits the previous one: due providers already in
   * flight are simply not re-queued.
   */
  #arm(at: number): void {
    this.#nextAt = at;
    this.#timer = setTimeout(() => {
      const interval = this.#interval!;
      interval.lastAt = Date.now();
      this.#rearm();
      if (!interval.skip()) void this.tick();
    }, Math.max(0, at - Date.now()));
    this.#timer.unref();
  }

  /**
   * The schedule's one rule: its next tick at its last check (a timer's fire, a check by hand's end,
   * or the start) plus the interval, at once when that is past. Replaces the pending timer.
   */
  #rearm(): void {
    const interval = this.#interval!;
    clearTimeout(this.#timer);
    this.#arm(Math.max(Date.now(), interval.lastAt + interval.ms));
  }

  /** No new work; queued runs settle as cancelled; the running one is aborted and awaited (bounded). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const job of this.#queue.splice(0)) this.#settle(job, cancelledStats(job.provider));
    this.#running?.abort.abort();
    this.#exclusiveAbort?.abort();
    await this.#drained;
    await this.#held;
  }

  /** A listener's failure is logged: it must neither fail the tick nor escape as an unhandled rejection of the timer's tick. */
  #ticked(tick: SettledTick): void {
    try {
      this.#options.onTicked?.(tick);
    } catch (error) {
      this.#options.logger.error('recording a tick failed', { code: errorCode(error) });
    }
  }

  #enqueue(provider: ProviderId, kind: RunKind, start: Job['start'], origin?: Origin): Job {
    let resolve!: (stats: ProviderStats) => void;
    const promise = new Promise<ProviderStats>((r) => (resolve = r));
    const job: Job = { provider, kind, start, promise, resolve, settled: false, abort: new AbortController(), ...(origin ? { origin } : {}) };
    if (this.#stopped) {
      this.#settle(job, cancelledStats(provider));
      return job;
    }
    this.#queue.push(job);
    return job;
  }

  #settle(job: Job, stats: ProviderStats, failed = false): void {
    if (job.settled) return;
    job.settled = true;
    // A late completion of a handed-on run must not release a newer run of the same provider.
    if (this.#inFlight.get(job.provider) === job) this.#inFlight.delete(job.provider);
    if (failed) this.#failedWhileBusy.push({ provider: job.provider, codes: (stats.errors ?? []).map((e) => e.code) });
    job.resolve(stats);
  }

  #pump(): void {
    if (this.#running || this.#held || this.#queue.length === 0) return;
    this.#drained = (async () => {
      this.#failedWhileBusy = [];
      this.#options.onBusy?.(true, []);
      for (let job = this.#next(); job; job = this.#next()) {
        this.#running = job;
        await this.#runHead(job);
        this.#running = undefined;
      }
      this.#options.onBusy?.(false, this.#failedWhileBusy);
    })();
  }

  /** An exclusive task taken between two runs stops the drain; its release pumps again. */
  #next(): Job | undefined {
    return this.#held ? undefined : this.#queue.shift();
  }

  #runHead(job: Job): Promise<void> {
    const started = performance.now();
    return new Promise<void>((done) => {
      const finish = (stats: ProviderStats, failed = false) => {
        clearTimeout(timer);
        this.#settle(job, stats, failed);
        done();
      };
      const bound = () =>
        setTimeout(() => {
          this.#options.logger.warn('provider run exceeded the handoff bound; the queue moves on', { provider: job.provider, kind: job.kind, code: 'handoff_timeout' });
          job.abort.abort();
          finish(settledStats(job.provider, performance.now() - started, 'handoff_timeout'), true);
        }, this.#options.handoffMs);
      // A scheduled run is bounded from its start. A backfill the user asked for may honestly take
      // longer (years of history): it reports progress and can be cancelled, and only once cancelled
      // (or stopped) is its wait bounded, so a run that then settles neither way still hands on.
      let timer: NodeJS.Timeout | undefined = job.kind === 'scheduled' ? bound() : undefined;
      if (job.kind === 'manual') job.abort.signal.addEventListener('abort', () => void (timer ??= bound()), { once: true });
      let run: Promise<ProviderStats>;
      try {
        run = job.start(job.abort.signal);
      } catch (error) {
        run = Promise.reject(error);
      }
      run.then(
        (stats) => {
          // A run that went through but failed on some files is reported too, with the files' codes.
          if (!job.settled) finish(stats, (stats.errors?.length ?? 0) > 0);
        },
        (error: unknown) => {
          if (job.settled) return;
          const code = errorCode(error);
          this.#options.logger.error('provider run failed', { provider: job.provider, kind: job.kind, code });
          finish(settledStats(job.provider, performance.now() - started, code), true);
        },
      );
    });
  }
}
