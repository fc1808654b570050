import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { METHOD_NAMES, toStewardError, type Core, type EventBus, type Logger, type MethodName } from '../core/index.js';
import { callChannel, EVENT_CHANNEL, isAppUrl, type IpcEventMessage, type IpcReply } from './ipc-channels.js';

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

export interface IpcBridgeOptions {
  core: Pick<Core, 'call'>;
  logger: Logger;
  /** The window whose main frame may call; looked up per call, as the window can be recreated. */
  window: () => BrowserWindow | undefined;
}

/**
 * Registers one handler per contract method. Each one checks the sender first, then hands the raw
 * params to the Core's dispatcher, which validates them against the contract like every transport.
 * Returns the function that removes them all.
 */
export function registerIpcBridge(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, options: IpcBridgeOptions): () => void {
  const channels = METHOD_NAMES.map((method) => {
    const channel = callChannel(method);
    ipcMain.handle(channel, (event, params: unknown) => handleCall(method, event, params, options));
    return channel;
  });
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

async function handleCall(method: MethodName, event: IpcMainInvokeEvent, params: unknown, options: IpcBridgeOptions): Promise<IpcReply> {
  if (!isTrustedSender(event, options.window())) {
    // No URL in the line: a foreign page's address is not ours to record.
    options.logger.warn('ipc call refused: untrusted sender', { method });
    return { ok: false, error: { code: 'forbidden', message: 'Only the Steward window may call Steward' } };
  }
  try {
    return { ok: true, result: await options.core.call(method, params, { transport: 'ipc' }) };
  } catch (error) {
    return { ok: false, error: toStewardError(error).toJSON() };
  }
}

/** Sends every contract event to the window's page; returns the unsubscribe function. */
export function forwardEvents(events: EventBus, window: () => BrowserWindow | undefined): () => void {
  return events.subscribe((name, payload) => {
    const target = window();
    if (!target || target.isDestroyed() || target.webContents.isDestroyed()) return;
    const message: IpcEventMessage = { name, payload };
    target.webContents.send(EVENT_CHANNEL, message);
  });
}
