import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { Core, PAUSED_TEXT, type Logger } from '../../../core/index.js';
import { startStewardApp, type StewardApp } from '../../../electron/app.js';
import { APP_URL, callChannel, EVENT_CHANNEL, type IpcReply } from '../../../electron/ipc-channels.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { app, BrowserWindow, dialog, ipcMain, Notification, preventable, protocol, resetElectron, session, shell, Tray } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const logger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Lets the will-quit hold (owner.stop) settle and the second app.quit() run. */
async function settled(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('Electron main', () => {
  let home: TempHome;
  let started: StewardApp | undefined;

  beforeEach(() => {
    resetElectron();
    home = tempHome('steward-app-');
    const appPath = join(home.dir, 'app');
    mkdirSync(join(appPath, 'dist', 'renderer'), { recursive: true });
    writeFileSync(join(appPath, 'dist', 'renderer', 'index.html'), '<!doctype html><title>Steward</title>');
    app.appPath = appPath;
    started = undefined;
  });

  afterEach(async () => {
    await started?.shutdown();
    home.cleanup();
  });

  const start = (argv: string[] = ['electron', '.'], platform: NodeJS.Platform = 'linux') =>
    startStewardApp({ createLogger: () => logger, env: home.env, argv, platform, port: 0 });

  it('a second instance does not start an owner: it quits and leaves the first one alone', async () => {
    app.requestSingleInstanceLock.mockReturnValue(false);
    expect(await start()).toBeUndefined();
    expect(app.quitCalls).toBe(1);
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
    expect(BrowserWindow.instances).toHaveLength(0);
    expect(Tray.instances).toHaveLength(0);
  });

  it('keeps Chromium data and the single-instance lock inside STEWARD_HOME', async () => {
    started = await start();
    expect(app.paths.get('userData')).toBe(join(home.dir, 'electron'));
  });

  it('becomes the owner: Core, loopback RPC and daemon.json for the CLI', async () => {
    started = await start();
    expect(started).toBeDefined();
    const daemon = JSON.parse(readFileSync(join(home.dir, 'daemon.json'), 'utf8')) as { url: string; token: string };
    const response = await fetch(new URL('/rpc', daemon.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {} }),
    });
    expect(((await response.json()) as { result: { name: string } }).result.name).toBe('Steward');
  });

  it('hands the Core its keychain key store: a key saved in the app is kept by safeStorage', async () => {
    started = await start();
    const core = started!.owner.core;
    expect((await core.call('Settings.Get', {})).sweeper.keyStore).toMatchObject({ kind: 'keychain', writable: true });
    await expect(core.call('Settings.SetApiKey', { curator: 'anthropic', key: 'sk-ant-api03-from-the-panel-0123456789' })).resolves.toEqual({ stored: true, source: 'keychain' });
    const file = readFileSync(join(home.dir, 'keys.json'), 'utf8');
    expect(file).not.toContain('sk-ant-api03-from-the-panel');
    expect(Object.keys((JSON.parse(file) as { keys: object }).keys)).toEqual(['anthropic']);
  });

  it('opens one sandboxed window on our own page, behind the navigation fence', async () => {
    started = await start();
    expect(BrowserWindow.instances).toHaveLength(1);
    const window = BrowserWindow.instances[0]!;
    expect(window.loadedUrl).toBe(APP_URL);
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(String((window.options.webPreferences as { preload: string }).preload)).toMatch(/preload\.cjs$/);
    expect(window.webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    const navigation = preventable();
    window.webContents.emit('will-navigate', navigation, 'https://example.com/');
    expect(navigation.defaultPrevented).toBe(true);
    expect(session.defaultSession.setPermissionRequestHandler).toHaveBeenCalled();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([expect.objectContaining({ scheme: 'steward' })]);
    expect(app.enableSandbox).toHaveBeenCalled();
  });

  it('serves the panel on its own scheme with the strict CSP', async () => {
    started = await start();
    const handler = protocol.handlers.get('steward')!;
    const response = await handler(new Request(APP_URL));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Steward</title>');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('bridges the window to the Core, and refuses anything else', async () => {
    started = await start();
    const window = BrowserWindow.instances[0]!;
    const handler = ipcMain.handlers.get(callChannel('App.Info'))!;
    const own = { sender: window.webContents, senderFrame: window.webContents.mainFrame } as unknown as IpcMainInvokeEvent;
    expect(((await handler(own, {})) as IpcReply).ok).toBe(true);
    const sub = { sender: window.webContents, senderFrame: window.webContents.subframe(APP_URL) } as unknown as IpcMainInvokeEvent;
    expect(await handler(sub, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('the tray pauses the real Core and its icon, tooltip and menu follow app.status', async () => {
    started = await start();
    const core = started!.owner.core;
    const tray = Tray.instances[0]!;
    await settled(() => core.status.state === 'idle' && tray.labels()[1] === 'Up to date');
    expect(tray.labels()).toEqual(['Open Steward', 'Up to date', '---', 'Sweep now', 'Pause', '---', 'Open logs', '---', 'Quit']);
    expect(tray.image.path).toBe(join(app.appPath, 'build', 'icons', 'tray', 'idle.png'));
    expect(tray.tooltip).toBe('Steward\nUp to date');

    tray.item('pause').click?.();
    await settled(() => core.status.paused);
    expect(core.status.state).toBe('paused');
    expect(tray.labels().slice(1, 5)).toEqual([PAUSED_TEXT, '---', 'Sweep now', 'Resume']);
    expect(tray.image.path).toMatch(/paused\.png$/);
    expect(BrowserWindow.instances[0]!.webContents.sent).toContainEqual({ channel: EVENT_CHANNEL, message: { name: 'app.status', payload: core.status } });

    tray.item('pause').click?.();
    await settled(() => !core.status.paused);
    expect(tray.labels()[4]).toBe('Pause');

    core.app.put({ kind: 'import-failed', subject: 'claude', text: 'Importing Claude transcripts failed', place: 'telemetry' });
    expect(tray.labels()[1]).toBe('Importing Claude transcripts failed');
    expect(tray.image.path).toMatch(/error\.png$/);
  });

  it('Sweep now runs a transcript sweep on the Core; Open logs opens the logs folder', async () => {
    started = await start();
    const core = started!.owner.core;
    await settled(() => core.status.state === 'idle');
    const ticks = async () => (await core.call('Telemetry.Recent', { kind: 'sweep.tick' })).entries.length;
    const before = await ticks();
    Tray.instances[0]!.item('sweep').click?.();
    let after = before;
    for (let i = 0; i < 200 && after === before; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = await ticks();
    }
    expect(after).toBe(before + 1);

    Tray.instances[0]!.item('logs').click?.();
    expect(shell.openPath).toHaveBeenCalledWith(join(home.dir, 'logs'));
  });

  it('what needs the person is a native notification and a tray line, and both open the window where it is dealt with', async () => {
    started = await start(['electron', '.', '--hidden']);
    const core = started!.owner.core;
    const window = BrowserWindow.instances[0]!;
    core.app.put({ kind: 'conflict', subject: 'ic_1', text: 'A cache conflict over github.com/acme/widgets needs your choice', place: 'conflicts' });

    expect(Notification.instances.filter((n) => n.shown).map((n) => n.options.title)).toEqual(['A cache conflict over github.com/acme/widgets needs your choice']);
    expect(window.visible).toBe(false);
    Notification.instances[0]!.emit('click');
    expect(window.visible).toBe(true);
    expect(window.loadedUrl).toBe(`${APP_URL}#/conflicts`);

    window.close();
    core.app.put({ kind: 'curator-paused', subject: 'anthropic', text: 'The Anthropic curator is paused: credit balance too low', place: 'settings' });
    Tray.instances[0]!.item('attention-1').click?.();
    expect(window.visible).toBe(true);
    expect(window.loadedUrl).toBe(`${APP_URL}#/settings`);
  });

  it('start at login is off by default; the contract turns it on as an autostart entry that starts the app hidden', async () => {
    started = await start();
    const core = started!.owner.core;
    const entry = join(home.env.HOME!, '.config', 'autostart', 'steward.desktop');
    expect(await core.call('Settings.GetStartAtLogin', {})).toMatchObject({ enabled: false, mechanism: 'xdg-autostart', launches: 'app' });
    expect(existsSync(entry)).toBe(false);
    await core.call('Settings.SetStartAtLogin', { enabled: true });
    // The home it runs, which a login session does not name (STEWARD_HOME is set here).
    expect(readFileSync(entry, 'utf8')).toContain(`Exec=${process.execPath} ${app.appPath} --hidden --home ${home.dir}\n`);
    await core.call('Settings.SetStartAtLogin', { enabled: false });
    expect(existsSync(entry)).toBe(false);
  });

  it('starts hidden in the tray when macOS opened it at login', async () => {
    app.wasOpenedAtLogin = true;
    started = await start(['Steward'], 'darwin');
    const window = BrowserWindow.instances[0]!;
    window.emit('ready-to-show');
    expect(window.visible).toBe(false);
  });

  it('Open Steward and a second launch both bring the window back', async () => {
    started = await start(['electron', '.', '--hidden']);
    const window = BrowserWindow.instances[0]!;
    window.emit('ready-to-show');
    expect(window.visible).toBe(false);
    Tray.instances[0]!.item('open').click?.();
    expect(window.visible).toBe(true);
    // Open Steward lands on Home, where everything watched and kept is summed up.
    expect(window.loadedUrl).toBe('steward://app/index.html#/home');
    window.close();
    expect(window.visible).toBe(false);
    expect(window.destroyed).toBe(false);
    app.emit('second-instance', preventable(), ['electron', '.'], '/');
    expect(window.visible).toBe(true);
    expect(window.focus).toHaveBeenCalled();
  });

  it('closing the last window keeps the app (and its owner) running', async () => {
    started = await start();
    BrowserWindow.instances[0]!.close();
    app.emit('window-all-closed');
    expect(app.quitCalls).toBe(0);
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(true);
  });

  it('Quit holds the exit until the owner stopped, then the window really closes', async () => {
    started = await start();
    Tray.instances[0]!.item('quit').click?.();
    expect(app.exited).toBe(false);
    await settled(() => app.exited);
    expect(app.exited).toBe(true);
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
    expect(Tray.instances[0]!.destroyed).toBe(true);
    expect(ipcMain.handlers.size).toBe(0);
    expect(BrowserWindow.instances[0]!.close().defaultPrevented).toBe(false);
    // The owner lock is free again: a new Core can take it.
    const next = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    next.close();
    started = undefined;
  });

  it('a Windows session end lets the window close and quits', async () => {
    started = await start(['electron', '.'], 'win32');
    expect(app.setAppUserModelId).toHaveBeenCalledWith('app.steward.desktop');
    const window = BrowserWindow.instances[0]!;
    window.emit('session-end', preventable());
    await settled(() => app.exited);
    expect(app.exited).toBe(true);
    expect(window.close().defaultPrevented).toBe(false);
    started = undefined;
  });

  it('says why and quits when another owner (steward serve) holds the home', async () => {
    // A live process other than this one holds the owner lock (this test's parent stands in for it).
    writeFileSync(join(home.dir, 'steward.lock'), `${process.ppid}\n`);
    expect(await start()).toBeUndefined();
    expect(dialog.showErrorBox).toHaveBeenCalledWith('Steward cannot start', expect.stringContaining('already running'));
    expect(app.quitCalls).toBe(1);
    expect(BrowserWindow.instances).toHaveLength(0);
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
  });

  it('uses template tray icons on macOS and the packaged resources folder when packaged', async () => {
    app.isPackaged = true;
    // Electron defines process.resourcesPath; plain Node does not.
    Object.defineProperty(process, 'resourcesPath', { value: join(home.dir, 'resources'), configurable: true });
    try {
      started = await start(['electron', '.'], 'darwin');
    } finally {
      Reflect.deleteProperty(process, 'resourcesPath');
    }
    expect(Tray.instances[0]!.image.path).toBe(join(home.dir, 'resources', 'tray', 'idleTemplate.png'));
    expect(Tray.instances[0]!.image.template).toBe(true);
  });
});
