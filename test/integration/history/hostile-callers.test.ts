import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { connectInProcess, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * The history surfaces agents and scripts read (MCP tools, Sessions.Get, Search.Query, exports), as a
 * careless or hostile caller meets them: secrets next to where a snippet, a summary or a first request
 * is cut, emoji across those cuts, dates outside the contract's range, a session id with backticks.
 */
const SESSION = 'a0a0a0a0-0000-4000-8000-00000000beef';
const ODD_SESSION = 'odd `id` with ``backticks``';
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
const BEARER = 'q8ZrT5vLw2NcYb7HsK4dPxE1mUa9GfJ3';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
/** Any run of the token's characters long enough to be part of it, not chance. */
const TOKEN_PIECE = TOKEN.slice(0, 10);
/** A lone half of a surrogate pair, as JSON.stringify escapes it. */
const LONE_ESCAPED = /\\ud[89a-f][0-9a-f]{2}/i;
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A command whose summary (cut at 140 characters) ends 19 characters into the token. */
function pushCommand(): string {
  const tail = ' && git remote set-url origin https://x-access-token:';
  const lead = `cd /work/${'h'.repeat(120 - 'Bash: '.length - 'cd /work/'.length - tail.length)}${tail}`;
  return `${lead}${TOKEN}@github.com/acme/orchard.git && git push`;
}

let home: TempHome;
let core: Core;
let client: Client;

async function tool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

beforeAll(async () => {
  home = tempHome('steward-hostile-');
  const root = join(home.dir, 'roots', 'claude');
  const t = Date.now() - 3_600_000;
  const at = (i: number) => new Date(t + i * 1_000);
  const cwd = '/work/hostile';
  writeJsonl(join(root, 'projects', '-work-hostile', `${SESSION}.jsonl`), [
    // 280 characters of words, then the token: a first request cut at 300 keeps 19 of its 40.
    claudeLine({ sessionId: SESSION, cwd, ts: at(0), text: `${'word '.repeat(56)}${TOKEN} is the token to push with` }),
    claudeLine({ sessionId: SESSION, cwd, ts: at(1), type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: pushCommand() } }] }),
    claudeLine({ sessionId: SESSION, cwd, ts: at(2), type: 'assistant', text: `curl -sS -X POST -H "Authorization: Bearer ${BEARER}" https://api.internal.example.com/v2/projects/orchard/deploy` }),
    claudeLine({ sessionId: SESSION, cwd, ts: at(3), type: 'assistant', text: `aws key AKIAIOSFODNN7EXAMPLE ${'filler '.repeat(20)} secret ${AWS_SECRET} ${'more '.repeat(5)} glimmer` }),
    claudeLine({
      sessionId: SESSION,
      cwd,
      ts: at(4),
      type: 'assistant',
      content: [
        { type: 'thinking', thinking: `ab${'😀'.repeat(100)}`, signature: 'sig' },
        { type: 'text', text: `a${'😀'.repeat(100)} needle ${'😀'.repeat(1_200)}` },
      ],
    }),
  ]);
  writeJsonl(join(root, 'projects', '-work-hostile', 'odd.jsonl'), [claudeLine({ sessionId: ODD_SESSION, cwd, ts: at(5), text: 'an oddly named conversation' })]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  home.env.STEWARD_OPENCLAW_ROOTS = '';
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });

  // The tools as `steward mcp` serves them, through this owner (as through a running daemon).
  client = await connectInProcess(core);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await core?.shutdown();
  home?.cleanup();
});

describe('search_transcripts', () => {
  it('redacts a secret before the snippet is cut, so a token cut from its Bearer or a key id cut from its secret still shows none of it', async () => {
    const deploy = await tool('search_transcripts', { query: 'deploy' });
    expect(deploy.isError).toBeFalsy();
    const snippet = (deploy.structuredContent as { hits: Array<{ snippet: string }> }).hits[0]!.snippet;
    expect(snippet).toContain('deploy');
    expect(snippet).not.toContain(BEARER.slice(0, 10));
    const glimmer = JSON.stringify((await tool('search_transcripts', { query: 'glimmer' })).structuredContent);
    expect(glimmer).toContain('glimmer');
    expect(glimmer).not.toContain(AWS_SECRET.slice(0, 10));
    // A caller that asks for no redaction (the panel and the CLI ask for it) gets what was written.
    expect((await core.call('Search.Query', { query: 'deploy' })).hits[0]!.snippet).toContain(BEARER);
  });

  it('a tool call’s one line on a hit, cut in the middle of a token, is redacted as its snippet is: none of the token, the marker in its place', async () => {
    const redacted = await core.call('Search.Query', { query: 'orchard', kind: 'tool_use', redact: true });
    expect(redacted.hits).toHaveLength(1);
    const summary = redacted.hits[0]!.summary!;
    expect(summary).toMatch(/^Bash: cd \/work\/h+ && git remote set-url origin https:\/\/x-access-token:/);
    expect(summary).not.toContain(TOKEN_PIECE);
    expect(summary).toContain('[REDACTED]');
    // Without redact (the contract's default; the panel and the CLI ask for it), the line is as written.
    expect((await core.call('Search.Query', { query: 'orchard', kind: 'tool_use' })).hits[0]!.summary).toContain(TOKEN_PIECE);
  });

  it('a first request cut in the middle of a key shows none of the key', async () => {
    const out = (await tool('search_transcripts', { query: 'needle' })).structuredContent as { sessions: Array<{ firstRequest: string | null }> };
    expect(out.sessions[0]!.firstRequest).toMatch(/^word word/);
    expect(JSON.stringify(out)).not.toContain(TOKEN_PIECE);
  });

  it('never cuts an emoji in half in a snippet', async () => {
    const result = await tool('search_transcripts', { query: 'needle' });
    const snippet = (result.structuredContent as { hits: Array<{ snippet: string }> }).hits[0]!.snippet;
    expect(snippet).toContain('needle');
    expect(snippet).not.toMatch(LONE);
    expect(JSON.stringify(result)).not.toMatch(LONE_ESCAPED);
    const { hits } = await core.call('Search.Query', { query: 'needle' });
    expect(hits[0]!.snippet).not.toMatch(LONE);
  });

  it('takes dates before 1970 or past the contract’s last one as the edges of everything', async () => {
    const result = await tool('search_transcripts', { query: 'deploy', from: '1900-01-01', to: '2999-12-31' });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { hits: unknown[] }).hits).toHaveLength(1);
  });
});

describe('get_session', () => {
  it('a tool call’s summary cut in the middle of a token shows none of it, and neither does the first request', async () => {
    const result = await tool('get_session', { session_id: SESSION });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { session: { firstRequest: string }; messages: Array<{ parts: Array<{ kind: string; summary: string | null }> }> };
    const summary = out.messages.flatMap((m) => m.parts).find((p) => p.kind === 'tool_use')!.summary!;
    expect(summary).toMatch(/^Bash: cd \/work\/h+ && git remote set-url origin https:\/\/x-access-token:/);
    expect(out.session.firstRequest).toMatch(/^word word/);
    expect(JSON.stringify(result)).not.toContain(TOKEN_PIECE);
  });

  it('never cuts an emoji in half where a long part is bounded or a summary is cut', async () => {
    const result = await tool('get_session', { session_id: SESSION });
    const parts = (result.structuredContent as { messages: Array<{ parts: Array<{ text: string | null; summary: string | null }> }> }).messages.flatMap((m) => m.parts);
    expect(parts.some((p) => /more characters not shown: read on with part_id "[^"]+" and from_char \d+\]$/.test(p.text ?? ''))).toBe(true);
    for (const part of parts) for (const text of [part.text, part.summary]) expect(text ?? '').not.toMatch(LONE);
    expect(JSON.stringify(result)).not.toMatch(LONE_ESCAPED);
  });
});

describe('Sessions.Get and Sessions.Export', () => {
  it('Sessions.Get with redact cuts summaries from redacted text; without it, the person reads what they wrote', async () => {
    const redacted = await core.call('Sessions.Get', { sessionId: SESSION, redact: true });
    expect(JSON.stringify(redacted)).not.toContain(TOKEN_PIECE);
    expect(JSON.stringify(redacted)).toContain('[REDACTED]');
    const raw = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(raw.messages.flatMap((m) => m.parts).some((p) => p.text?.includes(TOKEN))).toBe(true);
  });

  it('an export shows none of a token its summaries or first request were cut through, and no half of an emoji', async () => {
    for (const format of ['markdown', 'json'] as const) {
      const exported = await core.call('Sessions.Export', { sessionId: SESSION, format });
      expect(exported.next).toBeNull();
      expect(exported.content).not.toContain(TOKEN_PIECE);
      expect(exported.content).not.toContain(BEARER);
      expect(exported.content).not.toMatch(format === 'json' ? LONE_ESCAPED : LONE);
    }
    const raw = await core.call('Sessions.Export', { sessionId: SESSION, raw: true });
    expect(raw.content).toContain(TOKEN);
  });

  it('writes a session id with backticks as inline code it cannot close early', async () => {
    const exported = await core.call('Sessions.Export', { sessionId: ODD_SESSION });
    expect(exported.content).toContain('- Session: ``` odd `id` with ``backticks`` ```');
  });
});
