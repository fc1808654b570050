// The sandboxed preload: CommonJS, and able to require nothing but `electron`, so the channel names are
// repeated here as literals whose types are pinned to electron/ipc-channels.ts.
import electron = require('electron');
import type {
  CALL_CHANNEL_PREFIX,
  EVENT_CHANNEL,
  IpcEventMessage,
  IpcFailure,
  IpcReply,
  METHOD_NAME_PATTERN,
  OPEN_FOLDER_CHANNEL,
  StewardBridge,
} from './ipc-channels.js';

const CALL_PREFIX: typeof CALL_CHANNEL_PREFIX = 'steward:call:';
const EVENTS: typeof EVENT_CHANNEL = 'steward:event';
const OPEN_FOLDER: typeof OPEN_FOLDER_CHANNEL = 'steward:open-folder';
const FOLDER_KINDS = ['notes', 'home', 'logs'];
const METHOD_NAME: typeof METHOD_NAME_PATTERN = /^[A-Z][A-Za-z]+\.[A-Z][A-Za-z]+$/;
const EVENT_NAME = /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/;

function failure(code: IpcFailure['code'], message: string): IpcFailure {
  return { code, message };
}

function isReply(value: unknown): value is IpcReply {
  if (typeof value !== 'object' || value === null) return false;
  const ok = (value as { ok?: unknown }).ok;
  return ok === true || (ok === false && typeof (value as { error?: unknown }).error === 'object');
}

/** Everything the page can reach: two functions that validate their arguments before anything crosses. */
function createBridge(ipc: Pick<Electron.IpcRenderer, 'invoke' | 'on' | 'removeListener'>): StewardBridge {
  // One ipc listener however many views subscribe; it is attached while anyone listens.
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const relay = (_event: Electron.IpcRendererEvent, message: IpcEventMessage) => {
    for (const listener of [...(listeners.get(message?.name) ?? [])]) {
      try {
        listener(message.payload);
      } catch {
        // One faulty view must not keep the event from the others.
      }
    }
  };
  return {
    async call(method, params) {
      if (typeof method !== 'string' || !METHOD_NAME.test(method)) {
        throw failure('invalid_params', 'A method name looks like Area.Verb');
      }
      let reply: unknown;
      try {
        reply = await ipc.invoke(`${CALL_PREFIX}${method}`, params ?? {});
      } catch {
        // Only a method without a handler gets here: main answers every other call with an envelope.
        throw failure('method_not_found', `Unknown method ${method}`);
      }
      if (!isReply(reply)) throw failure('internal', 'Malformed reply from Steward');
      if (reply.ok) return reply.result;
      throw reply.error;
    },
    async openFolder(target) {
      const kind = (target as { kind?: unknown } | null)?.kind;
      if (typeof kind !== 'string' || !FOLDER_KINDS.includes(kind)) throw failure('invalid_params', 'openFolder names notes, home or logs');
      const reply: unknown = await ipc.invoke(OPEN_FOLDER, target);
      if (!isReply(reply)) throw failure('internal', 'Malformed reply from Steward');
      if (!reply.ok) throw reply.error;
    },
    on(event, listener) {
      if (typeof event !== 'string' || !EVENT_NAME.test(event) || typeof listener !== 'function') {
        throw failure('invalid_params', 'on(event, listener) needs an event name and a function');
      }
      if (listeners.size === 0) ipc.on(EVENTS, relay);
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(event) === set) listeners.delete(event);
        if (listeners.size === 0) ipc.removeListener(EVENTS, relay);
      };
    },
  };
}

electron.contextBridge.exposeInMainWorld('steward', createBridge(electron.ipcRenderer));
