import { createParser, type EventSourceMessage } from 'eventsource-parser';
import * as z from 'zod/mini';
import type { RpcErrorData, StewardTransport } from '../../core/api/index.js';

/**
 * How the panel reaches its owner. In the Electron window the preload bridge (`window.steward`)
 * carries the contract over IPC; in a browser (`steward serve`) it is JSON-RPC on `/rpc` and
 * server-sent events on `/events`, both behind the bearer token from the URL fragment, kept in the
 * origin's localStorage so a reload, a bookmark or a new tab of the panel opens without it.
 */

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

export interface PanelTransport extends StewardTransport {
  readonly kind: 'bridge' | 'http';
  /** Calls back with the current state at once, then on every change; returns unsubscribe. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

export type TransportChoice = { kind: 'ready'; transport: PanelTransport } | { kind: 'no-token' };

/** A failed call; `code` is the contract's typed `data.code` (or a transport code such as `unauthorized`). */
export class StewardRpcError extends Error {
  readonly code: string;
  readonly data: RpcErrorData;
  readonly rpcCode: number | undefined;

  constructor(code: string, message: string, options: { rpcCode?: number; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'StewardRpcError';
    this.code = code;
    this.rpcCode = options.rpcCode;
    this.data = options.details ? { code, details: options.details } : { code };
  }
}

declare global {
  interface Window {
    /** Exposed by Electron's preload through contextBridge: exactly `call` and `on`. */
    steward?: StewardTransport;
  }
}

const TOKEN_KEY = 'steward.token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const RPC_PATH = '/rpc';
const EVENTS_PATH = '/events';
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 15_000;
/** The owner writes a keep-alive comment every 15 s; three missed ones mean the stream is dead. */
const STREAM_SILENCE_MS = 45_000;

/*
 * The token is kept in localStorage, never in a cookie: localStorage belongs to the exact origin
 * (scheme, host and port), while a cookie ignores the port and would be sent to every other server
 * this browser visits on 127.0.0.1. Every tab of this panel's address shares it, and it outlives the
 * tab, so bookmarks and new tabs open on their place.
 */
function storedGet(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function storedSet(key: string, value: string | undefined): void {
  try {
    if (value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be disabled; the token then lives only as long as this page.
  }
}

/** The token a `#token=…` fragment carries, when it has one of a token's shape. */
export function tokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.slice(1)).get('token');
  return token !== null && TOKEN_SHAPE.test(token) ? token : undefined;
}

/**
 * Takes the token from the address's `#token=…` and removes it from the address bar and history at
 * once, so it is not bookmarked, shared or shown; localStorage keeps it for this origin's reloads,
 * bookmarks and tabs. An address without it (`#/sessions/<id>`) is left as it is. The first load and a
 * link pasted into an open tab (onTokenLink) both take it here, so both keep and clear it alike.
 */
function takeLinkToken(): string | undefined {
  const hash = window.location.hash;
  if (!new URLSearchParams(hash.slice(1)).has('token')) return undefined;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  const token = tokenFromHash(hash);
  if (token !== undefined) storedSet(TOKEN_KEY, token);
  return token;
}

/** The link's token (taken from the address, see takeLinkToken), else the one this origin kept. */
export function takeToken(): string | undefined {
  const fromLink = takeLinkToken();
  if (fromLink !== undefined) return fromLink;
  const stored = storedGet(TOKEN_KEY);
  return stored !== undefined && TOKEN_SHAPE.test(stored) ? stored : undefined;
}

/**
 * Calls back with the token of a link opened in this tab after it loaded: pasting the address
 * `steward token rotate` printed changes only the fragment, so there is no page load to take it.
 * Taken, kept and cleared from the address bar as on the first load; returns unsubscribe.
 */
export function onTokenLink(listener: (token: string) => void): () => void {
  const handle = () => {
    const token = takeLinkToken();
    if (token !== undefined) listener(token);
  };
  window.addEventListener('hashchange', handle);
  return () => window.removeEventListener('hashchange', handle);
}

/**
 * Forgets `token` once the owner refused it. Only that one: another tab may have stored a newer token
 * from a fresh link meanwhile, and that one must stay.
 */
export function forgetToken(token: string): void {
  if (storedGet(TOKEN_KEY) === token) storedSet(TOKEN_KEY, undefined);
}

/**
 * Calls back when another tab of this origin stores a token (`steward open` opened the link there), so
 * a page that was not let in can open on its own place without being reloaded by hand.
 */
export function onTokenStored(listener: () => void): () => void {
  const handle = (event: StorageEvent) => {
    if (event.key === TOKEN_KEY && event.newValue !== null) listener();
  };
  window.addEventListener('storage', handle);
  return () => window.removeEventListener('storage', handle);
}

function isBridge(value: unknown): value is StewardTransport {
  const candidate = value as Partial<StewardTransport> | null | undefined;
  return typeof candidate?.call === 'function' && typeof candidate.on === 'function';
}

/** The bridge when Electron provides one, else HTTP with the fragment's token, else nothing usable. */
export function chooseTransport(): TransportChoice {
  if (isBridge(window.steward)) return { kind: 'ready', transport: bridgeTransport(window.steward) };
  const token = takeToken();
  if (token === undefined) return { kind: 'no-token' };
  return { kind: 'ready', transport: createHttpTransport(token) };
}

/**
 * JSON-RPC and events over loopback HTTP. `origin` is empty in the page (same-origin paths); tests
 * outside a browser pass the owner's `http://127.0.0.1:PORT`.
 */
export function createHttpTransport(token: string, origin = ''): PanelTransport {
  return new HttpTransport(token, origin);
}

const ErrorData = z.looseObject({ code: z.string(), details: z.optional(z.record(z.string(), z.unknown())) });
const RpcError = z.looseObject({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) });
const RpcResponse = z.looseObject({
  jsonrpc: z.literal('2.0'),
  result: z.optional(z.unknown()),
  error: z.optional(RpcError),
});

/** Keeps the typed code when there is one; anything else becomes `internal` without foreign text. */
export function toRpcError(error: unknown): StewardRpcError {
  if (error instanceof StewardRpcError) return error;
  const shaped = error as { data?: unknown; message?: unknown } | null;
  const data = ErrorData.safeParse(shaped?.data);
  if (data.success) return new StewardRpcError(data.data.code, String(shaped?.message ?? data.data.code), data.data.details ? { details: data.data.details } : {});
  // The Electron bridge rejects with the contract's plain `{code, message, details?}`.
  const plain = ErrorData.safeParse(shaped);
  if (plain.success && typeof shaped?.message === 'string') return new StewardRpcError(plain.data.code, shaped.message, plain.data.details ? { details: plain.data.details } : {});
  return new StewardRpcError('internal', 'The request failed.');
}

function bridgeTransport(bridge: StewardTransport): PanelTransport {
  return {
    kind: 'bridge',
    call: async (method, params) => {
      try {
        return await bridge.call(method, params);
      } catch (error) {
        throw toRpcError(error);
      }
    },
    on: (event, listener) => bridge.on(event, listener),
    // IPC lives exactly as long as the window: there is nothing to reconnect.
    onConnection: (listener) => {
      listener('open');
      return () => undefined;
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

class HttpTransport implements PanelTransport {
  readonly kind = 'http' as const;
  readonly #token: string;
  readonly #rpcUrl: string;
  readonly #eventsUrl: string;
  readonly #listeners = new Map<string, Set<(payload: unknown) => void>>();
  readonly #connectionListeners = new Set<(state: ConnectionState) => void>();
  #state: ConnectionState = 'connecting';
  #nextId = 1;
  #stream: AbortController | undefined;

  constructor(token: string, origin: string) {
    this.#token = token;
    this.#rpcUrl = `${origin}${RPC_PATH}`;
    this.#eventsUrl = `${origin}${EVENTS_PATH}`;
  }

  async call(method: string, params: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.#rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.#token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.#nextId++, method, params }),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      throw new StewardRpcError('unreachable', 'Steward is not reachable. Is `steward serve` still running?');
    }
    if (response.status === 401) {
      this.#unauthorized();
      throw new StewardRpcError('unauthorized', 'This link is no longer valid. `steward open` opens the current address.');
    }
    if (!response.ok) throw new StewardRpcError('http_error', `Steward answered with HTTP ${response.status}.`);
    const envelope = RpcResponse.safeParse(await response.json().catch(() => undefined));
    if (!envelope.success) throw new StewardRpcError('bad_response', 'Steward sent a reply the panel does not understand.');
    const { error, result } = envelope.data;
    if (error) {
      const data = ErrorData.safeParse(error.data);
      const code = data.success ? data.data.code : 'internal';
      const details = data.success ? data.data.details : undefined;
      throw new StewardRpcError(code, error.message, { rpcCode: error.code, ...(details ? { details } : {}) });
    }
    return result;
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    set.add(listener);
    this.#listeners.set(event, set);
    this.#ensureStream();
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(event);
      if (this.#listeners.size === 0) this.#stopStream();
    };
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    this.#connectionListeners.add(listener);
    listener(this.#state);
    return () => this.#connectionListeners.delete(listener);
  }

  #setState(state: ConnectionState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const listener of [...this.#connectionListeners]) listener(state);
  }

  #unauthorized(): void {
    // The token was rotated (or is another install's): the stored one can never work again.
    forgetToken(this.#token);
    this.#stopStream();
    this.#setState('unauthorized');
  }

  #dispatch(message: EventSourceMessage): void {
    if (message.event === undefined) return;
    const listeners = this.#listeners.get(message.event);
    if (!listeners) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message.data);
    } catch {
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(payload);
      } catch {
        // One faulty view must not stop the others from hearing the event.
      }
    }
  }

  #ensureStream(): void {
    if (this.#stream || this.#state === 'unauthorized') return;
    const control = new AbortController();
    this.#stream = control;
    void this.#runStream(control.signal);
  }

  #stopStream(): void {
    this.#stream?.abort();
    this.#stream = undefined;
  }

  async #runStream(signal: AbortSignal): Promise<void> {
    let delay = BACKOFF_MIN_MS;
    while (!signal.aborted) {
      const outcome = await this.#readStreamOnce(signal);
      if (outcome === 'unauthorized') return this.#unauthorized();
      if (signal.aborted) return;
      if (outcome === 'opened') delay = BACKOFF_MIN_MS;
      this.#setState('reconnecting');
      await sleep(delay + Math.random() * delay * 0.25, signal);
      delay = Math.min(delay * 2, BACKOFF_MAX_MS);
    }
  }

  /** One connection to `/events`, read until it ends; says whether it ever opened. */
  async #readStreamOnce(outer: AbortSignal): Promise<'opened' | 'failed' | 'unauthorized'> {
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    outer.addEventListener('abort', abortAttempt, { once: true });
    let silence = setTimeout(abortAttempt, STREAM_SILENCE_MS);
    let opened = false;
    try {
      const response = await fetch(this.#eventsUrl, {
        headers: { authorization: `Bearer ${this.#token}`, accept: 'text/event-stream' },
        cache: 'no-store',
        credentials: 'omit',
        signal: attempt.signal,
      });
      if (response.status === 401) return 'unauthorized';
      if (!response.ok || !response.body) return 'failed';
      opened = true;
      this.#setState('open');
      const parser = createParser({ onEvent: (message) => this.#dispatch(message) });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        clearTimeout(silence);
        silence = setTimeout(abortAttempt, STREAM_SILENCE_MS);
        parser.feed(value);
      }
      return 'opened';
    } catch {
      return opened ? 'opened' : 'failed';
    } finally {
      clearTimeout(silence);
      outer.removeEventListener('abort', abortAttempt);
    }
  }
}
