import type { EventPayload, Result, StewardClient, StewardTransport } from '../../core/api/index.js';

export type { StewardClient } from '../../core/api/index.js';

/**
 * The contract, typed, on top of any transport. core/api's `typedClient` is a value and the panel may
 * import only types from core, so the panel keeps these few lines and takes the client's type from core.
 */
export function createClient(transport: StewardTransport): StewardClient {
  return {
    // The owner validated every result against the contract before sending it.
    call: (method, params) => transport.call(method, params) as Promise<never>,
    on: (event, listener) => transport.on(event, listener as (payload: unknown) => void),
  };
}

export type AppInfo = Result<'App.Info'>;
export type AppStatus = EventPayload<'app.status'>;
export type { StatusItem, StatusState, StatusPlace } from '../../core/api/index.js';
