import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDispatcher, EventBus, type AppStatus, type CallContext, type Dispatcher, type EventPayload, type MethodName, type Params, type Result } from './api/index.js';
import { appHandlers, AppState, firstRunHandlers, headlessStartAtLogin, settingsHandlers, StatusReporter, type StartAtLogin } from './app/index.js';
import { Capture, captureHandlers } from './capture/index.js';
import { loadConfig, packageRoot, parseConfig, readConfigFile, resolveHome, skippedRoots, stewardVersion, type Config, type StewardHome } from './config/index.js';
import { cacheStatsHandlers, GatewayReader, openGateway, TelemetryLog, telemetryHandlers, Tombstones } from './gateway/index.js';
import { History, historyHandlers } from './history/index.js';
import { createFileLogger, errorCode, withLevel, type LeveledLogger, type Logger } from './log/index.js';
import { Maintenance, providerFacts, snapshotsOf, maintenanceHandlers, profileDeps, ragStage, RepositorySearch, repositoryHandlers, scheduleReconcile, syncStage, type PlanFacts } from './maintenance/index.js';
import { ProjectStore, projectsHandlers } from './projects/index.js';
import { environmentKeyStore, KeyRing, NamedSecrets, PanelToken, preloadRedaction, secretsHandlers, type KeyStore } from './secrets/index.js';
import { acquireOwnerLock, type Db, type LockRole, type OwnerLock } from './store/index.js';
import { GatewayDigestSource, preloadCuratorSdk, projectPaths, Sweeper, sweeperHandlers, sweeperSettingsFrom } from './sweeper/index.js';
import { transcriptsHandlers } from './transcripts/index.js';

export interface CoreOptions {
  home?: StewardHome;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Mirror log lines to stderr (headless mode, the CLI). */
  logToStderr?: boolean;
  /** Run the transcript sweep on its interval (owners: the app, `steward serve`); off for the in-process CLI. */
  schedule?: boolean;
  /** Where remote curators' API keys are kept: the app passes its keychain store; the environment by default. */
  keyStore?: KeyStore;
  /** How start at login is done: the app passes login items or its own autostart entry; headless by default. */
  startAtLogin?: StartAtLogin;
  /** How this owner stops when asked (`steward stop`): the app quits, `steward serve` exits. Absent in the in-process CLI. */
  onStopRequest?: () => void;
  /** What the lock says holds the store (see acquireOwnerLock): an owner (the app, `steward serve`) or, by default, a one-shot command. */
  lockRole?: LockRole;
  /** The CLI verb a command's lock is taken for (`backfill`), so `steward backfill --cancel` can find it. */
  lockVerb?: string;
}

/** Calls in these areas can change what needs the person (a lifted pause, a resolved conflict): the status is re-read after them. */
const STATUS_AREAS = new Set(['Settings', 'Sweeper', 'Maintenance', 'Conflicts']);

/**
 * The one owner of Steward's stores. Electron main, `steward serve` and the in-process CLI all create
 * exactly this object; transports only adapt its `call` and `events`.
 */
export class Core {
  readonly home: StewardHome;
  readonly env: NodeJS.ProcessEnv;
  readonly config: Config;
  readonly logger: LeveledLogger;
  readonly events = new EventBus();
  readonly gateway: Db;
  readonly telemetry: TelemetryLog;
  readonly projects: ProjectStore;
  readonly sweeper: Sweeper;
  readonly capture: Capture;
  readonly maintenance: Maintenance;
  readonly history: History;
  readonly keys: KeyRing;
  /** Named secrets beyond curator keys (forge tokens): keychain, then the secrets file, then the environment. */
  readonly secrets: NamedSecrets;
  readonly app = new AppState((status) => this.events.emit('app.status', status));
  /** The panel's per-install bearer token; the loopback server checks it and follows its rotation. */
  readonly panelToken: PanelToken;
  readonly #reporter: StatusReporter;
  readonly #lock: OwnerLock;
  readonly #dispatcher: Dispatcher;
  readonly #stoppers: Array<() => Promise<void> | void> = [];
  #closed = false;

  readonly #startAtLogin: StartAtLogin;
  readonly #schedule: boolean;

  private constructor(home: StewardHome, env: NodeJS.ProcessEnv, lock: OwnerLock, config: Config, logger: LeveledLogger, options: CoreOptions) {
    const schedule = options.schedule ?? false;
    this.home = home;
    this.env = env;
    this.#lock = lock;
    this.config = config;
    this.logger = logger;
    this.#schedule = schedule;
    this.#startAtLogin = options.startAtLogin ?? headlessStartAtLogin(env, process.platform, join(packageRoot(), 'bin', 'steward.js'), home.dir);
    this.keys = new KeyRing(options.keyStore ?? environmentKeyStore(env), env);
    this.panelToken = new PanelToken(home.dir);
    this.secrets = new NamedSecrets(this.keys.store, home.dir, env);
    this.gateway = openGateway(home.dir, logger);
    try {
      const sessions = new GatewayReader(this.gateway);
      this.telemetry = new TelemetryLog(this.gateway, { logger });
      // A project whose folder holds the sweeper's notes or settings keeps its row when its sessions move away.
      this.projects = new ProjectStore(this.gateway, sessions, { hasFolder: (slug) => existsSync(projectPaths(home.dir, slug).dir) });
      this.#reporter = new StatusReporter(this.app, (key) => this.projects.nameOf(key) ?? undefined);
      this.sweeper = this.#createSweeper(schedule, sessions);
      this.capture = this.#createCapture(schedule);
      // New live genuine user turns committed by capture enqueue their projects for curation.
      this.capture.onUserTurns((turns) => this.sweeper.onLiveTurns(turns));
      this.maintenance = this.#createMaintenance(schedule);
      this.history = this.#createHistory(schedule);
      // A call's internal error (a bug) goes to main.log by method and code (a RangeError's class) alone: its params and message can hold what was searched for.
      this.#dispatcher = createDispatcher({
        ...appHandlers(this.app, {
          version: stewardVersion(),
          homeKind: home.kind,
          setPaused: (paused) => this.setPaused(paused),
          rotateToken: () => void this.panelToken.rotate(),
          startAtLogin: this.#startAtLogin,
          ...(options.onStopRequest ? { requestStop: options.onStopRequest } : {}),
        }),
        ...firstRunHandlers(home.dir),
        ...settingsHandlers({
          home,
          env,
          started: config,
          live: () => ({ sweepIntervalMs: this.capture.intervalMs, sweeperIgnore: this.sweeper.settings.ignore, dailyModelCalls: this.sweeper.settings.dailyModelCalls, logLevel: this.logger.level }),
          applyNow: (next) => {
            this.sweeper.updateSettings(sweeperSettingsFrom(next), { liftPauses: false });
            this.logger.setLevel(next.log.level);
            // The environment's override applied (writeConfig): while STEWARD_SWEEP_INTERVAL_MS is set, nothing changes.
            this.capture.reschedule(next.sweep.interval_ms);
          },
        }),
        ...telemetryHandlers(this.telemetry),
        ...cacheStatsHandlers(this.gateway, home.dir, () => this.projects.countHoldingConversations()),
        ...transcriptsHandlers(config, env, () => parseConfig(readConfigFile(home.dir))),
        // A latest conversation's name, redacted when asked: history reads its first request whole before the cut.
        // Where each project's notes stand: the sweeper's gate judges it, so the list needs no call per project.
        ...projectsHandlers(this.projects, (labels) => this.history.sessions.redactedNames(labels), (records) => this.sweeper.notesOf(records)),
        ...captureHandlers(this.capture),
        ...sweeperHandlers(this.sweeper, this.home.dir, this.env, this.keys),
        ...maintenanceHandlers(this.maintenance),
        ...repositoryHandlers(this.#repositorySearch()),
        ...historyHandlers(this.history),
        ...secretsHandlers(this.secrets),
      }, (method, error) => logger.error('call failed', { method, code: errorCode(error) }));
      this.#followRooms();
    } catch (error) {
      // A room that fails to open must not leave an earlier room's timers running on a closed store.
      for (const stop of this.#stoppers.splice(0).reverse()) void Promise.resolve(stop()).catch((e: unknown) => logger.warn('a room failed to stop cleanly', { code: errorCode(e) }));
      this.gateway.close();
      throw error;
    }
  }

  /** Takes the owner lock, validates config and opens the stores; throws a typed error on any refusal. */
  static open(options: CoreOptions = {}): Core {
    const env = options.env ?? process.env;
    const home = options.home ?? resolveHome(env);
    mkdirSync(home.dir, { recursive: true, mode: 0o700 });
    const config = loadConfig(home.dir, env);
    const lock = acquireOwnerLock(home.dir, options.lockRole, options.lockVerb);
    try {
      const logger = withLevel(options.logger ?? createFileLogger(home.dir, { stderr: options.logToStderr ?? false }), config.log.level);
      if (lock.takenOver) logger.warn('owner lock taken over', { pid: lock.takenOver.pid, reason: lock.takenOver.reason });
      const core = new Core(home, env, lock, config, logger, options);
      logger.info('core opened', { pid: process.pid, homeKind: home.kind });
      // By its key alone: the folder and HOME's value are the person's own (Settings shows the folder).
      for (const error of skippedRoots(config)) logger.warn('config root left out', { key: String((error.details?.keys as unknown[] | undefined)?.[0]), reason: String(error.details?.reason), code: error.code });
      // An owner redacts and sweeps soon; the in-process CLI may never, and waits for neither to load.
      if (options.schedule) {
        preloadRedaction();
        const sweeper = sweeperSettingsFrom(config);
        if (sweeper.enabled) preloadCuratorSdk(sweeper.curator);
      }
      return core;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  get status(): AppStatus {
    return this.app.status;
  }

  setPaused(paused: boolean): AppStatus {
    const status = this.app.setPaused(paused);
    if (!paused) this.sweeper.resume();
    this.logger.info(paused ? 'paused' : 'resumed');
    return status;
  }

  call<M extends MethodName>(method: M, params: Params<M>, ctx?: CallContext): Promise<Result<M>>;
  call(method: string, params: unknown, ctx?: CallContext): Promise<unknown>;
  call(method: string, params: unknown, ctx: CallContext = { transport: 'in-process' }): Promise<unknown> {
    const call = this.#dispatcher.call(method, params, ctx);
    if (!STATUS_AREAS.has(method.split('.')[0] ?? '')) return call;
    return call.finally(() => this.#refreshStatus());
  }

  /** The status follows the rooms: the sweeper's runs and the maintenance registry as they change. */
  #followRooms(): void {
    this.events.subscribe((name, payload) => {
      if (name === 'sweeper.started') this.#reporter.curatorStarted((payload as EventPayload<'sweeper.started'>).projectKey);
      else if (name === 'sweeper.finished') this.#reporter.curatorFinished((payload as EventPayload<'sweeper.finished'>).projectKey);
      else if (name === 'sweeper.failed') {
        const failed = payload as EventPayload<'sweeper.failed'>;
        this.#reporter.curatorFailed(failed.projectKey, failed.message, failed.paused);
      }
      // Long work the status says while it runs: the index's walk, and a forget's erasing (a lift ends it too).
      else if (name === 'search.indexing') this.#reporter.indexing(payload as EventPayload<'search.indexing'>);
      else if (name === 'forget.progress') this.#reporter.forgetting(payload as EventPayload<'forget.progress'>);
      else if (name === 'history.changed' && (payload as EventPayload<'history.changed'>).change === 'lifted') this.#reporter.forgetEnded(payload as EventPayload<'history.changed'>);
      if (name === 'sweeper.finished' || name === 'sweeper.failed' || name === 'maintenance.changed') this.#refreshStatus();
    });
    this.#refreshStatus();
  }

  /** Re-reads what is kept whole (curator pauses, the maintenance registry); a failure to read is logged, not thrown. */
  #refreshStatus(): void {
    try {
      this.#reporter.curatorPauses(this.sweeper.pauses());
      const list = this.maintenance.list();
      this.#reporter.maintenance(list, list.registry.state === 'degraded' ? [] : this.maintenance.conflicts());
    } catch (error) {
      this.logger.warn('status refresh failed', { code: errorCode(error) });
    }
  }

  #createCapture(schedule: boolean): Capture {
    const capture = new Capture({
      db: this.gateway,
      config: this.config,
      env: this.env,
      logger: this.logger,
      projects: this.projects,
      record: (kind, data, at) => this.telemetry.record(kind, data, at),
      recent: (limit, kind) => this.telemetry.recent(limit, kind),
      onTick: (providers, kind) => {
        this.#reporter.captureSettled(providers);
        this.events.emit('sweep.tick', { kind, at: Date.now(), providers });
        // A large run left parts to the index walk; it starts now that the run has ended.
        this.history?.startIndexing();
      },
      onProgress: (progress) => {
        this.#reporter.captureProgress(progress);
        this.events.emit('backfill.progress', progress);
      },
      // Whoever asked (the schedule, Sweep now, `steward sweep` through this owner, a backfill), the queue says it is busy.
      onBusy: (busy) => this.#reporter.captureBusy(busy),
    });
    if (schedule) capture.start(() => this.app.paused);
    this.onShutdown(() => capture.stop());
    return capture;
  }

  /** The maintenance coordinator (spec 004); only a scheduling owner runs the reconcile timer. */
  #createMaintenance(schedule: boolean): Maintenance {
    const settings = this.config.maintenance;
    const sync = syncStage({
      home: this.home.dir,
      token: (name) => this.secrets.lookup(name).value,
      settings: { headIntervalMs: settings.head_interval_ms, reverifyMs: settings.reverify_interval_ms },
    });
    const rag = ragStage({ home: this.home.dir, logger: this.logger, apiKey: this.#embeddingKey });
    const maintenance = new Maintenance({
      home: this.home.dir,
      logger: this.logger,
      runners: { sync, rag },
      planFacts: this.#planFacts(),
      onWaiting: (waiting) => this.#reporter.waitingPlans(waiting),
      timerIntervalMs: settings.reconcile_interval_ms,
      onChange: (summary) => this.events.emit('maintenance.changed', summary),
      onProgress: (registrationId, lane, tally) =>
        lane !== 'index' && this.events.emit('maintenance.progress', { at: Date.now(), registrationId, lane, ...tally }),
    });
    if (schedule) this.onShutdown(scheduleReconcile(maintenance, this.config.maintenance.reconcile_interval_ms, this.logger));
    else this.onShutdown(() => maintenance.stop());
    // Registered last, so it runs first: a running index stops between batches before shutdown waits on writers.
    this.onShutdown(() => rag.stop());
    return maintenance;
  }

  /** An OpenAI-compatible embedder's key is the same key store entry as the curator's; only a remote endpoint is sent it. */
  readonly #embeddingKey = (): string | undefined => this.keys.lookup('openai-compatible').key ?? undefined;

  #repositorySearch(): RepositorySearch {
    return new RepositorySearch(() => (this.maintenance.store.degradedReason ? [] : this.maintenance.store.current().registrations), profileDeps({ home: this.home.dir, apiKey: this.#embeddingKey }));
  }

  /**
   * What maintenance plans may know about this machine: whether this Core is the scheduling owner,
   * start at login, whether a forge token is stored, and the configured embedding profiles.
   */
  #planFacts(): PlanFacts {
    const startAtLogin = this.#startAtLogin;
    return {
      service: {
        ownerRunning: this.#schedule,
        startAtLogin: () => {
          const view = startAtLogin.read();
          return { enabled: view.enabled, supported: view.supported };
        },
        installStartAtLogin: () => void startAtLogin.set(true),
      },
      // config.json is read again for every plan: a profile edited since the owner started is seen, and makes older plans stale.
      profiles: providerFacts(() => snapshotsOf(loadConfig(this.home.dir, this.env).maintenance.profiles), profileDeps({ home: this.home.dir, apiKey: this.#embeddingKey })),
      tokenPresent: (name) => this.secrets.lookup(name).value !== undefined,
    };
  }

  /** The per-project curator (spec 001); it arms timers only when this Core schedules. */
  #createSweeper(schedule: boolean, sessions: GatewayReader): Sweeper {
    const forgotten = new Tombstones(this.gateway);
    const sweeper = new Sweeper({
      home: this.home.dir,
      source: new GatewayDigestSource(this.projects, sessions, (projectKey) => forgotten.has('project', projectKey)),
      settings: sweeperSettingsFrom(this.config),
      env: this.env,
      emit: (name, payload) => this.events.emit(name, payload),
      record: (kind, data) => this.telemetry.record(kind, data),
      logger: this.logger,
      schedule,
      isPaused: () => this.app.paused,
      apiKeys: () => ({ anthropic: this.keys.lookup('anthropic').key, openai: this.keys.lookup('openai-compatible').key, storable: this.keys.store.status().writable }),
    });
    this.onShutdown(() => sweeper.stop());
    return sweeper;
  }

  /** Search, reading, export and forgetting; an owner indexes earlier history in the background. */
  #createHistory(schedule: boolean): History {
    const history = new History({
      db: this.gateway,
      projects: this.projects,
      env: this.env,
      home: this.home.dir,
      logger: this.logger,
      emit: (name, payload) => this.events.emit(name, payload),
      removeNotes: (projectKey, slug) => this.sweeper.forgetProject(projectKey, slug),
      notesStale: (projectKey, firstActiveAt) => this.sweeper.notesStale(projectKey, firstActiveAt),
    });
    // Unforget: capture reads again, at its next tick, the files that held what was forgotten.
    history.forgetting.onLift((kind, id, sessionIds) => this.capture.reread(kind, id, sessionIds));
    if (schedule) {
      history.startIndexing();
      // A forget a stop or a crash cut short: its tombstone held meanwhile, and its rows go now.
      void history.forgetting.finishInterrupted();
    }
    this.onShutdown(() => history.stop());
    return history;
  }

  /** Rooms register how they stop (timers, queues, in-flight runs); shutdown runs them newest first. */
  onShutdown(stop: () => Promise<void> | void): void {
    this.#stoppers.push(stop);
  }

  /** Stops every room, waits for in-flight work to settle, then closes the stores and the lock. */
  async shutdown(): Promise<void> {
    for (const stop of this.#stoppers.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        this.logger.warn('a room failed to stop cleanly', { code: errorCode(error) });
      }
    }
    this.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.telemetry.close();
      this.gateway.close();
    } finally {
      this.#lock.release();
      this.logger.info('core closed');
    }
  }
}
