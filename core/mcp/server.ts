import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { toStewardError } from '../api/index.js';
import { resolveHome, stewardVersion } from '../config/index.js';
import { registerHistoryTools } from './history.js';
import { userHomeDir } from '../projects/index.js';
import { registerMaintenanceTools } from './maintenance.js';
import { registerProjectTools, type WithClient } from './projects.js';
import { registerSetupTools, type PlanHere } from './setup.js';
import { registerRepositoryTools } from './repository.js';
import { stewardMcpServer } from './tools.js';

/**
 * Steward's MCP server. Each tool reaches the owner through `withClient` (the running app or daemon,
 * or the stores in-process for the length of one call), so an agent session never holds the lock.
 * Other rooms add their tools beside registerProjectTools, each with defineTool (tools.ts).
 */
export function createMcpServer(reach: WithClient, options: { home?: string; stewardHome?: string; planHere?: PlanHere } = {}): McpServer {
  const server = stewardMcpServer({ name: 'steward', version: stewardVersion() });
  const withClient = agentSafe(reach);
  // `home` is the user's home folder, which never stands for a project (tests pass their own).
  // `stewardHome` is where the notes live, read as the session-start hook reads them.
  registerProjectTools(server, withClient, { home: options.home ?? userHomeDir(), stewardHome: options.stewardHome ?? resolveHome().dir });
  registerMaintenanceTools(server, withClient);
  registerSetupTools(server, withClient, options.planHere);
  registerRepositoryTools(server, withClient);
  registerHistoryTools(server, withClient);
  return server;
}

/**
 * The SDK hands a thrown error's message to the agent as it is, and a foreign one (a filesystem or
 * SQLite error) can name Steward's files; only the contract's own errors keep their words.
 */
function agentSafe(reach: WithClient): WithClient {
  return async (use) => {
    try {
      return await reach(use);
    } catch (error) {
      throw toStewardError(error);
    }
  };
}

/** JSON-RPC's answers to a line that is not a request: no id can be read from it, so the id is null. */
const PARSE_ERROR = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
const INVALID_REQUEST = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };

/**
 * The SDK's stdio transport hands a line it cannot read to `onerror` and drops it, so a client that sent
 * a cut-off object waits forever. JSON-RPC answers it: a parse error (not JSON) or an invalid request
 * (JSON, but no JSON-RPC message). Set before connect, which chains the protocol's own handler after it
 * (a line can arrive as soon as the transport starts); the next line is read as usual.
 */
function answerUnreadableLines(transport: StdioServerTransport): void {
  transport.onerror = (error) => {
    const answer = error instanceof SyntaxError ? PARSE_ERROR : error.name === 'ZodError' ? INVALID_REQUEST : null;
    // Typed as the SDK's messages, whose ids are never null: this answer is the one JSON-RPC gives an unknown id.
    if (answer) void transport.send(answer as unknown as JSONRPCMessage);
  };
}

/** Serves on stdio until the client closes the pipe. stdout is the protocol: nothing else writes there. */
export async function serveStdio(server: McpServer, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<void> {
  const stdin = streams.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, streams.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdin.once('end', () => resolve());
  });
  answerUnreadableLines(transport);
  await server.connect(transport);
  await closed;
  await server.close();
}
