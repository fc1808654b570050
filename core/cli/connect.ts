import { request } from 'node:http';
import { z } from 'zod';
import { StewardError, isErrorCode, typedClient, type StewardClient, type StewardTransport } from '../api/index.js';
import { resolveHome, type StewardHome } from '../config/index.js';
import { readDaemonInfo, type DaemonInfo } from '../server/daemon/index.js';
import { lockOwnerPid } from '../store/lock/index.js';

const RpcReply = z.object({
  result: z.unknown().optional(),
  error: z
    .object({
      code: z.number(),
      message: z.string(),
      data: z.object({ code: z.unknown().optional(), details: z.record(z.string(), z.unknown()).optional() }).optional(),
    })
    .optional(),
});

/**
 * One POST to the owner's /rpc. Plain node:http rather than fetch: fetch gives up on a reply after
 * five minutes, and a backfill through the owner may honestly take longer. A dead owner still fails
 * fast, because its socket closes.
 */
function post(daemon: DaemonInfo, body: string): Promise<{ status: number; text: string }> {
  const url = new URL('rpc', daemon.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${daemon.token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A client of a running owner over its loopback endpoint. */
export function httpTransport(daemon: DaemonInfo): StewardTransport {
  let nextId = 1;
  return {
    async call(method, params) {
      let response: { status: number; text: string };
      try {
        response = await post(daemon, JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }));
      } catch (error) {
        const { errorCode } = await import('../log/index.js');
        throw new StewardError('internal', `The running Steward did not answer (${errorCode(error)}); is it still running?`);
      }
      if (response.status !== 200) throw new StewardError('internal', `The running Steward refused the request (HTTP ${response.status})`);
      let parsed: ReturnType<typeof RpcReply.safeParse>;
      try {
        parsed = RpcReply.safeParse(JSON.parse(response.text));
      } catch {
        throw new StewardError('internal', 'The running Steward sent a reply that is not JSON-RPC');
      }
      if (!parsed.success) throw new StewardError('internal', 'The running Steward sent a reply that is not JSON-RPC');
      const { error, result } = parsed.data;
      if (error) {
        const code = error.data?.code;
        throw new StewardError(isErrorCode(code) ? code : 'internal', error.message, error.data?.details);
      }
      return result;
    },
    on() {
      return () => undefined;
    },
  };
}

export interface Connection {
  transport: StewardTransport;
  /** 'owner' when a running app or daemon answered; 'in-process' when the CLI opened the stores itself. */
  via: 'owner' | 'in-process';
  /** The owner's panel address with its token, when an owner answered. */
  panelUrl?: string;
  close(): Promise<void>;
}

/** The address an owner advertises, with its token in the fragment (which browsers never send). */
export function panelUrlOf(daemon: DaemonInfo): string {
  return `${daemon.url}#token=${daemon.token}`;
}

/**
 * Reaches the owner named in daemon.json when one runs; otherwise opens the Core in-process under
 * the same single-owner lock, so two writers never share the stores. Finding the owner reads two
 * small files (daemon.json and the lock, through their light sub-rooms); the stores and the Core
 * load only when no owner answers: a verb served by the owner never loads them.
 */
export async function connect(home: StewardHome = resolveHome(), env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  const daemon = readDaemonInfo(home.dir);
  if (daemon && lockOwnerPid(home.dir) === daemon.pid) {
    return { transport: httpTransport(daemon), via: 'owner', panelUrl: panelUrlOf(daemon), close: async () => undefined };
  }
  const { Core } = await import('../core.js');
  const core = Core.open({ home, env, logToStderr: false });
  return {
    via: 'in-process',
    transport: {
      call: (method, params) => core.call(method, params, { transport: 'in-process' }),
      on: (event, listener) => core.events.subscribe((name, payload) => name === event && listener(payload)),
    },
    close: () => core.shutdown(),
  };
}

/** Runs one verb against the owner (or in-process), always closing what it opened. */
export async function withClient<T>(io: { env: NodeJS.ProcessEnv }, use: (client: StewardClient, via: Connection['via'], connection: Connection) => Promise<T>): Promise<T> {
  const connection = await connect(resolveHome(io.env), io.env);
  try {
    return await use(typedClient(connection.transport), connection.via, connection);
  } finally {
    await connection.close();
  }
}
