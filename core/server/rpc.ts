import {
  createJSONRPCErrorResponse,
  JSONRPCErrorException,
  JSONRPCServer,
  type JSONRPCResponse,
} from 'json-rpc-2.0';
import { isMethodName, METHOD_NAMES, StewardError, toStewardError, type CallContext } from '../api/index.js';

export interface RpcTarget {
  call(method: string, params: unknown, ctx: CallContext): Promise<unknown>;
}

/** Maps a StewardError onto JSON-RPC's error object, carrying the typed code in `data.code`. */
export function toRpcError(error: unknown): JSONRPCErrorException {
  const typed = toStewardError(error);
  const data = typed.details ? { code: typed.code, details: typed.details } : { code: typed.code };
  return new JSONRPCErrorException(typed.message, typed.rpcCode, data);
}

/**
 * JSON-RPC 2.0 framing (batches, notifications, parse errors) comes from `json-rpc-2.0`; every
 * contract method is registered once and forwarded to the owner's dispatcher.
 */
export function createRpcServer(target: RpcTarget, transport: CallContext['transport'] = 'http'): JSONRPCServer {
  const server = new JSONRPCServer({ errorListener: () => undefined });
  for (const name of METHOD_NAMES) {
    server.addMethod(name, async (params: unknown) => {
      try {
        return await target.call(name, params ?? {}, { transport });
      } catch (error) {
        throw toRpcError(error);
      }
    });
  }
  server.applyMiddleware(async (next, request, serverParams) => {
    if (isMethodName(request.method)) return next(request, serverParams);
    if (request.id === undefined || request.id === null) return null;
    const error = new StewardError('method_not_found', `Unknown method ${JSON.stringify(String(request.method)).slice(0, 80)}`);
    return createJSONRPCErrorResponse(request.id, -32601, error.message, { code: error.code });
  });
  return server;
}

export async function handleRpcBody(server: JSONRPCServer, body: string): Promise<JSONRPCResponse | JSONRPCResponse[] | null> {
  return server.receiveJSON(body);
}
