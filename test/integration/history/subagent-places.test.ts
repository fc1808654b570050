import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { connectInProcess, type ToolResult } from '../../support/mcp.js';
import { claudeLine, desktopSession, writeJsonl } from '../../support/transcripts.js';

/**
 * Every reader of a conversation lists a subagent no call started where the panel does: after the
 * message it started after (`startedAfter`); one with neither a call nor a message before it, after
 * the last message, named by its type as the others are. And search_transcripts narrows to Claude
 * Desktop as Search.Query does.
 */
let home: TempHome;
let core: Core;
let client: Client;
const base = Date.now() - 3 * 3_600_000;
const at = (seconds: number) => new Date(base + seconds * 1000);

const CWD = '/work/orchard';
const PARENT = 'c0ffee00-0000-4000-8000-0000000051a0';
/** Started 3 s after the parent's Read, by no call: listed after the Read's message. */
const TIMED = `${PARENT}:agent-a1a1a1a`;
/** Started before the parent's first line: no message came before it, so it is listed at the end. */
const EARLY = `${PARENT}:agent-b2b2b2b`;
const CLAUDE_DIR = () => join(home.dir, 'roots', 'claude', 'projects', '-work-orchard');

function subagent(agentId: string, type: string, seconds: number, text: string): void {
  const dir = join(CLAUDE_DIR(), PARENT, 'subagents');
  writeJsonl(join(dir, `agent-${agentId}.jsonl`), [
    claudeLine({ sessionId: PARENT, cwd: CWD, ts: at(seconds), agentId, uuid: `${agentId}-1`, text }),
    claudeLine({ sessionId: PARENT, cwd: CWD, ts: at(seconds + 2), agentId, uuid: `${agentId}-2`, type: 'assistant', text: `${text}: done.` }),
  ]);
  writeFileSync(join(dir, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: type }));
}

beforeAll(async () => {
  home = tempHome('steward-subagent-places-');
  home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'roots', 'claude');
  home.env.STEWARD_CLAUDE_DESKTOP_ROOTS = join(home.dir, 'roots', 'desktop');
  writeJsonl(join(CLAUDE_DIR(), `${PARENT}.jsonl`), [
    claudeLine({ sessionId: PARENT, cwd: CWD, ts: at(0), uuid: 'ask', text: 'survey the desktop seed beds' }),
    claudeLine({ sessionId: PARENT, cwd: CWD, ts: at(5), uuid: 'read', type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${CWD}/beds.md` } }] }),
    claudeLine({ sessionId: PARENT, cwd: CWD, ts: at(60), uuid: 'done', type: 'assistant', text: 'Surveyed every bed.' }),
  ]);
  subagent('a1a1a1a', 'code-reviewer', 8, 'Timed subagent prompt');
  subagent('b2b2b2b', 'Explore', -30, 'Early subagent prompt');
  desktopSession(join(home.dir, 'roots', 'desktop'), 'dk-1', 2, 'Sort my invoices');
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
  client = await connectInProcess(core);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await core?.shutdown();
  home?.cleanup();
});

const tool = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

async function exported(format: 'markdown' | 'json'): Promise<string> {
  const first = await core.call('Sessions.Export', { sessionId: PARENT, format });
  const pieces = [first.content];
  for (let next = first.next; next !== null; ) {
    const piece = await core.call('Sessions.ExportNext', { next });
    pieces.push(piece.content);
    next = piece.next;
  }
  return pieces.join('');
}

describe('the fixture', () => {
  it('has one subagent placed by time and one with neither a call nor a message before it', async () => {
    const page = await core.call('Sessions.Get', { sessionId: PARENT });
    expect(page.subagents).toMatchObject([
      { startedBy: null, startedAfter: null, session: { sessionId: EARLY, agentType: 'Explore' } },
      { startedBy: null, startedAfter: 'cc:read', session: { sessionId: TIMED, agentType: 'code-reviewer' } },
    ]);
  });
});

describe('steward sessions show', () => {
  it('lists the timed subagent after its message, and the one with neither at the end, named by its type', async () => {
    const text = formatSession(await core.call('Sessions.Get', { sessionId: PARENT }));
    expect(text).toMatch(new RegExp(`▸ Read: /work/orchard/beds\\.md\\n {2}⤷ subagent code-reviewer ${TIMED} \\(2 messages\\)`));
    expect(text).toMatch(new RegExp(`Surveyed every bed\\.\\n\\n.*subagent Explore ${EARLY} \\(2 messages\\)\\n$`));
  });
});

describe('get_session', () => {
  it('says where each subagent started: the timed one after its message, the other after the last', async () => {
    const result = await tool('get_session', { session_id: PARENT });
    expect(result.isError).toBeFalsy();
    const page = result.structuredContent as { messages: Array<{ subagents?: Array<{ sessionId: string; agentType: string | null }> }>; subagents: Array<{ sessionId: string }> };
    // Listed on every page, as before.
    expect(page.subagents.map((s) => s.sessionId)).toEqual([EARLY, TIMED]);
    expect(page.messages.map((m) => m.subagents ?? [])).toEqual([[], [{ sessionId: TIMED, agentType: 'code-reviewer' }], [{ sessionId: EARLY, agentType: 'Explore' }]]);
    const text = result.content[0]!.text!;
    expect(text.indexOf(`⤷ subagent code-reviewer [${TIMED}]`, text.indexOf('Read'))).toBeGreaterThan(text.indexOf('[Tool call]'));
    expect(text.lastIndexOf(`[${TIMED}]`)).toBeLessThan(text.indexOf('Surveyed every bed.'));
    expect(text.lastIndexOf(`[${EARLY}]`)).toBeGreaterThan(text.indexOf('Surveyed every bed.'));
  });

  it('a page lists those started at its messages; those whose start is unknown wait for the last page', async () => {
    const first = (await tool('get_session', { session_id: PARENT, limit: 2 })).structuredContent as { messages: Array<{ subagents?: Array<{ sessionId: string }> }>; cursor?: string };
    expect(first.messages.map((m) => (m.subagents ?? []).map((s) => s.sessionId))).toEqual([[], [TIMED]]);
    const last = (await tool('get_session', { session_id: PARENT, cursor: first.cursor })).structuredContent as { messages: Array<{ subagents?: Array<{ sessionId: string }> }>; cursor?: string };
    expect(last.cursor).toBeUndefined();
    expect(last.messages.map((m) => (m.subagents ?? []).map((s) => s.sessionId))).toEqual([[EARLY]]);
  });
});

describe('export', () => {
  it('Markdown writes the timed subagent after the message it started after, the other after the last message', async () => {
    const md = await exported('markdown');
    const read = md.indexOf('**Tool call** Read');
    const timed = md.indexOf('Timed subagent prompt');
    const done = md.indexOf('Surveyed every bed.');
    const early = md.indexOf('Early subagent prompt');
    expect([read, timed, done, early].every((i) => i >= 0)).toBe(true);
    expect(read).toBeLessThan(timed);
    expect(timed).toBeLessThan(done);
    expect(done).toBeLessThan(early);
  });

  it('JSON says where each subagent started, as Sessions.Get does', async () => {
    const doc = JSON.parse(await exported('json')) as { subagents: Array<{ startedBy: string | null; startedAfter: string | null; session: { sessionId: string } }> };
    expect(doc.subagents).toMatchObject([
      { startedBy: null, startedAfter: null, session: { sessionId: EARLY } },
      { startedBy: null, startedAfter: 'cc:read', session: { sessionId: TIMED } },
    ]);
  });
});

describe('search_transcripts narrows to Claude Desktop', () => {
  it('provider claude-desktop finds only the Desktop conversation; claude finds both; the description says so', async () => {
    const sessions = async (args: Record<string, unknown>) => {
      const result = await tool('search_transcripts', args);
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      return [...new Set((result.structuredContent as { hits: Array<{ sessionId: string }> }).hits.map((h) => h.sessionId))].sort();
    };
    expect(await sessions({ query: 'desktop', provider: 'claude-desktop' })).toEqual(['dk-1']);
    expect(await sessions({ provider: 'claude-desktop' })).toEqual(['dk-1']);
    expect(await sessions({ query: 'desktop', provider: 'claude' })).toEqual([PARENT, 'dk-1'].sort());
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_transcripts')!;
    expect((search.inputSchema.properties as Record<string, { enum?: string[]; description?: string }>).provider).toMatchObject({
      enum: expect.arrayContaining(['claude', 'claude-desktop']) as unknown,
      description: expect.stringMatching(/claude-desktop: Claude Desktop alone/) as unknown,
    });
  });
});
