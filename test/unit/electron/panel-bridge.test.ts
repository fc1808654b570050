import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import type { Browser, Page } from 'playwright-core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { forwardEvents, registerIpcBridge } from '../../../electron/ipc.js';
import { APP_URL } from '../../../electron/ipc-channels.js';
import { createRendererHandler } from '../../../electron/protocol.js';
import { launchChromium } from '../../e2e/harness.js';
import { tempHome, type TempHome } from '../../support/home.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RENDERER = join(ROOT, 'dist', 'renderer');
const PRELOAD = join(ROOT, 'electron', 'preload.cts');

type Handler = (event: IpcMainInvokeEvent, params: unknown) => Promise<unknown>;

/**
 * The built panel in real Chromium with `window.steward` made by the real preload (run in the page
 * with a stand-in `require('electron')`), wired to the real IPC bridge and a real Core, the page
 * served by the steward:// handler with its CSP. It proves the panel and the preload agree on the
 * bridge: calls, events and the shape of a rejection. Needs `npm run build` (npm test builds first).
 */
describe('the panel over the Electron bridge, in Chromium', () => {
  let home: TempHome;
  let core: Core;
  let server: Server;
  let browser: Browser;
  let page: Page | undefined;
  const problems: string[] = [];

  beforeAll(async () => {
    expect(existsSync(join(RENDERER, 'index.html')), 'dist/renderer is missing: run `npm run build` first').toBe(true);
    home = tempHome('steward-panel-bridge-');
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    const serveFile = createRendererHandler(RENDERER);
    server = createServer((req, res) => {
      void serveFile(new Request(`steward://app${req.url ?? '/'}`)).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await core?.shutdown();
    home?.cleanup();
  });

  it('shows the status, follows app.status, pauses the Core and gets typed errors', async () => {
    const mainFrame = { url: APP_URL, parent: null, processId: 1, routingId: 1 };
    const contents = {
      id: 1,
      mainFrame,
      isDestroyed: () => false,
      send: (channel: string, message: unknown) => void page?.evaluate(([c, m]) => (window as unknown as { __emit(c: unknown, m: unknown): void }).__emit(c, m), [channel, message]),
    };
    const window = { isDestroyed: () => false, webContents: contents } as unknown as BrowserWindow;
    const handlers = new Map<string, Handler>();
    const opened: string[] = [];
    registerIpcBridge({ handle: (channel: string, handler: Handler) => void handlers.set(channel, handler), removeHandler: (channel: string) => void handlers.delete(channel) } as never, {
      core,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      window: () => window,
      openPath: (path) => {
        opened.push(path);
        return Promise.resolve('');
      },
    });
    forwardEvents(core.events, () => window);

    const preload = ts.transpileModule(readFileSync(PRELOAD, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.exposeBinding('__invoke', async (_source, channel: string, params: unknown) => {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ sender: contents, senderFrame: mainFrame } as unknown as IpcMainInvokeEvent, params);
    });
    await context.addInitScript(`(() => {
      const listeners = new Map();
      window.__emit = (channel, message) => { for (const fn of listeners.get(channel) ?? []) fn({}, message); };
      const ipcRenderer = {
        invoke: (channel, params) => window.__invoke(channel, params),
        on: (channel, fn) => { const set = listeners.get(channel) ?? new Set(); set.add(fn); listeners.set(channel, set); },
        removeListener: (channel, fn) => listeners.get(channel)?.delete(fn),
      };
      const contextBridge = { exposeInMainWorld: (key, api) => Object.defineProperty(window, key, { value: Object.freeze(api) }) };
      const require = (name) => { if (name === 'electron') return { contextBridge, ipcRenderer }; throw new Error('not in the sandbox: ' + name); };
      const module = { exports: {} };
      (function (require, module, exports) { ${preload} })(require, module, module.exports);
    })();`);
    page = await context.newPage();
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    page.on('pageerror', (error) => void problems.push(error.message));

    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`);
    await page.waitForFunction(() => document.querySelector('[data-testid=status-message]')?.textContent === 'Up to date');
    expect(await page.evaluate(() => Object.keys((window as unknown as { steward: object }).steward).sort())).toEqual(['call', 'on', 'openFolder']);

    core.setPaused(true);
    await page.locator('[data-testid=status-bar][data-state=paused]').waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('[data-testid=status-bar][data-state=idle]').waitFor();
    expect(core.status.paused).toBe(false);

    const rejection = await page.evaluate(() =>
      (window as unknown as { steward: { call(m: string, p: unknown): Promise<unknown> } }).steward.call('App.SetPaused', { paused: 'yes' }).then(
        () => 'resolved',
        (error: { code: string }) => error.code,
      ),
    );
    expect(rejection).toBe('invalid_params');

    // In the app, Settings opens Steward's own folders in the file manager (a browser has no such button).
    await page.evaluate(() => (location.hash = '#/settings'));
    const files = page.getByRole('region', { name: 'Where Steward keeps its files' });
    await files.getByRole('button', { name: 'Open folder' }).first().click();
    await expect.poll(() => opened).toEqual([core.home.dir]);
    expect(problems).toEqual([]);
  });
});
