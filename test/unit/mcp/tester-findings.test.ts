import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { ProjectSummary, StewardClient } from '../../../core/api/index.js';
import { createMcpServer, serveStdio } from '../../../core/mcp/index.js';
import { z } from 'zod';
import { checkedAnswer } from '../../../core/mcp/answers.js';
import type { WithClient } from '../../../core/mcp/projects.js';

/** An MCP client of a server whose owner answers `answer(method, params)`. */
async function serverAnswering(answer: (method: string, params: unknown) => unknown): Promise<Client> {
  const owner = { call: (method: string, params: unknown) => Promise.resolve(answer(method, params)) } as unknown as StewardClient;
  const reach: WithClient = (use) => use(owner);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(reach, { home: '/home/ada', stewardHome: '/home/ada/.steward' }).connect(serverSide);
  const client = new Client({ name: 'findings-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');

describe('tools/list', () => {
  // Its size is held by tools-list-budget.test.ts, measured as served.
  it('stays small, each argument still typed and described', async () => {
    const client = await serverAnswering(() => ({}));
    try {
      const { tools } = await client.listTools();
      const search = tools.find((t) => t.name === 'search_transcripts')!;
      const properties = search.inputSchema.properties as Record<string, { type?: string; description?: string }>;
      expect(properties.from?.type).toBe('string');
      expect(properties.from?.description).toMatch(/7d/);
      expect(tools.find((t) => t.name === 'get_session')!.inputSchema.required).toEqual(['session_id']);
      for (const t of tools) expect(t.description, t.name).toBeTruthy();
    } finally {
      await client.close();
    }
  });

  it('still refuses an answer off its declared shape, though the shape is not listed', async () => {
    const leaky = checkedAnswer('leaky', z.strictObject({ name: z.string() }), (extra: Record<string, unknown>) => Promise.resolve({ content: [], structuredContent: { name: 'x', ...extra } }));
    await expect(leaky({})).resolves.toMatchObject({ structuredContent: { name: 'x' } });
    await expect(leaky({ path: '/home/ada/.steward' })).rejects.toThrow(/Output validation error: Invalid structured content for tool leaky/);
  });
});

describe('search_transcripts dates', () => {
  it('takes a span back from now (7d, 12h), as the CLI does', async () => {
    const asked: Array<Record<string, unknown>> = [];
    const client = await serverAnswering((method, params) => {
      if (method !== 'Search.Query') return {};
      asked.push(params as Record<string, unknown>);
      const hit = { sessionId: 's1', partId: 'p1', projectKey: null, provider: 'claude', ts: 0, role: 'user', kind: 'text', genuineUserTurn: true, toolName: null, snippet: 'apple' };
      return asked.length === 1 ? { hits: [], sessions: [] } : { hits: [hit], sessions: [], cursor: 'next' };
    });
    try {
      const before = Date.now();
      const result = await client.callTool({ name: 'search_transcripts', arguments: { query: 'apple', from: '7d', to: '12h' } });
      expect(result.isError, text(result)).toBeFalsy();
      const from = asked[0]!.from as number;
      const to = asked[0]!.to as number;
      expect(Math.abs(from - (before - 7 * 86_400_000))).toBeLessThan(60_000);
      expect(Math.abs(to - (before - 12 * 3_600_000))).toBeLessThan(60_000);
      // A span names a later instant on the next call: the next page is asked for with the instant it meant.
      const paged = await client.callTool({ name: 'search_transcripts', arguments: { query: 'apple', from: '7d', to: '2026-11-29' } });
      // The cursor carries the instant too, so repeating `7d` with it asks for the same one (qa45m-findings).
      const pinnedCursor = `next~f7d@${asked[1]!.from as number}`;
      expect(text(paged)).toContain(`More results: call again with the same arguments and cursor "${pinnedCursor}" (from stays at "${new Date(asked[1]!.from as number).toISOString()}")`);
      expect(paged.structuredContent).toMatchObject({ cursor: pinnedCursor, pinned: { from: new Date(asked[1]!.from as number).toISOString() } });
      const refused = await client.callTool({ name: 'search_transcripts', arguments: { query: 'apple', from: 'last week' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/7d/);
    } finally {
      await client.close();
    }
  });
});

describe('list_projects', () => {
  it('says a Gemini project whose folder is unknown once, not as its name and again as its folder', async () => {
    const label = 'Gemini CLI project 1a2b3c4d (folder unknown)';
    const projects = [
      { projectKey: 'p_1a2b3c4d00000000', name: label, cwd: label, repoBacked: false, lastActivityAt: null, sessions: 1 },
      { projectKey: 'p_00000000aaaaaaaa', name: 'app', cwd: '/work/app', repoBacked: false, lastActivityAt: null, sessions: 1 },
    ] as unknown as ProjectSummary[];
    const client = await serverAnswering(() => ({ projects }));
    try {
      const lines = text(await client.callTool({ name: 'list_projects', arguments: {} })).split('\n');
      // Never active, both: in key order, as Projects.List gives them.
      expect(lines).toEqual(['app (p_00000000aaaaaaaa) — /work/app · 1 session', `${label} (p_1a2b3c4d00000000) · 1 session`]);
    } finally {
      await client.close();
    }
  });
});

/** A project the owner knows, for project_overview. */
const ORCHARD = { projectKey: 'p_00000000aaaaaaaa', name: 'orchard', cwd: '/home/ada/work/orchard', repoBacked: false, lastActivityAt: null, sessions: 1 };

describe('project_overview with a relative cwd', () => {
  it('is refused as invalid input asking for an absolute folder, as other tools refuse theirs, before Steward is asked', async () => {
    const asked: string[] = [];
    const client = await serverAnswering((method) => {
      asked.push(method);
      return method === 'Projects.List' ? { projects: [ORCHARD] } : {};
    });
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
      // A folder no project holds also asks whether the person forgot the one that did.
      expect(asked).toEqual(['Projects.List', 'Forget.List']);
      // The same tool, the same kind of refusal, as search_transcripts gives a date it cannot read.
      const search = await client.callTool({ name: 'search_transcripts', arguments: { query: 'apple', from: 'last week' } });
      expect(text(search)).toMatch(/Input validation error: Invalid arguments for tool search_transcripts/);
    } finally {
      await client.close();
    }
  });
});

describe('a tool refusing its arguments', () => {
  /** zod's own words, as the SDK passes them on: "Invalid option: expected one of … at role", "Too small: expected number to be >=1". */
  const ZOD_OWN = /Invalid (input|option)|Too (small|big)|Unrecognized key|expected/;

  it('says which argument and what it takes, in the words JSON-RPC says a refused request in', async () => {
    const client = await serverAnswering(() => ({}));
    try {
      const role = await client.callTool({ name: 'search_transcripts', arguments: { query: 'apple', role: 'toolResult' } });
      expect(role.isError).toBe(true);
      expect(text(role)).toMatch(/Input validation error: Invalid arguments for tool search_transcripts: role must be one of user, assistant, system, tool$/);
      const limit = await client.callTool({ name: 'get_session', arguments: { session_id: 's1', limit: 0 } });
      expect(text(limit)).toMatch(/Invalid arguments for tool get_session: limit must be at least 1$/);
      const missing = await client.callTool({ name: 'get_session', arguments: {} });
      expect(text(missing)).toMatch(/Invalid arguments for tool get_session: session_id is missing$/);
      const extra = await client.callTool({ name: 'get_session', arguments: { session_id: 's1', page: 2 } });
      expect(text(extra)).toMatch(/Invalid arguments for tool get_session: page is not part of this request$/);
    } finally {
      await client.close();
    }
  });

  it('words every tool\'s refusal so, in one place: a list given for each one\'s first argument', async () => {
    const client = await serverAnswering(() => ({}));
    try {
      const { tools } = await client.listTools();
      const refused = tools.flatMap((t) => Object.keys(t.inputSchema.properties ?? {}).slice(0, 1).map((arg) => ({ tool: t.name, arg })));
      expect(refused.length).toBeGreaterThan(5);
      for (const { tool, arg } of refused) {
        const result = await client.callTool({ name: tool, arguments: { [arg]: [[1]] } });
        expect(result.isError, tool).toBe(true);
        expect(text(result), tool).toContain(`Invalid arguments for tool ${tool}: `);
        expect(text(result), tool).toContain(arg);
        expect(text(result), tool).not.toMatch(ZOD_OWN);
      }
    } finally {
      await client.close();
    }
  });
});

describe('MCP over stdio', () => {
  it('answers a line that is not JSON with a parse error, and still answers the calls after it', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const served = serveStdio(createMcpServer(() => Promise.reject(new Error('unused')), { home: '/home/ada' }), { stdin, stdout });
    const lines = async (n: number) => {
      for (let i = 0; i < 100 && out.split('\n').filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 10));
      return out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    stdin.write('this is not json\n');
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"initia\n');
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`);
    const got = await lines(3);
    stdin.end();
    await served;
    const parseError = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    expect(got.slice(0, 2)).toEqual([parseError, parseError]);
    expect(got[2]).toMatchObject({ jsonrpc: '2.0', id: 2, result: { serverInfo: { name: 'steward' } } });
  });
});
