import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { ProjectSummary, StewardClient } from '../../../core/api/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import type { WithClient } from '../../../core/mcp/projects.js';

// list_projects pages by the (last activity, key) its cursor holds: a project forgotten, active again or
// created between pages never repeats the page before nor hides the rest (attack-mcp-5).

const project = (i: number, at: number | null): ProjectSummary =>
  ({ projectKey: `p_000000000000000${i}`, name: `p${i}`, cwd: `/work/p${i}`, repoBacked: false, lastActivityAt: at, sessions: 1 }) as unknown as ProjectSummary;

/** An MCP client whose owner lists `projects()` as it is at each call. */
async function listing(projects: () => ProjectSummary[]): Promise<Client> {
  const owner = { call: (method: string) => Promise.resolve(method === 'Projects.List' ? { projects: projects() } : {}) } as unknown as StewardClient;
  const reach: WithClient = (use) => use(owner);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(reach, { home: '/home/ada', stewardHome: '/home/ada/.steward' }).connect(serverSide);
  const client = new Client({ name: 'keyset-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

type Page = { structuredContent?: { projects: Array<{ name: string }>; next_cursor: string | null }; isError?: boolean };
const names = (r: Page) => r.structuredContent!.projects.map((p) => p.name);

/** p0 oldest … p5 newest, one minute apart. */
const six = () => Array.from({ length: 6 }, (_, i) => project(i, 1_000_000 + i * 60_000));

describe('list_projects cursor across changes between pages', () => {
  it('the cursor’s project forgotten: the next page goes on after it', async () => {
    let now = six();
    const client = await listing(() => now);
    try {
      const first = (await client.callTool({ name: 'list_projects', arguments: { limit: 2 } })) as Page;
      expect(names(first)).toEqual(['p5', 'p4']);
      now = now.filter((p) => p.name !== 'p4');
      const second = (await client.callTool({ name: 'list_projects', arguments: { limit: 2, cursor: first.structuredContent!.next_cursor } })) as Page;
      expect(names(second)).toEqual(['p3', 'p2']);
    } finally {
      await client.close();
    }
  });

  it('the cursor’s project active again: the next page repeats none of the first', async () => {
    let now = six();
    const client = await listing(() => now);
    try {
      const first = (await client.callTool({ name: 'list_projects', arguments: { limit: 2 } })) as Page;
      now = now.map((p) => (p.name === 'p4' ? { ...p, lastActivityAt: 9_000_000 } : p));
      const second = (await client.callTool({ name: 'list_projects', arguments: { limit: 2, cursor: first.structuredContent!.next_cursor } })) as Page;
      expect(names(second)).toEqual(['p3', 'p2']);
    } finally {
      await client.close();
    }
  });

  it('a never-active project’s cursor, forgotten: only never-active projects after its key follow', async () => {
    const now = [...six(), project(7, null), project(8, null)];
    const client = await listing(() => now);
    try {
      const cursor = Buffer.from(JSON.stringify([null, 'p_0000000000000007z'])).toString('base64url');
      const r = (await client.callTool({ name: 'list_projects', arguments: { limit: 5, cursor } })) as Page;
      expect(names(r)).toEqual(['p8']);
    } finally {
      await client.close();
    }
  });

  it('projects with the same last activity page by key, each once', async () => {
    const now = Array.from({ length: 5 }, (_, i) => project(i, 5_000)).reverse();
    const client = await listing(() => now);
    try {
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const r = (await client.callTool({ name: 'list_projects', arguments: { limit: 2, ...(cursor ? { cursor } : {}) } })) as Page;
        seen.push(...names(r));
        cursor = r.structuredContent!.next_cursor;
      } while (cursor);
      expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    } finally {
      await client.close();
    }
  });
});
