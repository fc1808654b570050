import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StewardError } from '../../../core/api/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { defineTool, stewardMcpServer } from '../../../core/mcp/tools.js';
import type { WithClient } from '../../../core/mcp/projects.js';

const STEWARD_FILE = '/home/ada/.steward/gateway.db';

/** An MCP client of a server whose every reach of the owner fails with `error`. */
async function failingServer(error: Error): Promise<Client> {
  const fail: WithClient = () => Promise.reject(error);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(fail, { home: '/home/ada' }).connect(serverSide);
  const client = new Client({ name: 'errors-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
}

describe('MCP tool errors', () => {
  it('never hand an agent the path a filesystem error names, only its code', async () => {
    const error = Object.assign(new Error(`EACCES: permission denied, open '${STEWARD_FILE}'`), { code: 'EACCES' });
    const client = await failingServer(error);
    try {
      for (const [name, args] of [
        ['search_transcripts', { query: 'apple' }],
        ['get_session', { session_id: 'abc' }],
        ['list_projects', {}],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        expect(text(result)).not.toContain(STEWARD_FILE);
        expect(text(result)).toContain('Internal error (EACCES)');
      }
    } finally {
      await client.close();
    }
  });

  it("keeps the contract's own error words", async () => {
    const client = await failingServer(new StewardError('not_found', 'No stored conversation has that id'));
    try {
      const result = await client.callTool({ name: 'get_session', arguments: { session_id: 'abc' } });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('No stored conversation has that id');
    } finally {
      await client.close();
    }
  });
});

describe('a call of a tool Steward does not have', () => {
  it('is refused in the form of every other tool error, naming the tools there are', async () => {
    const client = await failingServer(new Error('never reached'));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      const result = await client.callTool({ name: 'search_transcript', arguments: { query: 'apple' } });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(`method_not_found: Steward has no tool named "search_transcript"; its tools are ${new Intl.ListFormat('en-GB').format(names)}`);
    } finally {
      await client.close();
    }
  });
});

describe("Steward's MCP server", () => {
  it("is the SDK's McpServer as the SDK made it: no method of its patched on the instance", () => {
    const server = createMcpServer(() => Promise.reject(new Error('never reached')), { home: '/home/ada' });
    expect(server).toBeInstanceOf(McpServer);
    expect(Object.getOwnPropertyNames(server).filter((key) => typeof (server as unknown as Record<string, unknown>)[key] === 'function')).toEqual([]);
  });
});

describe('a tool as defineTool registers it', () => {
  it('is fixed once registered: no RegisteredTool is handed out whose rename, removal or new handler Steward’s calls would not follow', () => {
    const server = stewardMcpServer({ name: 'steward', version: '0' });
    expect(defineTool(server, 'echo', { inputSchema: { word: z.string() } }, ({ word }) => ({ content: [{ type: 'text' as const, text: word }] }))).toBeUndefined();
  });
});
