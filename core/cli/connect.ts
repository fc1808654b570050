import { request } from 'node:http';
import { z } from 'zod';
import { StewardError, contractFingerprint, isErrorCode, typedClient, type StewardClient, type StewardTransport } from '../api/index.js';
import { resolveHome, stewardVersion, type StewardHome } from '../config/index.js';
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

/** Which build a Steward is: its package version, and its contract (two builds of one version may differ in it). */
interface Build {
  version: string;
  /** Absent from an owner older than App.Info's `contract`: another build by definition. */
  contract?: string | undefined;
}

const OwnerBuild = z.object({ version: z.string(), contract: z.string().optional() });

/** The refusals an owner of an older or newer contract gives a call it does not know: a key, a word, a method. */
const CONTRACT_REFUSALS: ReadonlySet<string> = new Set(['invalid_params', 'method_not_found']);

/** -1, 0 or 1 as version `a` is older than, the same as or newer than `b` (major.minor.patch; a pre-release tag counts as the same). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.+-]/, 3).map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

/**
 * What the person reads when an owner of another build refused a call: that the refusal is the owner's
 * age, not their command, and what to do (README: `steward stop`, then the app or `steward serve`).
 */
function otherBuildWords(owner: Build, cli: Build): string {
  const restart = 'restart it (`steward stop`, then open the app or run `steward serve`) and try again.';
  const order = compareVersions(owner.version, cli.version);
  if (order < 0) return `The running Steward (version ${owner.version}) is older than this command (version ${cli.version}): ${restart}`;
  if (order > 0) return `The running Steward (version ${owner.version}) is newer than this command (version ${cli.version}): update this steward command, or ${restart}`;
  return `The running Steward (version ${owner.version}) is another build than this command: ${restart}`;
}

/**
 * A refusal explained when the owner is another build: its contract may simply not know what this
 * command sends (a key added since, such as `geminiFolders`), which a restart fixes. Asked only after a
 * refusal, so a verb that works costs no extra round trip; an owner of this same build, or one that
 * cannot say what it is, leaves the refusal as it was.
 */
async function explainRefusal(refusal: StewardError, askOwner: () => Promise<unknown>): Promise<StewardError> {
  if (!CONTRACT_REFUSALS.has(refusal.code)) return refusal;
  const answer = OwnerBuild.safeParse(await askOwner().catch(() => undefined));
  if (!answer.success) return refusal;
  const owner: Build = answer.data;
  const cli: Build = { version: stewardVersion(), contract: contractFingerprint() };
  if (owner.version === cli.version && owner.contract === cli.contract) return refusal;
  const ownerMismatch = { refused: refusal.code, refusal: refusal.message, owner: { version: owner.version, contract: owner.contract ?? null }, cli };
  return new StewardError('unsupported', otherBuildWords(owner, cli), { ...refusal.details, ownerMismatch });
}

/** A client of a running owner over its loopback endpoint. */
export function httpTransport(daemon: DaemonInfo): StewardTransport {
  let nextId = 1;
  async function rpc(method: string, params: unknown): Promise<unknown> {
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
  }
  return {
    async call(method, params) {
      try {
        return await rpc(method, params);
      } catch (error) {
        throw error instanceof StewardError ? await explainRefusal(error, () => rpc('App.Info', {})) : error;
      }
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
export async function connect(home: StewardHome = resolveHome(), env: NodeJS.ProcessEnv = process.env, verb?: string): Promise<Connection> {
  const daemon = readDaemonInfo(home.dir);
  if (daemon && lockOwnerPid(home.dir) === daemon.pid) {
    return { transport: httpTransport(daemon), via: 'owner', panelUrl: panelUrlOf(daemon), close: async () => undefined };
  }
  const { Core } = await import('../core.js');
  const core = Core.open({ home, env, logToStderr: false, ...(verb ? { lockVerb: verb } : {}) });
  return {
    via: 'in-process',
    transport: {
      call: (method, params) => core.call(method, params, { transport: 'in-process' }),
      on: (event, listener) => core.events.subscribe((name, payload) => name === event && listener(payload)),
    },
    close: () => core.shutdown(),
  };
}

/**
 * Runs one verb against the owner (or in-process), always closing what it opened. `verb`: what the
 * lock names when this process holds it (see acquireOwnerLock).
 */
export async function withClient<T>(io: { env: NodeJS.ProcessEnv }, use: (client: StewardClient, via: Connection['via'], connection: Connection) => Promise<T>, verb?: string): Promise<T> {
  const connection = await connect(resolveHome(io.env), io.env, verb);
  try {
    return await use(typedClient(connection.transport), connection.via, connection);
  } finally {
    await connection.close();
  }
}
