import { mkdirSync } from 'node:fs';
import { createDispatcher, EventBus, type AppStatus, type CallContext, type Dispatcher, type MethodName, type Params, type Result } from './api/index.js';
import { appHandlers, AppState } from './app/index.js';
import { Capture, captureHandlers } from './capture/index.js';
import { loadConfig, resolveHome, stewardVersion, type Config, type StewardHome } from './config/index.js';
import { GatewayReader, openGateway, TelemetryLog, telemetryHandlers } from './gateway/index.js';
import { createFileLogger, errorCode, type Logger } from './log/index.js';
import { Maintenance, maintenanceHandlers, profileDeps, ragStage, RepositorySearch, repositoryHandlers, scheduleReconcile } from './maintenance/index.js';
import { ProjectStore, projectsHandlers } from './projects/index.js';
import { environmentKeyStore, KeyRing, type KeyStore } from './secrets/index.js';
import { acquireOwnerLock, type Db, type OwnerLock } from './store/index.js';
import { GatewayDigestSource, Sweeper, sweeperHandlers, sweeperSettingsFrom } from './sweeper/index.js';

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
}

/**
 * The one owner of Steward's stores. Electron main, `steward serve` and the in-process CLI all create
 * exactly this object; transports only adapt its `call` and `events`.
 */
export class Core {
  readonly home: StewardHome;
  readonly env: NodeJS.ProcessEnv;
  readonly config: Config;
  readonly logger: Logger;
  readonly events = new EventBus();
  readonly gateway: Db;
  readonly telemetry: TelemetryLog;
  readonly projects: ProjectStore;
  readonly sweeper: Sweeper;
  readonly capture: Capture;
  readonly maintenance: Maintenance;
  readonly keys: KeyRing;
  readonly app = new AppState((status) => this.events.emit('app.status', status));
  readonly #lock: OwnerLock;
  readonly #dispatcher: Dispatcher;
  readonly #stoppers: Array<() => Promise<void> | void> = [];
  #closed = false;

  private constructor(home: StewardHome, env: NodeJS.ProcessEnv, lock: OwnerLock, config: Config, logger: Logger, schedule = false, keyStore?: KeyStore) {
    this.home = home;
    this.env = env;
    this.#lock = lock;
    this.config = config;
    this.logger = logger;
    this.keys = new KeyRing(keyStore ?? environmentKeyStore(env), env);
    this.gateway = openGateway(home.dir);
    try {
      const sessions = new GatewayReader(this.gateway);
      this.telemetry = new TelemetryLog(this.gateway);
      this.projects = new ProjectStore(this.gateway, sessions);
      this.sweeper = this.#createSweeper(schedule, sessions);
      this.capture = this.#createCapture(schedule);
      // New genuine user turns committed by capture enqueue their projects for curation.
      this.capture.onUserTurns((projectKeys) => this.sweeper.enqueue(projectKeys));
      this.maintenance = this.#createMaintenance(schedule);
      this.#dispatcher = createDispatcher({
        ...appHandlers(this.app, { version: stewardVersion(), homeKind: home.kind, setPaused: (paused) => this.setPaused(paused) }),
        ...telemetryHandlers(this.telemetry),
        ...projectsHandlers(this.projects),
        ...captureHandlers(this.capture),
        ...sweeperHandlers(this.sweeper, this.home.dir, this.env, this.keys),
        ...maintenanceHandlers(this.maintenance),
        ...repositoryHandlers(this.#repositorySearch()),
      });
    } catch (error) {
      // A room that fails to open must not leave an earlier room's timers running on a closed store.
      for (const stop of this.#stoppers.splice(0).reverse()) void Promise.resolve(stop()).catch(() => undefined);
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
    const lock = acquireOwnerLock(home.dir);
    try {
      const logger = options.logger ?? createFileLogger(home.dir, { stderr: options.logToStderr ?? false });
      const core = new Core(home, env, lock, config, logger, options.schedule ?? false, options.keyStore);
      logger.info('core opened', { pid: process.pid, homeKind: home.kind });
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
    const status = this.app.set({ paused, message: paused ? 'Paused' : 'Ready' });
    if (!paused) this.sweeper.resume();
    this.logger.info(paused ? 'paused' : 'resumed');
    return status;
  }

  call<M extends MethodName>(method: M, params: Params<M>, ctx?: CallContext): Promise<Result<M>>;
  call(method: string, params: unknown, ctx?: CallContext): Promise<unknown>;
  call(method: string, params: unknown, ctx: CallContext = { transport: 'in-process' }): Promise<unknown> {
    return this.#dispatcher.call(method, params, ctx);
  }

  #createCapture(schedule: boolean): Capture {
    const capture = new Capture({
      db: this.gateway,
      config: this.config,
      env: this.env,
      logger: this.logger,
      projects: this.projects,
      record: (kind, data) => this.telemetry.record(kind, data),
      onTick: (providers, kind) => this.events.emit('sweep.tick', { kind, at: Date.now(), providers }),
      onProgress: (progress) => this.events.emit('backfill.progress', progress),
      onBusy: (busy, failed) =>
        this.app.set(
          busy
            ? { state: 'working', message: 'Sweeping transcripts' }
            : failed.length > 0
              ? { state: 'error', message: `Transcript sweep failed for ${failed.join(', ')}` }
              : { state: 'idle', message: this.app.idleMessage() },
        ),
    });
    if (schedule) capture.start(() => this.app.status.paused);
    this.onShutdown(() => capture.stop());
    return capture;
  }

  /** The maintenance coordinator (spec 004); only a scheduling owner runs the reconcile timer. */
  #createMaintenance(schedule: boolean): Maintenance {
    const rag = ragStage({ home: this.home.dir, logger: this.logger, apiKey: this.#embeddingKey });
    const maintenance = new Maintenance({
      home: this.home.dir,
      logger: this.logger,
      runners: { rag },
      onChange: (summary) => this.events.emit('maintenance.changed', summary),
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

  /** The per-project curator (spec 001); it arms timers only when this Core schedules. */
  #createSweeper(schedule: boolean, sessions: GatewayReader): Sweeper {
    const sweeper = new Sweeper({
      home: this.home.dir,
      source: new GatewayDigestSource(this.projects, sessions),
      settings: sweeperSettingsFrom(this.config),
      env: this.env,
      emit: (name, payload) => this.events.emit(name, payload),
      record: (kind, data) => this.telemetry.record(kind, data),
      logger: this.logger,
      schedule,
      isPaused: () => this.app.status.paused,
      apiKeys: () => ({ anthropic: this.keys.lookup('anthropic').key, openai: this.keys.lookup('openai-compatible').key }),
    });
    this.onShutdown(() => sweeper.stop());
    return sweeper;
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
      this.gateway.close();
    } finally {
      this.#lock.release();
      this.logger.info('core closed');
    }
  }
}
