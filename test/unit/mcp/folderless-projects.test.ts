import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { ProjectSummary, StewardClient } from '../../../core/api/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import type { WithClient } from '../../../core/mcp/projects.js';

// A project whose cwd names no folder (Gemini CLI's folder-unknown projects, Claude Desktop's project
// with no folder, "Gemini CLI") is given to an agent with `cwd: null`, its name kept: a label where a
// folder belongs was passed on to project_overview and refused (QA session 42).

async function serverAnswering(answer: (method: string, params: unknown) => unknown): Promise<Client> {
  const owner = { call: (method: string, params: unknown) => Promise.resolve(answer(method, params)) } as unknown as StewardClient;
  const reach: WithClient = (use) => use(owner);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(reach, { home: '/home/ada', stewardHome: '/home/ada/.steward' }).connect(serverSide);
  const client = new Client({ name: 'folderless-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

const project = (projectKey: string, name: string, cwd: string) => ({ projectKey, name, cwd, repoId: null, repoBacked: false, lastActivityAt: null, sessions: 1 });
const UNKNOWN = 'Gemini CLI project 1a2b3c4d (folder unknown)';
const PROJECTS = [
  project('p_1a2b3c4d00000000', UNKNOWN, UNKNOWN),
  project('p_00000000bbbbbbbb', 'Claude Desktop', 'Claude Desktop'),
  project('p_00000000cccccccc', 'Gemini CLI', 'Gemini CLI'),
  project('p_00000000aaaaaaaa', 'orchard', '/home/ada/work/orchard'),
  project('p_00000000dddddddd', 'site', 'C:\\Users\\ada\\site'),
] as ProjectSummary[];

describe('list_projects, of projects whose cwd is no folder', () => {
  it('gives cwd null and keeps the name; a folder (POSIX or Windows) is given as it is', async () => {
    const client = await serverAnswering(() => ({ projects: PROJECTS }));
    try {
      const result = await client.callTool({ name: 'list_projects', arguments: {} });
      expect(result.isError).toBeFalsy();
      const listed = (result.structuredContent as { projects: Array<{ name: string; cwd: string | null }> }).projects;
      // Never active, all of them: in key order, as Projects.List gives them (a cursor names a place in it).
      expect(listed.map(({ name, cwd }) => ({ name, cwd }))).toEqual([
        { name: 'orchard', cwd: '/home/ada/work/orchard' },
        { name: 'Claude Desktop', cwd: null },
        { name: 'Gemini CLI', cwd: null },
        { name: 'site', cwd: 'C:\\Users\\ada\\site' },
        { name: UNKNOWN, cwd: null },
      ]);
      const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
      expect(text.split('\n')).toEqual([
        'orchard (p_00000000aaaaaaaa) — /home/ada/work/orchard · 1 session',
        'Claude Desktop (p_00000000bbbbbbbb) · 1 session',
        'Gemini CLI (p_00000000cccccccc) · 1 session',
        'site (p_00000000dddddddd) — C:\\Users\\ada\\site · 1 session',
        `${UNKNOWN} (p_1a2b3c4d00000000) · 1 session`,
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('project_overview, of a project whose cwd is no folder', () => {
  it('gives cwd null there too', async () => {
    // A folder inside the project answers with the project; the owner says its cwd is no folder.
    const desktop = project('p_00000000aaaaaaaa', 'orchard', '/home/ada/work/orchard');
    const client = await serverAnswering((method) =>
      method === 'Projects.List'
        ? { projects: [desktop] }
        : { ...desktop, cwd: 'Claude Desktop', overview: null, state: { lastSweepAt: null } },
    );
    try {
      const result = await client.callTool({ name: 'project_overview', arguments: { cwd: '/home/ada/work/orchard' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ name: 'orchard', cwd: null });
    } finally {
      await client.close();
    }
  });
});
