import type { BrowserWindow, IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { METHOD_NAMES, toStewardError, type Core, type EventBus, type Logger, type MethodName, type Result } from '../core/index.js';
import {
  callChannel,
  EVENT_CHANNEL,
  isAppUrl,
  OPEN_FOLDER_CHANNEL,
  type FolderTarget,
  type CallChannel,
  type CallSignature,
  type EventChannels,
  type IpcEventMessage,
  type IpcReply,
} from './ipc-channels.js';

/** The only page that may call: our window's main frame, showing our own page. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, window: BrowserWindow | undefined): boolean {
  if (!window || window.isDestroyed()) return false;
  const frame = event.senderFrame;
  // A frame that navigated away or was destroyed mid-call has no senderFrame: nothing to trust.
  if (!frame) return false;
  const contents = window.webContents;
  if (event.sender.id !== contents.id) return false;
  const main = contents.mainFrame;
  if (frame.parent !== null || frame.processId !== main.processId || frame.routingId !== main.routingId) return false;
  return isAppUrl(frame.url);
}

/**
 * `ipcMain.handle` tied to the channel map: a method's channel, answered with that method's reply.
 * What arrives stays `unknown` until the Core's dispatcher has validated it.
 */
function handle<M extends MethodName>(
  ipcMain: Pick<IpcMain, 'handle'>,
  method: M,
  listener: (event: IpcMainInvokeEvent, params: unknown) => ReturnType<CallSignature<M>>,
): CallChannel {
  const channel: CallChannel = callChannel(method);
  ipcMain.handle(channel, listener);
  return channel;
}

/** `webContents.send` tied to the channel map. */
function send<C extends keyof EventChannels>(contents: WebContents, channel: C, ...args: Parameters<EventChannels[C]>): void {
  contents.send(channel, ...args);
}

export interface IpcBridgeOptions {
  core: Pick<Core, 'call'>;
  logger: Logger;
  /** The window whose main frame may call; looked up per call, as the window can be recreated. */
  window: () => BrowserWindow | undefined;
  /** `shell.openPath`: resolves to an error text, empty on success. Without it, openFolder is refused. */
  openPath?: (path: string) => Promise<string>;
}

/**
 * Registers one handler per contract method. Each one checks the sender first, then hands the raw
 * params to the Core's dispatcher, which validates them against the contract like every transport.
 * Returns the function that removes them all.
 */
export function registerIpcBridge(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, options: IpcBridgeOptions): () => void {
  const channels: string[] = METHOD_NAMES.map((method) => registerMethod(ipcMain, method, options));
  ipcMain.handle(OPEN_FOLDER_CHANNEL, (event, target: unknown) => openFolder(event, target, options));
  channels.push(OPEN_FOLDER_CHANNEL);
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

/** The folder's path, from the contract: a project's notes folder, or the home and logs folders. */
async function folderPath(core: Pick<Core, 'call'>, target: FolderTarget): Promise<string> {
  if (target.kind === 'notes') return (await core.call('Projects.Get', { projectKey: target.projectKey })).notesPath;
  const { paths } = await core.call('Settings.Config', {});
  return target.kind === 'home' ? paths.home : paths.logs;
}

function isFolderTarget(value: unknown): value is FolderTarget {
  const target = value as { kind?: unknown; projectKey?: unknown } | null;
  if (target?.kind === 'notes') return typeof target.projectKey === 'string';
  return target?.kind === 'home' || target?.kind === 'logs';
}

async function openFolder(event: IpcMainInvokeEvent, target: unknown, options: IpcBridgeOptions): Promise<IpcReply<null>> {
  if (!isTrustedSender(event, options.window())) {
    options.logger.warn('ipc call refused: untrusted sender', { method: 'openFolder' });
    return { ok: false, error: { code: 'forbidden', message: 'Only the Steward window may open folders' } };
  }
  if (!isFolderTarget(target)) return { ok: false, error: { code: 'invalid_params', message: 'openFolder names notes (with a projectKey), home or logs' } };
  if (!options.openPath) return { ok: false, error: { code: 'unsupported', message: 'Opening folders is not possible here' } };
  try {
    const failure = await options.openPath(await folderPath(options.core, target));
    // Which folder failed would be a path: the log line names its kind only.
    if (failure) options.logger.warn('opening a folder failed', { kind: target.kind });
    return failure ? { ok: false, error: { code: 'not_found', message: `The folder could not be opened: ${failure}` } } : { ok: true, result: null };
  } catch (error) {
    return { ok: false, error: toStewardError(error).toJSON() };
  }
}

function registerMethod<M extends MethodName>(ipcMain: Pick<IpcMain, 'handle'>, method: M, options: IpcBridgeOptions): CallChannel {
  return handle(ipcMain, method, (event, params) => handleCall(method, event, params, options));
}

async function handleCall<M extends MethodName>(method: M, event: IpcMainInvokeEvent, params: unknown, options: IpcBridgeOptions): Promise<IpcReply<Result<M>>> {
  if (!isTrustedSender(event, options.window())) {
    // No URL in the line: a foreign page's address is not ours to record.
    options.logger.warn('ipc call refused: untrusted sender', { method });
    return { ok: false, error: { code: 'forbidden', message: 'Only the Steward window may call Steward' } };
  }
  try {
    // The dispatcher checked the result against the contract before returning it.
    const result = (await options.core.call(method as string, params, { transport: 'ipc' })) as Result<M>;
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error: toStewardError(error).toJSON() };
  }
}

/** Sends every contract event to the window's page; returns the unsubscribe function. */
export function forwardEvents(events: EventBus, window: () => BrowserWindow | undefined): () => void {
  return events.subscribe((name, payload) => {
    const target = window();
    if (!target || target.isDestroyed() || target.webContents.isDestroyed()) return;
    send(target.webContents, EVENT_CHANNEL, { name, payload } as IpcEventMessage);
  });
}
