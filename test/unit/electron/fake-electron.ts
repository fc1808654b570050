import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/**
 * A stand-in for the `electron` module (the only module tests may mock): just enough of app, windows,
 * tray, menus, IPC and protocol to drive electron/ without a binary. Tests load it with
 * `vi.mock('electron', () => import('./fake-electron.js'))` and read its state through the helpers.
 */

export interface PreventableEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function preventable(): PreventableEvent {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

let nextProcessId = 10;

export class FakeWebFrame {
  constructor(
    public url: string,
    public parent: FakeWebFrame | null,
    public processId: number,
    public routingId: number,
  ) {}
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly mainFrame = new FakeWebFrame('about:blank', null, nextProcessId++, 1);
  readonly sent: Array<{ channel: string; message: unknown }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  destroyed = false;

  send(channel: string, message: unknown): void {
    this.sent.push({ channel, message });
  }
  getURL(): string {
    return this.mainFrame.url;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** A child frame inside this page (an iframe): same process, its own routing id. */
  subframe(url: string): FakeWebFrame {
    return new FakeWebFrame(url, this.mainFrame, this.mainFrame.processId, 2);
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly options: Record<string, unknown>;
  visible = false;
  destroyed = false;
  loadedUrl: string | undefined;
  readonly focus = vi.fn();
  readonly restore = vi.fn();

  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    BrowserWindow.instances.push(this);
    app.emit('web-contents-created', preventable(), this.webContents);
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** What the window manager's close button does: `close`, then destruction unless prevented. */
  close(): PreventableEvent {
    const event = preventable();
    this.emit('close', event);
    if (!event.defaultPrevented) {
      this.destroyed = true;
      this.webContents.destroyed = true;
      this.emit('closed');
    }
    return event;
  }
}

export interface FakeImage {
  path: string;
  template: boolean;
  setTemplateImage(template: boolean): void;
}

export const nativeImage = {
  createFromPath(path: string): FakeImage {
    return {
      path,
      template: false,
      setTemplateImage(template: boolean) {
        this.template = template;
      },
    };
  },
};

export interface FakeMenuItem {
  id?: string;
  label?: string;
  type?: string;
  enabled?: boolean;
  click?: () => void;
}

export const Menu = {
  buildFromTemplate(template: FakeMenuItem[]): { items: FakeMenuItem[] } {
    return { items: template };
  },
};

/** Native notifications as main sees them: each shown one is kept, and a test can click it. */
export class Notification extends EventEmitter {
  static instances: Notification[] = [];
  static supported = true;
  static isSupported(): boolean {
    return Notification.supported;
  }
  readonly options: { title?: string; body?: string; actions?: Array<{ type: string; text: string }> };
  shown = false;

  constructor(options: Notification['options']) {
    super();
    this.options = options;
    Notification.instances.push(this);
  }
  show(): void {
    this.shown = true;
  }
}

export const shell = {
  openPath: vi.fn((_path: string) => Promise.resolve('')),
};

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  image: FakeImage;
  tooltip = '';
  menu: { items: FakeMenuItem[] } | undefined;
  menuUpdates = 0;
  destroyed = false;

  constructor(image: FakeImage) {
    super();
    this.image = image;
    Tray.instances.push(this);
  }
  setImage(image: FakeImage): void {
    this.image = image;
  }
  setToolTip(tooltip: string): void {
    this.tooltip = tooltip;
  }
  setContextMenu(menu: { items: FakeMenuItem[] }): void {
    this.menu = menu;
    this.menuUpdates += 1;
  }
  destroy(): void {
    this.destroyed = true;
  }
  labels(): string[] {
    return (this.menu?.items ?? []).map((item) => (item.type === 'separator' ? '---' : (item.label ?? '')));
  }
  item(id: string): FakeMenuItem {
    const found = this.menu?.items.find((item) => item.id === id);
    if (!found) throw new Error(`no menu item ${id}`);
    return found;
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
};

/** The renderer half, as the sandboxed preload sees it; `invoke` is routed by each test. */
class FakeIpcRenderer extends EventEmitter {
  invoke = vi.fn<(channel: string, ...args: unknown[]) => Promise<unknown>>(() => Promise.reject(new Error('no route')));
}
export const ipcRenderer = new FakeIpcRenderer();

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  },
};

class FakeApp extends EventEmitter {
  paths = new Map<string, string>();
  appPath = '/nonexistent-app-path';
  isPackaged = false;
  requestSingleInstanceLock = vi.fn(() => true);
  setAppUserModelId = vi.fn();
  enableSandbox = vi.fn();
  exit = vi.fn();
  /**
   * What the OS login-item store holds (macOS, Windows). As Electron on Windows: one Run value per app
   * name, written with this path and arguments, deleted whatever its arguments when turned off.
   */
  loginItems = new Map<string, { openAtLogin: boolean; path?: string; args?: string[] }>();
  loginItemStatus: 'not-registered' | 'enabled' | 'requires-approval' | 'not-found' = 'not-registered';
  wasOpenedAtLogin = false;
  quitCalls = 0;
  exited = false;

  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getPath(name: string): string {
    return this.paths.get(name) ?? `/nonexistent-${name}`;
  }
  getAppPath(): string {
    return this.appPath;
  }
  setLoginItemSettings(settings: { openAtLogin?: boolean; path?: string; args?: string[] }): void {
    if (settings.openAtLogin) this.loginItems.set('Steward', { openAtLogin: true, ...(settings.path ? { path: settings.path } : {}), ...(settings.args ? { args: settings.args } : {}) });
    else this.loginItems.delete('Steward');
  }
  /** openAtLogin: the value runs exactly this path and these arguments; executableWillLaunchAtLogin: this path, whatever its arguments. */
  getLoginItemSettings(options: { path?: string; args?: string[] } = {}): { openAtLogin: boolean; executableWillLaunchAtLogin: boolean; wasOpenedAtLogin: boolean; status: string } {
    const item = this.loginItems.get('Steward');
    const samePath = item !== undefined && (item.path ?? null) === (options.path ?? null);
    const openAtLogin = samePath && JSON.stringify(item.args ?? []) === JSON.stringify(options.args ?? []);
    return { openAtLogin, executableWillLaunchAtLogin: samePath, wasOpenedAtLogin: this.wasOpenedAtLogin, status: this.loginItemStatus };
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  /** Electron's order: before-quit, then will-quit (which may hold the exit), then quit. */
  quit(): void {
    this.quitCalls += 1;
    this.emit('before-quit', preventable());
    const event = preventable();
    this.emit('will-quit', event);
    if (!event.defaultPrevented) {
      this.exited = true;
      this.emit('quit');
    }
  }
}
export const app = new FakeApp();

export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
  handlers: new Map<string, (request: Request) => Promise<Response>>(),
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    this.handlers.set(scheme, handler);
  },
};

export const session = {
  defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
};

export const dialog = { showErrorBox: vi.fn() };

type StorageBackend = 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';
const KEYCHAIN_SECRET = randomBytes(32);

/**
 * The OS keychain as safeStorage exposes it: real AES-GCM under a secret this process keeps, behind
 * Chromium's `v11` prefix. `available` and `backend` let a test take the keychain away.
 */
export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret' as StorageBackend,
  isAsyncEncryptionAvailable(): Promise<boolean> {
    return Promise.resolve(this.available);
  },
  getSelectedStorageBackend(): StorageBackend {
    return this.backend;
  },
  encryptStringAsync(plainText: string): Promise<Buffer> {
    if (!this.available) return Promise.reject(new Error('Encryption is not available.'));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', KEYCHAIN_SECRET, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Promise.resolve(Buffer.concat([Buffer.from('v11'), iv, cipher.getAuthTag(), body]));
  },
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }> {
    if (!this.available) return Promise.reject(new Error('Decryption is not available.'));
    const decipher = createDecipheriv('aes-256-gcm', KEYCHAIN_SECRET, encrypted.subarray(3, 15));
    decipher.setAuthTag(encrypted.subarray(15, 31));
    const result = Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8');
    return Promise.resolve({ shouldReEncrypt: false, result });
  },
};

export function resetElectron(): void {
  BrowserWindow.instances = [];
  Tray.instances = [];
  Notification.instances = [];
  Notification.supported = true;
  shell.openPath.mockClear();
  app.loginItems.clear();
  app.loginItemStatus = 'not-registered';
  app.wasOpenedAtLogin = false;
  ipcMain.handlers.clear();
  ipcRenderer.removeAllListeners();
  ipcRenderer.invoke.mockReset();
  contextBridge.exposed.clear();
  app.removeAllListeners();
  app.paths.clear();
  app.appPath = '/nonexistent-app-path';
  app.isPackaged = false;
  app.requestSingleInstanceLock.mockReset();
  app.requestSingleInstanceLock.mockReturnValue(true);
  app.setAppUserModelId.mockReset();
  app.enableSandbox.mockReset();
  app.exit.mockReset();
  app.quitCalls = 0;
  app.exited = false;
  protocol.registerSchemesAsPrivileged.mockReset();
  protocol.handlers.clear();
  session.defaultSession.setPermissionRequestHandler.mockReset();
  session.defaultSession.setPermissionCheckHandler.mockReset();
  dialog.showErrorBox.mockReset();
  safeStorage.available = true;
  safeStorage.backend = 'gnome_libsecret';
}

export default { app, BrowserWindow, Tray, Menu, nativeImage, Notification, shell, ipcMain, ipcRenderer, contextBridge, protocol, session, dialog, safeStorage };
