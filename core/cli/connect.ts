import { StewardError, isErrorCode, typedClient, type StewardClient, type StewardTransport } from '../api/index.js';
import { resolveHome, type StewardHome } from '../config/index.js';
import { Core } from '../core.js';
import { readDaemonInfo, type DaemonInfo } from '../server/index.js';
import { lockOwnerPid } from '../store/index.js';

interface RpcReply {
  result?: unknown;
  error?: { code: number; message: string; data?: { code?: unknown; details?: Record<string, unknown> } };
}

/** A client of a running owner over its loopback endpoint. */
export function httpTransport(daemon: DaemonInfo): StewardTransport {
  let nextId = 1;
  return {
    async call(method, params) {
      let response: Response;
      try {
        response = await fetch(new URL('rpc', daemon.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${daemon.token}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
        });
      } catch {
        throw new StewardError('internal', 'The running Steward did not answer; is it still running?');
      }
      if (!response.ok) throw new StewardError('internal', `The running Steward refused the request (HTTP ${response.status})`);
      const reply = (await response.json()) as RpcReply;
      if (reply.error) {
        const code = reply.error.data?.code;
        throw new StewardError(isErrorCode(code) ? code : 'internal', reply.error.message, reply.error.data?.details);
      }
      return reply.result;
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
  close(): Promise<void>;
}

/**
 * Reaches the owner named in daemon.json when one runs; otherwise opens the Core in-process under
 * the same single-owner lock, so two writers never share the stores.
 */
export function connect(home: StewardHome = resolveHome(), env: NodeJS.ProcessEnv = process.env): Connection {
  const daemon = readDaemonInfo(home.dir);
  if (daemon && lockOwnerPid(home.dir) === daemon.pid) {
    return { transport: httpTransport(daemon), via: 'owner', close: async () => undefined };
  }
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
export async function withClient<T>(io: { env: NodeJS.ProcessEnv }, use: (client: StewardClient, via: Connection['via']) => Promise<T>): Promise<T> {
  const connection = connect(resolveHome(io.env), io.env);
  try {
    return await use(typedClient(connection.transport), connection.via);
  } finally {
    await connection.close();
  }
}
