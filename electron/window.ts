import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';
import type { Logger } from '../core/index.js';

/** Every guest page, ours or not, gets the same fence: it can neither navigate nor open windows. */
export function guardWebContents(contents: WebContents, logger: Logger): void {
  contents.setWindowOpenHandler(() => {
    logger.warn('window.open refused');
    return { action: 'deny' };
  });
  // The panel is one page with in-page routing (which never emits will-navigate); a real navigation
  // could only take our preload to someone else's page.
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    logger.warn('navigation refused');
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    logger.warn('webview refused');
  });
}

export interface MainWindowOptions {
  preload: string;
  url: string;
  /** True once the user chose Quit: only then does closing the window really close it. */
  isQuitting: () => boolean;
  logger: Logger;
  /** Start hidden in the tray (launched at login, or with --hidden). */
  hidden?: boolean;
}

export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1180,
    height: 780,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Steward',
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** Closing hides to the tray; the window (and the Core behind it) lives until Quit. */
export function hideOnClose(window: Pick<BrowserWindow, 'on' | 'hide'>, isQuitting: () => boolean): void {
  window.on('close', (event) => {
    if (isQuitting()) return;
    event.preventDefault();
    window.hide();
  });
}

export function showWindow(window: BrowserWindow): void {
  if (window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/**
 * Shows the window at a place of the panel: only the fragment changes, which the page follows
 * (`#/<place>`) without reloading. `url` is the page's own address without a fragment.
 */
export function showWindowAt(window: BrowserWindow, url: string, place: string | undefined): void {
  showWindow(window);
  if (place === undefined || window.isDestroyed()) return;
  const target = `${url}#/${place}`;
  if (window.webContents.getURL() !== target) void window.loadURL(target).catch(() => undefined);
}

export function createMainWindow(BrowserWindowClass: typeof BrowserWindow, options: MainWindowOptions): BrowserWindow {
  // The navigation fence is installed by the app's web-contents-created hook, for this page and any other.
  const window = new BrowserWindowClass(mainWindowOptions(options.preload));
  hideOnClose(window, options.isQuitting);
  if (!options.hidden) window.once('ready-to-show', () => window.show());
  window.loadURL(options.url).catch(() => options.logger.error('the control panel failed to load'));
  return window;
}
