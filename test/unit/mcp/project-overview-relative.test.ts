import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { StewardClient } from '../../../core/api/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import type { WithClient } from '../../../core/mcp/projects.js';

const ORCHARD = { projectKey: 'p_00000000aaaaaaaa', name: 'orchard', cwd: '/home/ada/work/orchard', repoBacked: false, lastActivityAt: null, sessions: 1 };

/** An MCP client of a server whose owner knows the orchard project; `asked` records what reached it. */
async function serverKnowingOrchard(asked: string[]): Promise<Client> {
  const owner = {
    call: (method: string) => {
      asked.push(method);
      return Promise.resolve(method === 'Projects.List' ? { projects: [ORCHARD] } : {});
    },
  } as unknown as StewardClient;
  const reach: WithClient = (use) => use(owner);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(reach, { home: '/home/ada', stewardHome: '/home/ada/.steward' }).connect(serverSide);
  const client = new Client({ name: 'overview-relative-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');

describe('project_overview with a relative cwd', () => {
  it('is refused as invalid input asking for an absolute folder, as other tools refuse theirs, before Steward is asked', async () => {
    const asked: string[] = [];
    const client = await serverKnowingOrchard(asked);
    try {
      // `\\foo` is relative outside Windows: rooted on no drive.
      for (const cwd of ['relative/path', 'work/orchard', '.', '../orchard', '\\foo']) {
        const result = await client.callTool({ name: 'project_overview', arguments: { cwd } });
        expect(result.isError, cwd).toBe(true);
        expect(text(result)).toMatch(/Input validation error: Invalid arguments for tool project_overview/);
        expect(text(result)).toMatch(/absolute folder/);
        expect(text(result)).not.toContain('knows no project');
      }
      expect(asked).toEqual([]);
      // A Windows folder is absolute wherever Steward runs (its transcripts may have been read here): asked, not refused.
      const windows = await client.callTool({ name: 'project_overview', arguments: { cwd: 'C:\\Users\\ada\\orchard' } });
      expect(text(windows)).not.toMatch(/Input validation error/);
      expect(asked).toEqual(['Projects.List']);
      // The same tool, the same kind of refusal, as search_transcripts gives a date it cannot read.
      const search = await client.callTool({ name: 'search_transcripts', arguments: { query: 'apple', from: 'last week' } });
      expect(text(search)).toMatch(/Input validation error: Invalid arguments for tool search_transcripts/);
    } finally {
      await client.close();
    }
  });
});
