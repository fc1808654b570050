// A stand-in Electron runtime for running the COMPILED main process (dist/electron/main.js) under plain
// Node (`node --import …/register.mjs dist/electron/main.js`): it answers both `import … from 'electron'`
// (through electron-shim.mjs) and the CommonJS `require('electron')` inside electron-log. It records what
// the app did to the JSON file named by FAKE_ELECTRON_REPORT, sends one call through the IPC bridge and
// one request through the steward:// handler, then quits the way the tray's Quit does.
import { EventEmitter } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';

const report = { events: [], handlers: [], windows: [], trays: [], files: {}, protocol: {} };
const note = (event) => report.events.push(event);

class FakeApp extends EventEmitter {
  constructor() {
    super();
    this.isPackaged = false;
    this.name = 'Steward';
    this.paths = {};
    this.ready = false;
  }
  setPath(name, value) {
    this.paths[name] = value;
    note(`setPath:${name}`);
  }
  getPath(name) {
    return this.paths[name] ?? process.env.FAKE_ELECTRON_TMP;
  }
  getName() {
    return this.name;
  }
  getVersion() {
    return '0.0.0-fake';
  }
  getAppPath() {
    return process.env.FAKE_ELECTRON_APP_PATH;
  }
  isReady() {
    return this.ready;
  }
  requestSingleInstanceLock() {
    note('requestSingleInstanceLock');
    return true;
  }
  setAppUserModelId() {}
  getLoginItemSettings() {
    return { openAtLogin: false, wasOpenedAtLogin: false, status: 'not-registered' };
  }
  setLoginItemSettings() {}
  enableSandbox() {
    note('enableSandbox');
  }
  whenReady() {
    return new Promise((resolve) =>
      setTimeout(() => {
        this.ready = true;
        this.emit('ready');
        resolve();
      }, 10),
    );
  }
  quit() {
    note('quit');
    this.emit('before-quit', { preventDefault() {} });
    let prevented = false;
    this.emit('will-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) finish(0);
  }
  exit(code) {
    note(`exit:${code}`);
    finish(code);
  }
}
const app = new FakeApp();

class WebContents extends EventEmitter {
  constructor() {
    super();
    this.id = 1;
    this.mainFrame = { url: '', parent: null, processId: 1, routingId: 1 };
  }
  setWindowOpenHandler(handler) {
    report.windowOpen = handler({ url: 'https://example.com/' });
  }
  send(channel, message) {
    note(`send:${channel}:${message.name}`);
  }
  isDestroyed() {
    return false;
  }
}

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.webContents = new WebContents();
    const prefs = options.webPreferences;
    report.windows.push({ webPreferences: { ...prefs }, preloadExists: existsSync(prefs.preload) });
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url) {
    report.windows[0].url = url;
    this.webContents.mainFrame.url = url;
    const handler = protocol.handlers[new URL(url).protocol.slice(0, -1)];
    if (handler) {
      const response = await handler(new Request(url));
      report.protocol = { status: response.status, csp: response.headers.get('content-security-policy'), type: response.headers.get('content-type') };
    }
    // Once the page "loaded", ask for App.Info the way the preload would, then quit like the tray's Quit.
    const info = ipcMain.handlers.get('steward:call:App.Info');
    report.appInfo = info ? await info({ sender: this.webContents, senderFrame: this.webContents.mainFrame }, {}) : undefined;
    setTimeout(() => app.quit(), 50);
  }
  on(event, listener) {
    return super.on(event, listener);
  }
  show() {}
  hide() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return false;
  }
  static getAllWindows() {
    return [];
  }
}

class Tray extends EventEmitter {
  constructor(image) {
    super();
    report.trays.push({ icon: image.path, iconExists: existsSync(image.path) });
  }
  setImage() {}
  setToolTip(text) {
    report.trays[0].tooltip = text;
  }
  setContextMenu(menu) {
    report.trays[0].menu = menu.items.map((item) => (item.type === 'separator' ? '---' : item.label));
  }
  destroy() {
    note('tray.destroy');
  }
}

const ipcMain = {
  handlers: new Map(),
  handle(channel, listener) {
    this.handlers.set(channel, listener);
    report.handlers.push(channel);
  },
  removeHandler(channel) {
    this.handlers.delete(channel);
  },
  on() {},
};

const protocol = {
  handlers: {},
  registerSchemesAsPrivileged(schemes) {
    report.schemes = schemes;
  },
  handle(scheme, handler) {
    this.handlers[scheme] = handler;
  },
};

class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  show() {
    note('notification');
  }
}

const electron = {
  app,
  BrowserWindow,
  Tray,
  Notification,
  shell: { openPath: () => Promise.resolve('') },
  Menu: { buildFromTemplate: (items) => ({ items }) },
  nativeImage: { createFromPath: (path) => ({ path, setTemplateImage() {} }) },
  ipcMain,
  protocol,
  session: { defaultSession: { setPermissionRequestHandler() {}, setPermissionCheckHandler() {} } },
  dialog: {
    showErrorBox(title, message) {
      report.errorBox = { title, message };
    },
  },
  webContents: { getAllWebContents: () => [] },
  // No keychain in this stand-in: the app must start all the same and fall back to the environment.
  safeStorage: {
    isAsyncEncryptionAvailable: () => Promise.resolve(false),
    getSelectedStorageBackend: () => 'unknown',
    encryptStringAsync: () => Promise.reject(new Error('Encryption is not available.')),
    decryptStringAsync: () => Promise.reject(new Error('Decryption is not available.')),
  },
};

function finish(code) {
  report.exitCode = code;
  writeFileSync(process.env.FAKE_ELECTRON_REPORT, JSON.stringify(report, null, 2));
  process.exit(code);
}

// What `require('electron')` resolves to, answered from the module cache so the real package (whose
// index.js would try to download a binary) never runs.
const resolved = createRequire(import.meta.url).resolve('electron', { paths: [process.cwd()] });
const cached = new Module(resolved);
cached.filename = resolved;
cached.loaded = true;
cached.exports = electron;
Module._cache[resolved] = cached;
export default electron;
