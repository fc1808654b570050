import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { toStewardError } from '../api/index.js';
import { resolveHome, stewardVersion } from '../config/index.js';
import { registerHistoryTools } from './history.js';
import { userHomeDir } from '../projects/index.js';
import { registerMaintenanceTools } from './maintenance.js';
import { registerProjectTools, type WithClient } from './projects.js';
import { registerSetupTools, type PlanHere } from './setup.js';
import { registerRepositoryTools } from './repository.js';

/**
 * Steward's MCP server. Each tool reaches the owner through `withClient` (the running app or daemon,
 * or the stores in-process for the length of one call), so an agent session never holds the lock.
 * Other rooms add their tools beside registerProjectTools.
 */
export function createMcpServer(reach: WithClient, options: { home?: string; stewardHome?: string; planHere?: PlanHere } = {}): McpServer {
  const server = new McpServer({ name: 'steward', version: stewardVersion() });
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

/** Serves on stdio until the client closes the pipe. stdout is the protocol: nothing else writes there. */
export async function serveStdio(server: McpServer): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
