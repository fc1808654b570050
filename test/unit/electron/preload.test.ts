import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as electron from 'electron';
import { Core } from '../../../core/index.js';
import { APP_URL, CALL_CHANNEL_PREFIX, EVENT_CHANNEL, type StewardBridge } from '../../../electron/ipc-channels.js';
import { registerIpcBridge } from '../../../electron/ipc.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { BrowserWindow, contextBridge, ipcMain, ipcRenderer, resetElectron, type FakeWebFrame } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const PRELOAD = fileURLToPath(new URL('../../../electron/preload.cts', import.meta.url));

/**
 * Runs the preload the way Electron runs a sandboxed one: CommonJS source in a fresh context whose
 * `require` knows `electron` and nothing else, so a Node import would fail here as it would there.
 */
function loadPreload(): void {
  const { outputText } = ts.transpileModule(readFileSync(PRELOAD, 'utf8'), {
    fileName: 'preload.cts',
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const wrapped = runInNewContext(`(function (require, module, exports) {\n${outputText}\n})`, {}) as (
    require: (name: string) => unknown,
    module: { exports: unknown },
    exports: unknown,
  ) => void;
  const module = { exports: {} };
  wrapped(
    (name) => {
      if (name === 'electron') return electron;
      throw new Error(`module not found: ${name}`);
    },
    module,
    module.exports,
  );
}

describe('preload', () => {
  let home: TempHome;
  let core: Core;
  let window: BrowserWindow;
  let bridge: StewardBridge;
  let callerFrame: () => FakeWebFrame;
  let opened: string[];

  beforeEach(async () => {
    resetElectron();
    home = tempHome('steward-preload-');
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    window = new BrowserWindow({});
    await window.loadURL(APP_URL);
    callerFrame = () => window.webContents.mainFrame;
    opened = [];
    registerIpcBridge(electron.ipcMain, {
      core,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      window: () => window as unknown as electron.BrowserWindow,
      openPath: async (path) => {
        opened.push(path);
        return '';
      },
    });
    // ipcRenderer.invoke → ipcMain.handle, as Electron routes it: unknown channels reject.
    ipcRenderer.invoke.mockImplementation(async (channel, ...args) => {
      const handler = ipcMain.handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ sender: window.webContents, senderFrame: callerFrame() }, ...args);
    });
    loadPreload();
    bridge = contextBridge.exposed.get('steward') as StewardBridge;
  });

  afterEach(async () => {
    await core.shutdown();
    home.cleanup();
  });

  it('exposes one object, window.steward, with only call, on and openFolder', () => {
    expect([...contextBridge.exposed.keys()]).toEqual(['steward']);
    expect(Object.keys(bridge).sort()).toEqual(['call', 'on', 'openFolder']);
    expect(typeof bridge.call).toBe('function');
    expect(typeof bridge.on).toBe('function');
  });

  it('calls the contract through the bridge and resolves with the result', async () => {
    await expect(bridge.call('App.Info', {})).resolves.toMatchObject({ name: 'Steward', homeKind: 'env' });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(`${CALL_CHANNEL_PREFIX}App.Info`, {});
    await expect(bridge.call('App.SetPaused', { paused: true })).resolves.toMatchObject({ status: { paused: true } });
    expect(core.status.paused).toBe(true);
  });

  it("opens Steward's own folders by name, never a path the page chose; a foreign frame opens nothing", async () => {
    await bridge.openFolder({ kind: 'home' });
    await bridge.openFolder({ kind: 'logs' });
    expect(opened).toEqual([home.dir, `${home.dir}/logs`]);
    await expect(bridge.openFolder({ kind: 'notes', projectKey: 'p_0000000000000000' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(bridge.openFolder({ kind: '/etc' } as never)).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(bridge.openFolder({ kind: 'home', path: '/etc' } as never)).resolves.toBeUndefined();
    expect(opened.at(-1)).toBe(home.dir);
    callerFrame = () => window.webContents.subframe(APP_URL);
    await expect(bridge.openFolder({ kind: 'home' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(opened).toHaveLength(3);
  });

  it('refuses malformed method names before anything crosses', async () => {
    for (const method of ['app.info', 'App.Info; rm', 'App', 'App.Info.Extra', '', 42, null]) {
      await expect(bridge.call(method as string, {}), String(method)).rejects.toMatchObject({ code: 'invalid_params' });
    }
    expect(ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('rejects with the typed code: unknown method, bad params, foreign frame', async () => {
    await expect(bridge.call('Nope.Missing', {})).rejects.toMatchObject({ code: 'method_not_found' });
    await expect(bridge.call('App.SetPaused', { paused: 'yes' })).rejects.toMatchObject({ code: 'invalid_params' });
    callerFrame = () => window.webContents.subframe(APP_URL);
    await expect(bridge.call('App.SetPaused', { paused: true })).rejects.toMatchObject({ code: 'forbidden' });
    expect(core.status.paused).toBe(false);
  });

  it('delivers only the subscribed event, until unsubscribed', () => {
    const seen: unknown[] = [];
    const unsubscribe = bridge.on('app.status', (payload) => seen.push(payload));
    ipcRenderer.emit(EVENT_CHANNEL, {}, { name: 'app.status', payload: { state: 'working', message: 'Sweeping', paused: false } });
    ipcRenderer.emit(EVENT_CHANNEL, {}, { name: 'sweep.progress', payload: { n: 1 } });
    ipcRenderer.emit('some-other-channel', {}, { name: 'app.status', payload: 'ignored' });
    expect(seen).toEqual([{ state: 'working', message: 'Sweeping', paused: false }]);
    unsubscribe();
    ipcRenderer.emit(EVENT_CHANNEL, {}, { name: 'app.status', payload: { state: 'idle', message: 'Ready', paused: false } });
    expect(seen).toHaveLength(1);
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(0);
  });

  it('keeps one ipc listener for many subscribers, and a throwing one does not silence the rest', () => {
    const seen: string[] = [];
    const offA = bridge.on('app.status', () => {
      throw new Error('view A broke');
    });
    const offB = bridge.on('app.status', () => seen.push('b'));
    const offC = bridge.on('sweep.tick', () => seen.push('c'));
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(1);
    ipcRenderer.emit(EVENT_CHANNEL, {}, { name: 'app.status', payload: {} });
    expect(seen).toEqual(['b']);
    offA();
    offB();
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(1);
    offC();
    offC();
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(0);
  });

  it('refuses a malformed subscription', () => {
    expect(() => bridge.on('App Status', () => undefined)).toThrow();
    expect(() => bridge.on('app.status', 'not a function' as unknown as () => void)).toThrow();
  });

  it('needs nothing but electron (the sandbox offers nothing else)', () => {
    const source = readFileSync(PRELOAD, 'utf8');
    const requires = [...source.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    expect(requires).toEqual(['electron']);
    expect(source).not.toMatch(/^import\s+(?!type\b)(?!electron\s*=).*from/m);
  });
});
