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

/**
 * The answer to one POST body. A batch (a non-empty array) is answered with an array, however many of
 * its requests get an answer (JSON-RPC 2.0 §6): json-rpc-2.0 answers a batch holding one with that
 * answer alone, which a client matching a batch to an array cannot read. An empty batch keeps its one
 * Invalid Request object, and a batch of notifications no answer, as the spec says.
 */
export async function handleRpcBody(server: JSONRPCServer, body: string): Promise<JSONRPCResponse | JSONRPCResponse[] | null> {
  const response = await server.receiveJSON(body);
  if (response === null || Array.isArray(response) || !isBatch(body)) return response;
  return [response];
}

/** A body that is a JSON array with something in it (parsed again only for an answer that came back alone). */
function isBatch(body: string): boolean {
  if (!body.trimStart().startsWith('[')) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) && parsed.length > 0;
  } catch {
    return false;
  }
}
