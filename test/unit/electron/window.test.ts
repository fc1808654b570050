import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow as ElectronWindow, type WebContents } from 'electron';
import type { Logger } from '../../../core/index.js';
import { createMainWindow, guardWebContents, hideOnClose, mainWindowOptions } from '../../../electron/window.js';
import { BrowserWindow, preventable, resetElectron, type FakeWebContents } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const logger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

function open(quitting: { value: boolean }, hidden = false): BrowserWindow {
  createMainWindow(ElectronWindow, { preload: '/app/preload.cjs', url: 'steward://app/index.html', isQuitting: () => quitting.value, logger, hidden });
  return BrowserWindow.instances.at(-1)!;
}

describe('main window', () => {
  beforeEach(() => resetElectron());

  it('is isolated and sandboxed, with our preload and no node', () => {
    const window = open({ value: false });
    expect(window.options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    });
    expect(window.loadedUrl).toBe('steward://app/index.html');
    expect(mainWindowOptions('/p').show).toBe(false);
  });

  it('shows itself when ready, unless started hidden', () => {
    const shown = open({ value: false });
    shown.emit('ready-to-show');
    expect(shown.visible).toBe(true);
    const hidden = open({ value: false }, true);
    hidden.emit('ready-to-show');
    expect(hidden.visible).toBe(false);
  });

  it('hides to the tray on close while Steward keeps running', () => {
    const window = open({ value: false });
    window.show();
    const event = window.close();
    expect(event.defaultPrevented).toBe(true);
    expect(window.visible).toBe(false);
    expect(window.destroyed).toBe(false);
  });

  it('really closes once the user chose Quit', () => {
    const quitting = { value: false };
    const window = open(quitting);
    window.show();
    quitting.value = true;
    const event = window.close();
    expect(event.defaultPrevented).toBe(false);
    expect(window.destroyed).toBe(true);
  });

  it('hideOnClose works on any window', () => {
    const window = new BrowserWindow({});
    hideOnClose(window as unknown as ElectronWindow, () => false);
    window.show();
    expect(window.close().defaultPrevented).toBe(true);
    expect(window.visible).toBe(false);
  });
});

describe('web contents guard', () => {
  beforeEach(() => resetElectron());

  function guarded(): FakeWebContents {
    const window = new BrowserWindow({});
    guardWebContents(window.webContents as unknown as WebContents, logger);
    return window.webContents;
  }

  it('blocks every navigation', () => {
    const contents = guarded();
    for (const url of ['https://example.com/', 'steward://app/other.html', 'file:///etc/passwd']) {
      const event = preventable();
      contents.emit('will-navigate', event, url);
      expect(event.defaultPrevented, url).toBe(true);
    }
  });

  it('denies every new window', () => {
    const contents = guarded();
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'steward://app/index.html' })).toEqual({ action: 'deny' });
  });

  it('refuses webviews', () => {
    const contents = guarded();
    const event = preventable();
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.defaultPrevented).toBe(true);
  });
});
