import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { StewardClient } from '../../../core/api/index.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import type { WithClient } from '../../../core/mcp/projects.js';

interface Ranked {
  sessionId: string;
  partId: string;
  alike?: number;
}

/** The owner's ranking, paged by an offset cursor as Search.Query pages (a cursor goes on after the last hit it gave). */
function ranking(sessions: string[]): Ranked[] {
  const seen = new Map<string, number>();
  return sessions.map((sessionId) => {
    const n = (seen.get(sessionId) ?? 0) + 1;
    seen.set(sessionId, n);
    return { sessionId, partId: `${sessionId}:${n}` };
  });
}

let client: Client | undefined;
afterEach(async () => client?.close());

async function searching(ranked: Ranked[]): Promise<{ client: Client; asked: Array<{ limit: number }> }> {
  const asked: Array<{ limit: number }> = [];
  const answer = (method: string, params: { limit: number; cursor?: string }) => {
    if (method !== 'Search.Query') return {};
    asked.push(params);
    const start = params.cursor === undefined ? 0 : Number(params.cursor);
    const page = ranked.slice(start, start + params.limit);
    const hits = page.map((h) => ({ ...h, projectKey: null, provider: 'claude', ts: 0, role: 'assistant', kind: 'text', genuineUserTurn: false, toolName: null, snippet: 'frost', summary: null, highlights: [] }));
    const sessions = [...new Set(page.map((h) => h.sessionId))].map((sessionId) => ({ sessionId, parentSessionId: null, parentKind: null, projectKey: null, projectName: null, provider: 'claude', app: 'Claude Code', title: `About ${sessionId}`, firstRequest: null, lastAt: 0 }));
    const next = start + params.limit;
    return { hits, sessions, ...(next < ranked.length ? { cursor: String(next) } : {}) };
  };
  const owner = { call: (method: string, params: { limit: number; cursor?: string }) => Promise.resolve(answer(method, params)) } as unknown as StewardClient;
  const reach: WithClient = (use) => use(owner);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(reach, { home: '/home/ada', stewardHome: '/home/ada/.steward' }).connect(serverSide);
  client = new Client({ name: 'spread-test', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, asked };
}

interface Out {
  hits: Array<{ sessionId: string; partId: string }>;
  cursor?: string;
  unlisted?: Array<{ sessionId: string; matches: number }>;
}

async function page(c: Client, args: Record<string, unknown>): Promise<{ out: Out; text: string }> {
  const result = await c.callTool({ name: 'search_transcripts', arguments: { query: 'frost', ...args } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return { out: result.structuredContent as Out, text: (result.content as Array<{ text: string }>).map((t) => t.text).join('\n') };
}

/** Every page of a search, with what each listed and left unlisted. */
async function allPages(c: Client, limit: number): Promise<Out[]> {
  const pages: Out[] = [];
  let cursor: string | undefined;
  do {
    const { out } = await page(c, { limit, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(out);
    cursor = out.cursor;
  } while (cursor !== undefined && pages.length < 50);
  return pages;
}

describe('search_transcripts: one conversation does not fill a page when others match', () => {
  const chatty = ranking(['agent-sub', 'agent-sub', 'agent-sub', 'agent-sub', 'agent-sub', 'agent-sub', 'main', 'agent-sub', 'other', 'main', 'agent-sub', 'other']);

  it('lists a few hits of the subagent’s conversation and says how many more it has and how to read them', async () => {
    const { client: c } = await searching(chatty);
    const { out, text } = await page(c, { limit: 3 });
    expect(out.hits.map((h) => h.partId)).toEqual(['agent-sub:1', 'agent-sub:2', 'main:1']);
    expect(out.unlisted).toEqual([{ sessionId: 'agent-sub', matches: 4 }]);
    expect(text).toContain('4 more in this conversation');
    expect(text).toContain('"session_id":"agent-sub"');
  });

  it('pages on with neither a repeat nor a skip: each hit is listed once or counted once', async () => {
    const { client: c } = await searching(chatty);
    for (const limit of [1, 2, 3, 4, 10]) {
      const pages = await allPages(c, limit);
      const listed = pages.flatMap((p) => p.hits.map((h) => h.partId));
      expect(new Set(listed).size, `limit ${limit}`).toBe(listed.length);
      const counted = pages.flatMap((p) => p.unlisted ?? []).reduce((sum, u) => sum + u.matches, 0);
      expect(listed.length + counted, `limit ${limit}`).toBe(chatty.length);
      // Listed in the ranking's order: nothing a later page lists ranked before what an earlier one did.
      const ranks = listed.map((id) => chatty.findIndex((h) => h.partId === id));
      expect([...ranks].sort((a, b) => a - b), `limit ${limit}`).toEqual(ranks);
      for (const p of pages) expect(p.hits.length).toBeLessThanOrEqual(limit);
    }
  });

  it('counts the repeats an unlisted hit stands for', async () => {
    const ranked = chatty.map((h, i) => (i === 3 ? { ...h, alike: 5 } : h));
    const { client: c } = await searching(ranked);
    expect((await page(c, { limit: 3 })).out.unlisted).toEqual([{ sessionId: 'agent-sub', matches: 9 }]);
  });

  it('pages one conversation as it ranks when no other matches', async () => {
    const { client: c } = await searching(ranking(Array.from({ length: 8 }, () => 'agent-sub')));
    const first = await page(c, { limit: 3 });
    expect(first.out.hits.map((h) => h.partId)).toEqual(['agent-sub:1', 'agent-sub:2', 'agent-sub:3']);
    expect(first.out.unlisted).toBeUndefined();
    const second = await page(c, { limit: 3, cursor: first.out.cursor });
    expect(second.out.hits.map((h) => h.partId)).toEqual(['agent-sub:4', 'agent-sub:5', 'agent-sub:6']);
  });
});
