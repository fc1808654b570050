import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, protocol, session, shell, Tray } from 'electron';
import {
  resolveHome,
  startOwner,
  toStewardError,
  useSqliteNativeBinding,
  type AppStatus,
  type Logger,
  type StatusPlace,
  type Owner,
  type OwnerOptions,
} from '../core/index.js';
import { APP_SCHEME, APP_URL } from './ipc-channels.js';
import { forwardEvents, registerIpcBridge } from './ipc.js';
import { openSafeStorageKeyStore } from './key-store.js';
import { appEnv, appStartAtLogin, openedAtLogin } from './login.js';
import { AttentionNotifier } from './notifications.js';
import { APP_SCHEME_PRIVILEGES, createRendererHandler } from './protocol.js';
import { createTrayController, type TrayController } from './tray.js';
import { createMainWindow, guardWebContents, showWindowAt } from './window.js';

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

/** What the lifecycle handlers share: the one window, once it exists, and whether Quit was chosen. */
interface ShellState {
  window: BrowserWindow | undefined;
  quitting: boolean;
}

/**
 * Electron main: the same owner as `steward serve` (Core, loopback RPC and daemon.json for the CLI),
 * plus a tray, one window and the IPC bridge. Resolves to undefined when this process must not run
 * (another instance has the lock, or the owner could not start).
 */
export async function startStewardApp(options: StewardAppOptions): Promise<StewardApp | undefined> {
  // A login entry names the home with --home (appStartAtLogin): read before anything resolves it.
  const env = appEnv(options.env ?? process.env, options.argv ?? process.argv);
  const platform = options.platform ?? process.platform;
  const home = resolveHome(env);
  if (!claimInstance(home.dir)) return undefined;
  // Everything above and below, up to whenReady, must happen before Electron's ready event.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  // Every renderer sandboxed, whatever a window's own preferences say.
  app.enableSandbox();
  if (platform === 'win32') app.setAppUserModelId(APP_ID);
  const logger = options.createLogger(home.dir);
  const state: ShellState = { window: undefined, quitting: false };
  installLifecycle(state, logger);

  await app.whenReady();
  if (!app.isPackaged && env.STEWARD_SQLITE_BINDING) useSqliteNativeBinding(env.STEWARD_SQLITE_BINDING);
  const appPath = app.getAppPath();
  const rendererDir = join(appPath, 'dist', 'renderer');
  // safeStorage answers only after ready; the Core reads remote curators' API keys from this store.
  const keyStore = await openSafeStorageKeyStore({ homeDir: home.dir, platform, logger });
  const startAtLogin = appStartAtLogin(app, { platform, env, execPath: process.execPath, isPackaged: app.isPackaged, appPath, home: home.dir });
  // `steward stop` quits the app the way the tray's Quit does, so will-quit stops the owner cleanly.
  const onStopRequest = () => app.quit();
  const owner = await becomeOwner({ home, env, logger, rendererDir, keyStore, startAtLogin, onStopRequest, ...(options.port !== undefined ? { port: options.port } : {}) }, logger);
  if (!owner) return undefined;

  denyPermissions();
  protocol.handle(APP_SCHEME, createRendererHandler(rendererDir));
  state.window = openWindow(state, logger, openedAtLogin(app, platform, options.argv ?? process.argv));
  const disposeIpc = registerIpcBridge(ipcMain, { core: owner.core, logger, window: () => state.window, openPath: (path) => shell.openPath(path) });
  const stopForwarding = forwardEvents(owner.core.events, () => state.window);
  const tray = openTray(owner, state, logger, platform, appPath);

  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      stopForwarding();
      disposeIpc();
      tray.destroy();
      await owner.stop();
    })();
    return stopping;
  };
  holdQuitUntil(shutdown, logger);
  logger.info('app started', { platform });
  return { owner, logger, window: () => state.window, tray, shutdown };
}

/**
 * Chromium's profile, and with it the single-instance lock, lives in STEWARD_HOME: one home, one app.
 * A second instance quits at once; the first one hears `second-instance` and shows its window.
 */
function claimInstance(homeDir: string): boolean {
  const userData = join(homeDir, 'electron');
  mkdirSync(userData, { recursive: true, mode: 0o700 });
  app.setPath('userData', userData);
  if (app.requestSingleInstanceLock()) return true;
  app.quit();
  return false;
}

function installLifecycle(state: ShellState, logger: Logger): void {
  const open = () => showShellWindow(state);
  app.on('second-instance', open);
  app.on('activate', open);
  app.on('before-quit', () => {
    state.quitting = true;
  });
  // Closing the last window leaves Steward in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, logger));
}

function showShellWindow(state: ShellState, place?: StatusPlace | 'home'): void {
  if (state.window && !state.window.isDestroyed()) showWindowAt(state.window, APP_URL, place);
}

/** The owner, or undefined after telling the user why not (most often: `steward serve` already runs). */
async function becomeOwner(ownerOptions: OwnerOptions, logger: Logger): Promise<Owner | undefined> {
  try {
    return await startOwner(ownerOptions);
  } catch (error) {
    const failure = toStewardError(error);
    logger.error('owner failed to start', { code: failure.code });
    dialog.showErrorBox('Steward cannot start', failure.message);
    app.quit();
    return undefined;
  }
}

function openWindow(state: ShellState, logger: Logger, hidden: boolean): BrowserWindow {
  const window = createMainWindow(BrowserWindow, {
    preload: fileURLToPath(new URL('./preload.cjs', import.meta.url)),
    url: APP_URL,
    isQuitting: () => state.quitting,
    logger,
    hidden,
  });
  window.webContents.on('render-process-gone', (_event, details) => logger.error('renderer gone', { reason: details.reason }));
  // A Windows log-off or shutdown skips before-quit: let the window close and stop the owner while we can.
  window.on('session-end', () => {
    state.quitting = true;
    app.quit();
  });
  return window;
}

/** The tray and the notifications both follow `app.status`; both open the window where a matter is dealt with. */
function openTray(owner: Owner, state: ShellState, logger: Logger, platform: NodeJS.Platform, appPath: string): TrayController {
  // "Open Steward" (no place named) lands on Home, where everything Steward watches is summed up.
  const open = (place?: StatusPlace) => showShellWindow(state, place ?? 'home');
  const tray = createTrayController(
    { Tray, Menu, nativeImage },
    {
      iconDir: app.isPackaged ? join(process.resourcesPath, 'tray') : join(appPath, 'build', 'icons', 'tray'),
      platform,
      status: owner.core.status,
      actions: {
        open,
        sweepNow: () => {
          owner.core.call('Sweep.Tick', {}).catch(() => logger.warn('sweep now failed'));
        },
        setPaused: (paused) => {
          owner.core.call('App.SetPaused', { paused }).catch(() => logger.warn('pause toggle failed'));
        },
        openLogs: () => {
          void shell.openPath(join(owner.core.home.dir, 'logs')).then((failure) => failure && logger.warn('opening the logs folder failed'));
        },
        quit: () => app.quit(),
      },
    },
  );
  const notifier = new AttentionNotifier({ Notification, platform, logger, open });
  notifier.update(owner.core.status);
  const stopUpdates = owner.core.events.subscribe((name, payload) => {
    if (name !== 'app.status') return;
    tray.update(payload as AppStatus);
    notifier.update(payload as AppStatus);
  });
  return {
    update: tray.update,
    destroy: () => {
      stopUpdates();
      tray.destroy();
    },
  };
}

/** Electron would exit before the Core's rooms settle and the stores close: will-quit waits for them. */
function holdQuitUntil(shutdown: () => Promise<void>, logger: Logger): void {
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    void shutdown()
      .catch(() => logger.error('shutdown failed'))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
}

/** Steward's page needs no camera, microphone, notifications-from-page or anything else. */
function denyPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}
