import type { EventName, EventPayload, MethodName, Params, Result, StewardTransport } from '../../core/api/index.js';

/**
 * The contract, typed, on top of any transport. (core/api's `typedClient` is a value and the panel
 * may import only types from core, so this is the same few lines on the panel's side.)
 */
export interface StewardClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function createClient(transport: StewardTransport): StewardClient {
  return {
    // The owner validated every result against the contract before sending it.
    call: (method, params) => transport.call(method, params) as Promise<never>,
    on: (event, listener) => transport.on(event, listener as (payload: unknown) => void),
  };
}

export type AppInfo = Result<'App.Info'>;
export type AppStatus = EventPayload<'app.status'>;
