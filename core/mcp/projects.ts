import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { StewardClient } from '../api/index.js';
import { projectContaining } from '../projects/index.js';

export type WithClient = <T>(use: (client: StewardClient) => Promise<T>) => Promise<T>;

function text(value: string) {
  return [{ type: 'text' as const, text: value }];
}

/** `list_projects` and `project_overview`: the sweeper's notes as context for a new agent session. */
export function registerProjectTools(server: McpServer, withClient: WithClient, options: { home: string }): void {
  server.registerTool(
    'list_projects',
    {
      title: 'List projects',
      description: 'Projects (working directories) Steward has seen in your agent transcripts, newest activity first.',
      inputSchema: {},
      outputSchema: {
        projects: z.array(
          z.object({ projectKey: z.string(), name: z.string(), cwd: z.string(), repoBacked: z.boolean(), lastActivityAt: z.number().nullable(), sessions: z.number() }),
        ),
      },
    },
    async () => {
      const { projects } = await withClient((client) => client.call('Projects.List', {}));
      const out = { projects: projects.map(({ projectKey, name, cwd, repoBacked, lastActivityAt, sessions }) => ({ projectKey, name, cwd, repoBacked, lastActivityAt, sessions })) };
      const lines = out.projects.map((p) => `${p.name} (${p.projectKey}) — ${p.cwd}`);
      return { content: text(lines.length > 0 ? lines.join('\n') : 'No projects yet.'), structuredContent: out };
    },
  );
  server.registerTool(
    'project_overview',
    {
      title: 'Project overview',
      description:
        "The current OVERVIEW.md Steward keeps for the project containing `cwd` (the nearest project folder at or above it; a session started in / or the home folder itself answers for no folder): what the project is, its state, key decisions and next steps. Load it at the start of a session.",
      inputSchema: { cwd: z.string().min(1).describe('An absolute folder path, usually the current working directory') },
      outputSchema: { projectKey: z.string(), name: z.string(), cwd: z.string(), overview: z.string().nullable(), lastSweepAt: z.number().nullable() },
    },
    async ({ cwd }) =>
      withClient(async (client) => {
        const { projects } = await client.call('Projects.List', {});
        const project = projectContaining(projects, cwd, options);
        if (!project) return { isError: true, content: text('Steward knows no project containing that folder yet.') };
        const got = await client.call('Projects.Get', { projectKey: project.projectKey });
        const out = { projectKey: got.projectKey, name: got.name, cwd: got.cwd, overview: got.overview, lastSweepAt: got.state.lastSweepAt };
        const none = typeof got.state.notesStaleSince === 'number' ? `Steward's notes for ${got.name} are being rebuilt after a forget; none are shared until then.` : `No overview has been written for ${got.name} yet.`;
        return { content: text(got.overview ?? none), structuredContent: out };
      }),
  );
}
