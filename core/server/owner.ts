import { PROTOCOL_VERSION } from '../api/index.js';
import { Core, type CoreOptions } from '../core.js';
import { removeDaemonInfo, writeDaemonInfo } from './daemon.js';
import { startHttpServer, type RunningHttpServer } from './http.js';

export interface OwnerOptions extends CoreOptions {
  port?: number;
  strictPort?: boolean;
  rendererDir?: string;
}

export interface Owner {
  core: Core;
  http: RunningHttpServer;
  /** The panel's address with the token in the fragment (never sent to a server, never logged). */
  panelUrl: string;
  stop(): Promise<void>;
}

/**
 * Becomes the owner: opens the Core under the lock, serves the loopback endpoint and advertises it in
 * daemon.json. Both `steward serve` and the Electron app start through here, so the CLI reaches the
 * same Core whichever owner runs.
 */
export async function startOwner(options: OwnerOptions = {}): Promise<Owner> {
  // An owner sweeps transcripts on its interval; tests may pass schedule: false to drive ticks themselves.
  const core = Core.open({ ...options, schedule: options.schedule ?? true });
  let http: RunningHttpServer;
  try {
    http = await startHttpServer({
      target: core,
      events: core.events,
      port: options.port ?? core.config.server.port,
      logger: core.logger,
      strictPort: options.strictPort ?? false,
      ...(options.rendererDir ? { rendererDir: options.rendererDir } : {}),
    });
    writeDaemonInfo(core.home.dir, { pid: process.pid, protocol: PROTOCOL_VERSION, url: http.url, token: http.token });
  } catch (error) {
    // The Core already started its rooms (the first sweep tick is under way): stop them before the
    // lock goes, or they would run on against a closed store.
    await core.shutdown();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      removeDaemonInfo(core.home.dir);
      await http.close();
      await core.shutdown();
    })();
    return stopping;
  };
  core.logger.info('owner listening', { port: http.port });
  return { core, http, panelUrl: `${http.url}#token=${http.token}`, stop };
}
