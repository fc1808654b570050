import { PROTOCOL_VERSION } from '../api/index.js';
import { Core, type CoreOptions } from '../core.js';
import { openAfterCommands, type WhileCommandRuns } from './command-wait.js';
import { removeDaemonInfo, writeDaemonInfo } from './daemon/index.js';
import { startHttpServer, type RunningHttpServer } from './http.js';

export interface OwnerOptions extends CoreOptions {
  port?: number;
  strictPort?: boolean;
  rendererDir?: string;
  /** A one-shot steward command holding the store is waited for (the app at login, `serve` after `backfill &`); a running owner is refused at once. */
  whileCommandRuns?: WhileCommandRuns;
}

export interface Owner {
  core: Core;
  http: RunningHttpServer;
  /** The panel's address with the token in the fragment (never sent to a server, never logged). */
  readonly panelUrl: string;
  stop(): Promise<void>;
  /** Settles once the owner has stopped, whoever asked (a signal, `steward stop`, the app quitting). */
  readonly stopped: Promise<void>;
}

/**
 * Becomes the owner: opens the Core under the lock, serves the loopback endpoint and advertises it in
 * daemon.json. Both `steward serve` and the Electron app start through here, so the CLI reaches the
 * same Core whichever owner runs.
 */
export async function startOwner(options: OwnerOptions = {}): Promise<Owner> {
  // `steward stop` asks through App.Stop; an owner that names no other way (the app quits itself) stops here.
  let stopOwner: () => Promise<void> = async () => undefined;
  const onStopRequest = options.onStopRequest ?? (() => void stopOwner());
  // An owner sweeps transcripts on its interval; tests may pass schedule: false to drive ticks themselves.
  // The lock says "owner" from the moment it is taken: another owner starting is refused rather than
  // told to wait, and `steward info` never names this owner a one-shot command.
  const core = await openAfterCommands(() => Core.open({ ...options, onStopRequest, schedule: options.schedule ?? true, lockRole: 'owner' }), withWaitLogged(options));
  let http: RunningHttpServer;
  try {
    http = await startHttpServer({
      target: core,
      events: core.events,
      port: options.port ?? core.config.server.port,
      logger: core.logger,
      strictPort: options.strictPort ?? false,
      token: () => core.panelToken.current(),
      ...(options.rendererDir ? { rendererDir: options.rendererDir } : {}),
    });
    writeDaemonInfo(core.home.dir, { pid: process.pid, protocol: PROTOCOL_VERSION, url: http.url, token: http.token });
  } catch (error) {
    // The Core already started its rooms (the first sweep tick is under way): stop them before the
    // lock goes, or they would run on against a closed store.
    await core.shutdown();
    throw error;
  }
  // A rotated token replaces the one clients find in daemon.json, and streams opened with the old one end.
  const stopFollowing = core.panelToken.onRotate((token) => {
    writeDaemonInfo(core.home.dir, { pid: process.pid, protocol: PROTOCOL_VERSION, url: http.url, token });
    http.endStreams();
  });
  let stopping: Promise<void> | undefined;
  let settle: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (settle = resolve));
  const stop = () => {
    stopping ??= (async () => {
      stopFollowing();
      removeDaemonInfo(core.home.dir);
      await http.close();
      await core.shutdown();
    })().finally(settle);
    return stopping;
  };
  stopOwner = stop;
  core.logger.info('owner listening', { port: http.port });
  return {
    core,
    http,
    get panelUrl() {
      return `${http.url}#token=${http.token}`;
    },
    stop,
    stopped,
  };
}

/** The wait as the caller asked, also logged when the caller passed a logger (the app, which has no terminal to print it to). */
function withWaitLogged(options: OwnerOptions): WhileCommandRuns {
  const wait = options.whileCommandRuns ?? {};
  const { logger } = options;
  if (!logger) return wait;
  return {
    ...wait,
    onWait: (progress) => {
      logger.info('owner waiting for a steward command', { pid: progress.pid, waitedMs: progress.waitedMs });
      wait.onWait?.(progress);
    },
  };
}
