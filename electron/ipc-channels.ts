import type { ErrorCode, EventName, EventPayload, MethodName, Params, Result } from '../core/index.js';

/**
 * The one declaration of every IPC channel between the renderer and Electron main. The contract
 * itself lives in core/api; these channels only carry it. The sandboxed preload cannot load this file
 * at run time, so it repeats the literals typed as `typeof` these constants: a change here that the
 * preload does not follow fails type-checking.
 */

/** Renderer → main, `ipcRenderer.invoke`: one channel per contract method, `steward:call:App.Info`. */
export const CALL_CHANNEL_PREFIX = 'steward:call:';

/** Renderer → main, `ipcRenderer.invoke`: open one of Steward's own folders in the system's file manager. */
export const OPEN_FOLDER_CHANNEL = 'steward:open-folder';

/**
 * A folder the page may ask to open, named by what it is, never by a path: main looks the path up
 * through the contract, so a compromised page still cannot open anything but these.
 */
export type FolderTarget = { kind: 'notes'; projectKey: string } | { kind: 'home' } | { kind: 'logs' };

/** Main → renderer, `webContents.send`: every contract event, as an {@link IpcEventMessage}. */
export const EVENT_CHANNEL = 'steward:event';

/** The page's own origin: a privileged standard scheme served from dist/renderer (never file://). */
export const APP_SCHEME = 'steward';
export const APP_HOST = 'app';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** `Area.Verb`: anything else never reaches ipcRenderer.invoke. */
export const METHOD_NAME_PATTERN = /^[A-Z][A-Za-z]+\.[A-Z][A-Za-z]+$/;

export type CallChannel = keyof RequestResponseChannels;

export function callChannel<M extends MethodName>(method: M): `${typeof CALL_CHANNEL_PREFIX}${M}` {
  return `${CALL_CHANNEL_PREFIX}${method}`;
}

/** What a failed call carries across the bridge; `forbidden` is the sender check's refusal. */
export interface IpcFailure {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Every call channel resolves to this envelope rather than throwing: an Error thrown in main reaches
 * the renderer with its message rewritten and its `code` stripped, so the typed code would be lost.
 */
export type IpcReply<T = unknown> = { ok: true; result: T } | { ok: false; error: IpcFailure };

export type IpcEventMessage = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];

/**
 * Renderer → main, request/response (GitHub Desktop's RequestResponseChannels): one channel per
 * contract method with the signature it carries. Main still treats what arrives as unknown: the
 * Core's dispatcher validates params against the contract before any handler runs.
 */
export type RequestResponseChannels = {
  [M in MethodName as `${typeof CALL_CHANNEL_PREFIX}${M}`]: CallSignature<M>;
};

export type CallSignature<M extends MethodName> = (params: Params<M>) => Promise<IpcReply<Result<M>>>;

/** Main → renderer, one way. */
export interface EventChannels {
  [EVENT_CHANNEL]: (message: IpcEventMessage) => void;
}

/** The one object the preload exposes as `window.steward`; it matches core's StewardTransport. */
export interface StewardBridge {
  /** Rejects with a plain {@link IpcFailure} object (objects, unlike Errors, cross contextBridge intact). */
  call(method: string, params?: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  /** Opens one of Steward's folders (the app only); rejects with an {@link IpcFailure}. */
  openFolder(target: FolderTarget): Promise<void>;
}

/** Our page, whatever file of it: parsed, never prefix-matched. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}
