import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { stewardVersion } from '../config/index.js';
import { registerMaintenanceTools } from './maintenance.js';
import { registerProjectTools, type WithClient } from './projects.js';
import { registerRepositoryTools } from './repository.js';

/**
 * Steward's MCP server. Each tool reaches the owner through `withClient` (the running app or daemon,
 * or the stores in-process for the length of one call), so an agent session never holds the lock.
 * Other rooms add their tools beside registerProjectTools.
 */
export function createMcpServer(withClient: WithClient): McpServer {
  const server = new McpServer({ name: 'steward', version: stewardVersion() });
  registerProjectTools(server, withClient);
  registerMaintenanceTools(server, withClient);
  registerRepositoryTools(server, withClient);
  return server;
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
