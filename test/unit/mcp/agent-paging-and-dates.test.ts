import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { ProjectSummary, StewardClient } from '../../../core/api/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import type { WithClient } from '../../../core/mcp/projects.js';
import { claudeHistoryWithMcp, writeSubagentOrchard } from '../../support/mcp.js';

// Findings of an agent's QA of the MCP tools (qa45m): paging with a span, the subagent list on every
// page, genuine_user_turn false, the kinds a hit carries, a date's field, list_projects' times.

/** An MCP client of a server whose owner answers `answer(method, params)`. */
async function serverAnswering(answer: (method: string, params: Record<string, unknown>) => unknown): Promise<Client> {
  const owner = { call: (method: string, params: Record<string, unknown>) => Promise.resolve(answer(method, params)) } as unknown as StewardClient;
  const reach: WithClient = (use) => use(owner);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(reach, { home: '/home/ada', stewardHome: '/home/ada/.steward' }).connect(serverSide);
  const client = new Client({ name: 'qa45m-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
const HIT = { sessionId: 's1', partId: 'p1', projectKey: null, provider: 'claude', ts: 0, role: 'user', kind: 'text', genuineUserTurn: true, toolName: null, snippet: 'sink' };

/** A fake search that gives out `page-N` cursors and, as the real one, refuses a cursor with other dates. */
function pagingSearch(asked: Array<Record<string, unknown>>) {
  return (method: string, params: Record<string, unknown>) => {
    if (method !== 'Search.Query') return {};
    asked.push(params);
    if (params.cursor !== undefined && (asked[0]!.from !== params.from || asked[0]!.to !== params.to)) throw new Error('The cursor belongs to another search; start again without it');
    return { hits: [HIT], sessions: [], cursor: `page${asked.length}` };
  };
}

describe('search_transcripts paged with a span (from "100d")', () => {
  it('takes the same arguments again with the cursor: the span stays at the instant the first page meant', async () => {
    const asked: Array<Record<string, unknown>> = [];
    const client = await serverAnswering(pagingSearch(asked));
    try {
      const args = { query: 'sink', from: '100d', limit: 2 };
      const first = await client.callTool({ name: 'search_transcripts', arguments: args });
      const cursor = (first.structuredContent as { cursor: string }).cursor;
      expect(text(first)).toContain(`call again with the same arguments and cursor "${cursor}"`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await client.callTool({ name: 'search_transcripts', arguments: { ...args, cursor } });
      expect(second.isError, text(second)).toBeFalsy();
      // The owner is asked with its own cursor and the first page's instant.
      expect(asked[1]).toMatchObject({ cursor: 'page1', from: asked[0]!.from });
      // The third page too, from the second's cursor.
      const third = await client.callTool({ name: 'search_transcripts', arguments: { ...args, cursor: (second.structuredContent as { cursor: string }).cursor } });
      expect(third.isError, text(third)).toBeFalsy();
      expect(asked[2]).toMatchObject({ cursor: 'page2', from: asked[0]!.from });
      // The instant the text names works as well.
      const pinned = (first.structuredContent as { pinned: { from: string } }).pinned.from;
      expect(Date.parse(pinned)).toBe(asked[0]!.from);
      const named = await client.callTool({ name: 'search_transcripts', arguments: { ...args, from: pinned, cursor } });
      expect(named.isError, text(named)).toBeFalsy();
      expect(asked[3]).toMatchObject({ cursor: 'page1', from: asked[0]!.from });
    } finally {
      await client.close();
    }
  });

  it('still refuses a cursor with another date, or another span, or a pin it did not give out', async () => {
    const asked: Array<Record<string, unknown>> = [];
    const client = await serverAnswering(pagingSearch(asked));
    try {
      const first = await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', from: '100d' } });
      const cursor = (first.structuredContent as { cursor: string }).cursor;
      const absolute = await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', from: '2026-01-01', cursor } });
      expect(absolute.isError).toBe(true);
      expect(asked.at(-1)).toMatchObject({ from: Date.parse('2026-01-01T00:00:00Z') });
      const other = await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', from: '30d', cursor } });
      expect(other.isError).toBe(true);
      const forged = await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', from: '100d', cursor: `${cursor}~x` } });
      expect(text(forged)).toMatch(/^invalid_params: The cursor is not one/);
    } finally {
      await client.close();
    }
  });
});

describe('search_transcripts arguments', () => {
  it('refuses genuine_user_turn false as invalid_params saying only true is taken (the search has no harness-only filter)', async () => {
    const asked: string[] = [];
    const client = await serverAnswering((method) => {
      asked.push(method);
      return { hits: [HIT], sessions: [] };
    });
    try {
      const refused = await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', role: 'user', genuine_user_turn: false } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^invalid_params: .*genuine_user_turn takes only true/);
      expect(asked).toEqual([]);
      const taken = await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', genuine_user_turn: true } });
      expect(taken.isError, text(taken)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('names the from or to field of a date it cannot read', async () => {
    const client = await serverAnswering(() => ({ hits: [], sessions: [] }));
    try {
      expect(text(await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', from: 'last week' } }))).toMatch(/^invalid_params: .*from: expected a date/);
      expect(text(await client.callTool({ name: 'search_transcripts', arguments: { query: 'sink', to: 'yesterday' } }))).toMatch(/^invalid_params: .*to: expected a date/);
    } finally {
      await client.close();
    }
  });

  it('says which kinds a hit carries that `kind` text selects (agent_message, notice, error…)', async () => {
    const client = await serverAnswering(() => ({}));
    try {
      const { tools } = await client.listTools();
      const kind = (tools.find((t) => t.name === 'search_transcripts')!.inputSchema.properties as Record<string, { description?: string }>).kind!.description!;
      for (const k of ['agent_message', 'notice', 'error']) expect(kind).toContain(k);
    } finally {
      await client.close();
    }
  });
});

describe('list_projects', () => {
  it('gives lastActivityAt as ISO, as every other time, and says each project’s sessions and last activity', async () => {
    const at = Date.parse('2026-11-29T08:00:00Z');
    const projects = [
      { projectKey: 'p_00000000aaaaaaaa', name: 'app', cwd: '/work/app', repoBacked: false, lastActivityAt: at, sessions: 3 },
      { projectKey: 'p_00000000bbbbbbbb', name: 'new', cwd: '/work/new', repoBacked: false, lastActivityAt: null, sessions: 1 },
    ] as unknown as ProjectSummary[];
    const client = await serverAnswering(() => ({ projects }));
    try {
      const result = await client.callTool({ name: 'list_projects', arguments: {} });
      expect(result.structuredContent).toMatchObject({ projects: [{ lastActivityAt: '2026-11-29T08:00:00.000Z', sessions: 3 }, { lastActivityAt: null, sessions: 1 }] });
      expect(text(result).split('\n')).toEqual(['app (p_00000000aaaaaaaa) — /work/app · 3 sessions, last active 2026-11-29T08:00:00.000Z', 'new (p_00000000bbbbbbbb) — /work/new · 1 session']);
    } finally {
      await client.close();
    }
  });
});

// A conversation that starts 25 subagents in one message, then goes on for a few turns.
const MAIN = 'c0ffee00-0000-4000-8000-0000000000c5';
const SUBAGENTS = 25;

const history = claudeHistoryWithMcp('steward-mcp-qa45m-', (root) => writeSubagentOrchard(root, MAIN, SUBAGENTS));

interface Page {
  messages: unknown[];
  subagents: Array<{ sessionId: string }>;
  moreSubagents?: number;
  subagentsCursor?: string;
  cursor?: string;
}

describe('get_session of a conversation with 25 subagents', () => {
  it('lists them on the page that opens it, not again on the pages its cursor reaches, and says how to list them there', async () => {
    const first = await history.call('get_session', { session_id: MAIN, limit: 2 });
    const page = first.structuredContent as unknown as Page;
    expect(page.subagents).toHaveLength(20);
    expect(page.moreSubagents).toBe(5);
    expect(page.subagentsCursor).toBe('subagents:20');
    expect(first.content[0]!.text).toContain('call again with cursor "subagents:20"');
    const next = await history.call('get_session', { session_id: MAIN, limit: 2, cursor: page.cursor });
    const later = next.structuredContent as unknown as Page;
    expect(later.messages.length).toBeGreaterThan(0);
    expect(later.subagents).toEqual([]);
    expect(later.subagentsCursor).toBe('subagents:0');
    const said = next.content[0]!.text!;
    expect(said).not.toContain('Survey the orchard row');
    expect(said).toContain('25 subagents');
    expect(said.length).toBeLessThan(1_500);
  });

  it('lists the rest with the subagents cursor, each with what it was asked', async () => {
    const first = (await history.call('get_session', { session_id: MAIN, limit: 2 })).structuredContent as unknown as Page;
    const rest = await history.call('get_session', { session_id: MAIN, cursor: 'subagents:20' });
    expect(rest.isError, rest.content[0]?.text).toBeFalsy();
    const page = rest.structuredContent as unknown as Page;
    expect(page.messages).toEqual([]);
    expect(page.subagents).toHaveLength(5);
    expect(page.moreSubagents).toBeUndefined();
    expect(page.subagentsCursor).toBeUndefined();
    const all = new Set([...first.subagents, ...page.subagents].map((s) => s.sessionId));
    expect(all.size).toBe(SUBAGENTS);
    expect(rest.content[0]!.text).toMatch(/Subagents 21 to 25 of 25/);
    expect(rest.content[0]!.text).toContain('Survey the orchard row');
  });
});

describe('search_transcripts through the owner, paged with a span', () => {
  it('gives the next page for the same arguments and the cursor, and refuses the cursor with another date', async () => {
    const args = { query: 'orchard', from: '100d', limit: 2, sort: 'newest' };
    const first = await history.call('search_transcripts', args);
    const cursor = (first.structuredContent as { cursor: string }).cursor;
    expect(cursor).toMatch(/~f100d@\d+$/);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await history.call('search_transcripts', { ...args, cursor });
    expect(second.isError, second.content[0]?.text).toBeFalsy();
    const ids = (r: typeof first) => (r.structuredContent as { hits: Array<{ partId: string }> }).hits.map((h) => h.partId);
    expect(ids(second).length).toBeGreaterThan(0);
    expect(ids(second)).not.toEqual(ids(first));
    const other = await history.call('search_transcripts', { ...args, from: '2020-01-01', cursor });
    expect(other.content[0]?.text).toMatch(/^invalid_params: The cursor belongs to another search/);
  });
});
