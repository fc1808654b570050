import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, protocol, session, Tray } from 'electron';
import {
  resolveHome,
  startOwner,
  toStewardError,
  useSqliteNativeBinding,
  type AppStatus,
  type Logger,
  type Owner,
} from '../core/index.js';
import { APP_SCHEME, APP_URL } from './ipc-channels.js';
import { forwardEvents, registerIpcBridge } from './ipc.js';
import { APP_SCHEME_PRIVILEGES, createRendererHandler } from './protocol.js';
import { createTrayController, type TrayController } from './tray.js';
import { createMainWindow, guardWebContents, showWindow } from './window.js';

/** Also electron-builder's appId (build/electron-builder.yml): Windows ties notifications and taskbar to it. */
export const APP_ID = 'app.steward.desktop';

export interface StewardAppOptions {
  /** Builds the logger once STEWARD_HOME is known: electron-log in the app, anything in tests. */
  createLogger: (homeDir: string) => Logger;
  env?: NodeJS.ProcessEnv;
  argv?: readonly string[];
  platform?: NodeJS.Platform;
  /** The loopback RPC port; the config's port (or the next free one) when absent. */
  port?: number;
}

export interface StewardApp {
  owner: Owner;
  logger: Logger;
  window(): BrowserWindow | undefined;
  tray: TrayController;
  /** Stops everything the app started; Quit runs it before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * Electron main: the same owner as `steward serve` (Core, loopback RPC and daemon.json for the CLI),
 * plus a tray, one window and the IPC bridge. Resolves to undefined when this process must not run
 * (another instance has the lock, or the owner could not start).
 */
export async function startStewardApp(options: StewardAppOptions): Promise<StewardApp | undefined> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = resolveHome(env);
  // Chromium's profile, and with it the single-instance lock, lives in STEWARD_HOME: one home, one app.
  const userData = join(home.dir, 'electron');
  mkdirSync(userData, { recursive: true, mode: 0o700 });
  app.setPath('userData', userData);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  // Every renderer sandboxed, whatever a window's own preferences say.
  app.enableSandbox();
  if (platform === 'win32') app.setAppUserModelId(APP_ID);
  const logger = options.createLogger(home.dir);

  // Assigned once the owner runs; the handlers registered before then find no window and do nothing.
  let window: BrowserWindow | undefined = undefined;
  let quitting = false;
  const open = () => {
    if (window && !window.isDestroyed()) showWindow(window);
  };
  app.on('second-instance', open);
  app.on('activate', open);
  app.on('before-quit', () => {
    quitting = true;
  });
  // Closing the last window leaves Steward in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, logger));

  await app.whenReady();
  if (!app.isPackaged && env.STEWARD_SQLITE_BINDING) useSqliteNativeBinding(env.STEWARD_SQLITE_BINDING);
  const appPath = app.getAppPath();
  const rendererDir = join(appPath, 'dist', 'renderer');

  let owner: Owner;
  try {
    owner = await startOwner({ home, env, logger, rendererDir, ...(options.port !== undefined ? { port: options.port } : {}) });
  } catch (error) {
    const failure = toStewardError(error);
    logger.error('owner failed to start', { code: failure.code });
    dialog.showErrorBox('Steward cannot start', failure.message);
    app.quit();
    return undefined;
  }

  denyPermissions();
  protocol.handle(APP_SCHEME, createRendererHandler(rendererDir));
  window = createMainWindow(BrowserWindow, {
    preload: fileURLToPath(new URL('./preload.cjs', import.meta.url)),
    url: APP_URL,
    isQuitting: () => quitting,
    logger,
    hidden: (options.argv ?? process.argv).includes('--hidden'),
  });
  window.webContents.on('render-process-gone', (_event, details) => logger.error('renderer gone', { reason: details.reason }));
  // A Windows log-off or shutdown skips before-quit: let the window close and stop the owner while we can.
  window.on('session-end', () => {
    quitting = true;
    app.quit();
  });

  const disposeIpc = registerIpcBridge(ipcMain, { core: owner.core, logger, window: () => window });
  const stopForwarding = forwardEvents(owner.core.events, () => window);
  const tray = createTrayController(
    { Tray, Menu, nativeImage },
    {
      iconDir: app.isPackaged ? join(process.resourcesPath, 'tray') : join(appPath, 'build', 'icons', 'tray'),
      platform,
      status: owner.core.status,
      actions: {
        open,
        setPaused: (paused) => {
          owner.core.call('App.SetPaused', { paused }).catch(() => logger.warn('pause toggle failed'));
        },
        quit: () => app.quit(),
      },
    },
  );
  const stopTrayUpdates = owner.core.events.subscribe((name, payload) => {
    if (name === 'app.status') tray.update(payload as AppStatus);
  });

  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      stopTrayUpdates();
      stopForwarding();
      disposeIpc();
      tray.destroy();
      await owner.stop();
    })();
    return stopping;
  };
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    // Electron would exit before the Core's rooms settle and the stores close; hold it until they have.
    event.preventDefault();
    void shutdown()
      .catch(() => logger.error('shutdown failed'))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  logger.info('app started', { platform });
  return { owner, logger, window: () => window, tray, shutdown };
}

/** Steward's page needs no camera, microphone, notifications-from-page or anything else. */
function denyPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}
