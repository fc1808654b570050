import type { EventName, EventPayload, MethodName, Params, Result } from './contract.js';

/**
 * What every transport provides: the Electron preload (`window.steward`), the HTTP client of
 * headless mode, and the in-process client of the CLI all have this one shape.
 */
export interface StewardTransport {
  call(method: string, params: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export interface StewardClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** Types a raw transport; the owner validated every result against the contract already. */
export function typedClient(transport: StewardTransport): StewardClient {
  return {
    call: (method, params) => transport.call(method, params) as Promise<never>,
    on: (event, listener) => transport.on(event, listener as (payload: unknown) => void),
  };
}

/** The shape of a JSON-RPC error's `data` on every transport. */
export interface RpcErrorData {
  code: string;
  details?: Record<string, unknown>;
}
