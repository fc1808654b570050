import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHistoryWithMcp, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// The call search_transcripts names for a conversation's unlisted matches (attack-mcp-5): never the call
// just made, and every counted match is on a page of some call named. A conversation's subagents are
// other conversations to a page thinned across many, but a search narrowed to the conversation holds
// them too, so it is never thinned: the call that would list the rest is itself.

const MAIN = 'abababab-0000-4000-8000-00000000c101';
const OTHER = 'abababab-0000-4000-8000-00000000c102';
const AGENT = 'a00000000101';
const base = Date.now() - 3 * 3_600_000;
const at = (m: number) => new Date(base + m * 60_000);

const call = (args: Record<string, unknown>) => history.call('search_transcripts', args);
const textOf = (r: ToolResult) => r.content[0]?.text ?? '';
const namedCalls = (r: ToolResult) => [...textOf(r).matchAll(/not listed here: call search_transcripts with (\{.*?\}) to list/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

/** Every page of a search: the snippets listed and the calls named for what was not. */
async function allPages(args: Record<string, unknown>): Promise<{ snippets: string[]; calls: Array<Record<string, unknown>> }> {
  const snippets: string[] = [];
  const calls: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  for (let n = 0; n < 30; n += 1) {
    const page = await call({ ...args, ...(cursor ? { cursor } : {}) });
    expect(page.isError, textOf(page)).toBeFalsy();
    snippets.push(...(page.structuredContent!.hits as Array<{ snippet: string }>).map((h) => h.snippet));
    calls.push(...namedCalls(page));
    cursor = page.structuredContent!.cursor as string | undefined;
    if (!cursor) break;
  }
  return { snippets, calls };
}

const mainTurns = Array.from({ length: 12 }, (_, i) => `user turn ${i}`);
const subTurns = Array.from({ length: 8 }, (_, i) => `sub turn ${i}`);
const missingOf = (snippets: readonly string[], words: readonly string[]) => words.filter((w) => !snippets.some((s) => s.includes(w)));

const history = claudeHistoryWithMcp('steward-named-call-subagents-', (root) => {
  const dir = join(root, 'projects', '-work-kiln');
  const line = (sid: string, m: number, o: Record<string, unknown>) => claudeLine({ sessionId: sid, cwd: '/work/kiln', ts: at(m), ...o });
  // MAIN: 12 turns about glazeword, one subagent with 8 of its own (between them in time), another conversation with 6.
  writeJsonl(join(dir, `${MAIN}.jsonl`), [
    line(MAIN, 0, { text: 'start the glazeword firing' }),
    line(MAIN, 1, { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_task0', name: 'Task', input: { description: 'glaze', prompt: 'check glazeword temps', subagent_type: 'Explore' } }] }),
    ...mainTurns.map((t, i) => line(MAIN, 10 + i, { text: `glazeword ${t}` })),
  ]);
  writeJsonl(join(dir, MAIN, 'subagents', `agent-${AGENT}.jsonl`), subTurns.map((t, i) => claudeLine({ sessionId: MAIN, agentId: AGENT, cwd: '/work/kiln', ts: at(2 + i), text: `glazeword ${t}` })));
  writeJsonl(join(dir, `${OTHER}.jsonl`), Array.from({ length: 6 }, (_, i) => line(OTHER, 30 + i, { text: `glazeword other turn ${i}` })));
});

describe('search_transcripts narrowed to a conversation with subagents', () => {
  for (const sort of ['newest', 'relevance'] as const) {
    it(`is never thinned (${sort}): its pages list every match, its subagent's too, naming no call`, async () => {
      const args = { query: 'glazeword', session_id: MAIN, sort, limit: 6 };
      const { snippets, calls } = await allPages(args);
      expect(calls).toEqual([]);
      expect(missingOf(snippets, [...mainTurns, ...subTurns])).toEqual([]);
      expect(new Set(snippets).size).toBe(snippets.length);
    });
  }
});

describe('search_transcripts across conversations, newest first with a span, role and kind', () => {
  it('names calls other than itself, which together reach every counted match', async () => {
    const args = { query: 'glazeword', from: '7d', role: 'user', kind: 'text', sort: 'newest', limit: 6 };
    const first = await allPages(args);
    expect(first.calls.length).toBeGreaterThan(0);
    const seen = [...first.snippets];
    for (const named of first.calls) {
      expect(named).not.toEqual(args);
      const rest = await allPages(named);
      // A named call lists its conversation's rest itself: it names none in turn.
      expect(rest.calls).toEqual([]);
      seen.push(...rest.snippets);
    }
    expect(missingOf(seen, [...mainTurns, ...subTurns])).toEqual([]);
  });

  it('names a crowded subagent by its own id, and that call lists the subagent’s matches', async () => {
    // Up to minute 9: the subagent's 8 turns, newest, crowd the page; MAIN's opening lines follow.
    const args = { query: 'glazeword', sort: 'newest', limit: 4, to: new Date(at(9).getTime() + 30_000).toISOString() };
    const page = await call(args);
    const hits = page.structuredContent!.hits as Array<{ sessionId: string }>;
    const agent = hits[0]!.sessionId;
    expect(agent).not.toBe(MAIN);
    const named = namedCalls(page);
    expect(named.map((c) => c.session_id)).toEqual([agent]);
    const rest = await allPages(named[0]!);
    expect(missingOf(rest.snippets, subTurns)).toEqual([]);
  });
});
