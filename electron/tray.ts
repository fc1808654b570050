import { join } from 'node:path';
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { AppStatus } from '../core/index.js';

export type TrayState = 'idle' | 'working' | 'error' | 'paused';

export const TRAY_STATES: readonly TrayState[] = ['idle', 'working', 'error', 'paused'];

/** Pausing outranks the activity state: a paused Steward does no work, whatever the last state was. */
export function trayState(status: AppStatus): TrayState {
  return status.paused ? 'paused' : status.state;
}

/**
 * macOS menu bars want monochrome template images (the system tints them); elsewhere the icon is in
 * colour. Electron picks up the `@2x` sibling of either file by itself on high-density screens.
 */
export function trayIconFile(state: TrayState, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? `${state}Template.png` : `${state}.png`;
}

const STATE_WORDS: Record<TrayState, string> = { idle: 'Idle', working: 'Working', error: 'Error', paused: 'Paused' };
const MAX_STATUS_LINE = 64;

/** One short line; the status message is already free of paths and content (core guarantees it). */
export function statusLine(status: AppStatus): string {
  const word = STATE_WORDS[trayState(status)];
  const message = status.message.trim();
  const line = message === '' || message === word ? word : `${word} — ${message}`;
  return line.length > MAX_STATUS_LINE ? `${line.slice(0, MAX_STATUS_LINE - 1)}…` : line;
}

export interface TrayActions {
  open(): void;
  setPaused(paused: boolean): void;
  quit(): void;
}

/**
 * "Open Steward" comes first: on Linux desktops without StatusNotifier click support the menu is the
 * only way to reach the window.
 */
export function trayMenuTemplate(status: AppStatus, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { id: 'open', label: 'Open Steward', click: () => actions.open() },
    { id: 'status', label: statusLine(status), enabled: false },
    { type: 'separator' },
    { id: 'pause', label: status.paused ? 'Resume' : 'Pause', click: () => actions.setPaused(!status.paused) },
    { type: 'separator' },
    { id: 'quit', label: 'Quit', click: () => actions.quit() },
  ];
}

export interface TrayDeps {
  Tray: new (image: NativeImage) => Tray;
  Menu: Pick<typeof Menu, 'buildFromTemplate'>;
  nativeImage: { createFromPath(path: string): NativeImage };
}

export interface TrayOptions {
  iconDir: string;
  platform: NodeJS.Platform;
  status: AppStatus;
  actions: TrayActions;
}

export interface TrayController {
  /** Rebuilds icon, tooltip and menu: Linux applies menu changes only on a fresh setContextMenu. */
  update(status: AppStatus): void;
  destroy(): void;
}

export function createTrayController(deps: TrayDeps, options: TrayOptions): TrayController {
  const image = (state: TrayState) => {
    const icon = deps.nativeImage.createFromPath(join(options.iconDir, trayIconFile(state, options.platform)));
    if (options.platform === 'darwin') icon.setTemplateImage(true);
    return icon;
  };
  const tray = new deps.Tray(image(trayState(options.status)));
  // On macOS a click opens the menu by itself; elsewhere a click (where the desktop reports one) opens the window.
  if (options.platform !== 'darwin') tray.on('click', () => options.actions.open());

  let shown: TrayState | undefined;
  const update = (status: AppStatus) => {
    const state = trayState(status);
    if (state !== shown) {
      if (shown !== undefined) tray.setImage(image(state));
      shown = state;
    }
    tray.setToolTip(`Steward — ${statusLine(status)}`);
    tray.setContextMenu(deps.Menu.buildFromTemplate(trayMenuTemplate(status, options.actions)));
  };
  update(options.status);
  return { update, destroy: () => tray.destroy() };
}
