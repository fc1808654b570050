import { join } from 'node:path';
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import { STATUS_STATES, statusLines, type AppStatus, type StatusPlace, type StatusState } from '../core/index.js';

/** One icon per headline state of the status model; its colour is the panel's colour for that state. */
export type TrayState = StatusState;
export const TRAY_STATES: readonly TrayState[] = STATUS_STATES;

/** The model already ranks the states (error, attention, working, paused, idle): the icon shows the headline. */
export function trayState(status: AppStatus): TrayState {
  return status.state;
}

/**
 * macOS menu bars want monochrome template images (the system tints them; the glyph tells the state
 * apart); Windows takes an .ico holding every size it may need; Linux a colour PNG. Electron picks up
 * the `@2x` sibling of a PNG by itself on high-density screens.
 */
export function trayIconFile(state: TrayState, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return `${state}Template.png`;
  if (platform === 'win32') return `${state}.ico`;
  return `${state}.png`;
}

const MAX_MENU_LINE = 80;
/** Windows cuts a tray tooltip at 127 characters; no platform shows more than a few lines. */
const MAX_TOOLTIP = 127;
const MAX_ATTENTION_ITEMS = 3;

function bound(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The menu's status line: the headline, which already names what (core's words, free of paths and content). */
export function statusLine(status: AppStatus): string {
  return bound(status.message, MAX_MENU_LINE);
}

/** The tooltip in words: the headline, then every other fact once. */
export function trayTooltip(status: AppStatus): string {
  return bound(['Steward', ...statusLines(status)].join('\n'), MAX_TOOLTIP);
}

export interface TrayActions {
  /** Shows the window, at a place when one is named. */
  open(place?: StatusPlace): void;
  sweepNow(): void;
  setPaused(paused: boolean): void;
  openLogs(): void;
  quit(): void;
}

/** What needs the person, each a way to where it is dealt with (at most a few; the panel lists the rest). */
function attentionItems(status: AppStatus, actions: TrayActions): MenuItemConstructorOptions[] {
  const items = status.state === 'attention' && status.attention.length === 1 ? [] : status.attention.slice(0, MAX_ATTENTION_ITEMS);
  return items.map((item, index) => ({
    id: `attention-${index}`,
    label: bound(item.text, MAX_MENU_LINE),
    click: () => actions.open(item.place ?? undefined),
  }));
}

/**
 * "Open Steward" comes first: on Linux desktops without StatusNotifier click support the menu is the
 * only way to reach the window. The status line opens where its matter is dealt with, when it has one.
 */
export function trayMenuTemplate(status: AppStatus, actions: TrayActions): MenuItemConstructorOptions[] {
  // The list the headline speaks from (a conflict outranks an error): its first item's place.
  const headlinePlace = (status.state === 'attention' ? status.attention : [...status.errors, ...status.attention, ...status.working])[0]?.place ?? undefined;
  const headline: MenuItemConstructorOptions =
    headlinePlace && status.state !== 'working' ? { id: 'status', label: statusLine(status), click: () => actions.open(headlinePlace) } : { id: 'status', label: statusLine(status), enabled: false };
  return [
    { id: 'open', label: 'Open Steward', click: () => actions.open() },
    headline,
    ...attentionItems(status, actions),
    { type: 'separator' },
    { id: 'sweep', label: 'Sweep now', click: () => actions.sweepNow() },
    { id: 'pause', label: status.paused ? 'Resume' : 'Pause', click: () => actions.setPaused(!status.paused) },
    { type: 'separator' },
    { id: 'logs', label: 'Open logs', click: () => actions.openLogs() },
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
    tray.setToolTip(trayTooltip(status));
    tray.setContextMenu(deps.Menu.buildFromTemplate(trayMenuTemplate(status, options.actions)));
  };
  update(options.status);
  return { update, destroy: () => tray.destroy() };
}
