import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { EventBus } from '../api/index.js';
import { packageRoot } from '../config/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { checkDoor } from './door.js';
import { createRpcServer, handleRpcBody, type RpcTarget } from './rpc.js';
import { panelHandler } from './static.js';

const MAX_BODY_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

/** No inline script or style, no framing, no plugins, and data only from this origin. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface HttpServerOptions {
  target: RpcTarget;
  events: EventBus;
  /** 0 picks any free port; a taken preferred port moves on to the next free one. */
  port: number;
  /** Serve exactly this port or fail (used when the user passed --port explicitly). */
  strictPort?: boolean;
  rendererDir?: string;
  /** Where a request that failed outside the RPC handlers is logged (by its code). */
  logger?: Logger;
  /** The bearer token, asked on every request: it is per install and may be rotated while serving. */
  token: () => string;
}

export interface RunningHttpServer {
  port: number;
  /** The token the door accepts now. */
  readonly token: string;
  url: string;
  /** Ends every open event stream: after a rotation, a stream opened with the old token must not go on. */
  endStreams(): void;
  close(): Promise<void>;
}

export function defaultRendererDir(): string {
  return join(packageRoot(), 'dist', 'renderer');
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
}

async function listenNearby(server: Server, port: number, strict: boolean): Promise<number> {
  const attempts = port === 0 || strict ? 1 : 20;
  for (let i = 0; i < attempts; i += 1) {
    try {
      return await listen(server, port + i);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || i === attempts - 1) throw error;
    }
  }
  throw new Error('unreachable');
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The built panel: static files that carry no data, under the strict CSP; 503 when not built. */
function staticFiles(rendererDir: string, logger: Logger | undefined): Handler {
  const notBuilt: Handler = (_req, res) => send(res, 503, 'The control panel is not built: run `npm run build`.');
  let panel: Handler | undefined;
  try {
    panel = panelHandler(rendererDir, {
      logger,
      notFound: (res) => send(res, 404, 'Not found'),
      setHeaders(res) {
        res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader('referrer-policy', 'no-referrer');
        res.setHeader('x-frame-options', 'DENY');
        res.setHeader('cache-control', 'no-cache');
      },
    });
  } catch (error) {
    // An unreadable panel folder is a panel not built, never a reason for the owner not to start.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logger?.warn('the control panel folder cannot be read', { code: errorCode(error) });
  }
  return panel ?? notBuilt;
}

function rpcRoute(target: RpcTarget, logger: Logger | undefined): Handler {
  const rpc = createRpcServer(target, 'http');
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return send(res, 405, 'Use POST');
    const body = await readBody(req);
    if (body === undefined) return send(res, 413, 'Request too large');
    const response = await handleRpcBody(rpc, body);
    if (response === null) {
      res.writeHead(204, { 'cache-control': 'no-store' });
      return res.end();
    }
    send(res, 200, JSON.stringify(response), 'application/json');
  };
  return (req, res) =>
    void answer(req, res).catch((error: unknown) => {
      logger?.warn('rpc request failed', { code: errorCode(error) });
      if (!res.headersSent) send(res, 500, 'Internal error');
    });
}

/** Server-sent events; `streams` lets close() end them, since an open stream would hold the server. */
function eventsRoute(events: EventBus, streams: Set<ServerResponse>): Handler {
  return (req, res) => {
    if (req.method !== 'GET') return send(res, 405, 'Use GET');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(': steward events\n\n');
    streams.add(res);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const unsubscribe = events.subscribe((name, payload) => {
      res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    req.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    });
  };
}

/**
 * The loopback transport of headless mode (and of the Electron owner, for the CLI): the panel's
 * static files, `POST /rpc` and `GET /events`, all behind the door.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const streams = new Set<ServerResponse>();
  const routes: Record<string, Handler> = { '/rpc': rpcRoute(options.target, options.logger), '/events': eventsRoute(options.events, streams) };
  const panel = staticFiles(options.rendererDir ?? defaultRendererDir(), options.logger);
  let port = 0;

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    const verdict = checkDoor(req, port, options.token(), route !== undefined);
    if (!verdict.ok) return send(res, verdict.status, verdict.reason);
    if (route) return route(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed');
    panel(req, res);
  });
  server.keepAliveTimeout = 5_000;
  port = await listenNearby(server, options.port, options.strictPort ?? false);

  const endStreams = () => {
    for (const stream of streams) stream.end();
  };
  return {
    port,
    get token() {
      return options.token();
    },
    url: `http://127.0.0.1:${port}/`,
    endStreams,
    close: () =>
      new Promise<void>((resolve) => {
        endStreams();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

