import type { Command } from 'commander';
import { resolveHome } from '../../config/index.js';
import { withClient } from '../connect.js';
import { EXIT, type CliIo, type Run } from '../output.js';

/** `steward mcp`: the MCP server on stdio; logs go to stderr and the log file, never stdout. */
export function registerMcp(program: Command, io: CliIo, run: Run): void {
  program
    .command('mcp')
    .description('serve Steward to agents over MCP on stdio (tools: list_projects, project_overview, maintenance_status, maintenance_plan, enable_cache_maintenance, search_transcripts, get_session, search_repository)')
    .action(() =>
      run(async () => {
        const [{ createMcpServer, serveStdio }, { planHere }] = await Promise.all([import('../../mcp/index.js'), import('../plan-here.js')]);
        await serveStdio(createMcpServer((use) => withClient(io, use), { planHere: planHere(io.env), stewardHome: resolveHome(io.env).dir }));
        return EXIT.ok;
      }),
    );
}
