import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core, Params } from '../../../core/index.js';
import { PART_ROLES } from '../../../core/api/index.js';
import { SearchTranscriptsInput } from '../../../core/mcp/history.js';
import { coreHome } from '../../support/core.js';
import { runIn } from '../../support/cli.js';
import { claudeLine, openclawLines, writeJsonl } from '../../support/transcripts.js';

/**
 * A role filter means the same for every agent: Claude Code writes a tool's output inside a `user`
 * message, Codex and Gemini store it as role `tool`, OpenClaw as `toolResult`. `user` is what the
 * person (or their app) said, never a tool's output; `tool` is every agent's tool output.
 */

const CLAUDE = 'c1a0de00-0000-4000-8000-00000000c901';
const CODEX = '019f0000-0000-7000-8000-00000000c902';
const OPENCLAW_HEADER = 'c9030000-0000-4000-8000-000000000001';
const base = Date.UTC(2026, 2, 3, 9);
const at = (i: number) => new Date(base + i * 60_000);

function writeConversations(root: string): Record<'claudeRoot' | 'codexRoot' | 'openclawRoot', string> {
  const claudeRoot = join(root, 'claude');
  const line = (i: number, o: Partial<Parameters<typeof claudeLine>[0]>) => claudeLine({ sessionId: CLAUDE, cwd: '/work/bakery', ts: at(i), ...o });
  writeJsonl(join(claudeRoot, 'projects', '-work-bakery', `${CLAUDE}.jsonl`), [
    line(0, { text: 'Find where the cardamom buns recipe lives' }),
    line(1, { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01Grep', name: 'Bash', input: { command: 'rg -n buns recipes' } }] }),
    line(2, { content: [{ type: 'tool_result', tool_use_id: 'toolu_01Grep', content: 'recipes/buns.md:3: two teaspoons of cardamom' }] }),
  ]);
  const codexRoot = join(root, 'codex');
  const item = (i: number, payload: unknown) => ({ timestamp: at(10 + i).toISOString(), type: 'response_item', payload });
  writeJsonl(join(codexRoot, 'sessions', '2026', '03', '03', `rollout-2026-03-03T09-10-00-${CODEX}.jsonl`), [
    { timestamp: at(10).toISOString(), type: 'session_meta', payload: { id: CODEX, timestamp: at(10).toISOString(), cwd: '/work/bakery', originator: 'codex_cli_rs', cli_version: '0.160.0', source: 'cli' } },
    item(0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'How much cardamom goes in the dough?' }] }),
    item(1, { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'cat recipes/dough.md'] }), call_id: 'call_1' }),
    item(2, { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'dough: one teaspoon of cardamom', metadata: { exit_code: 0 } }) }),
  ]);
  const openclawRoot = join(root, 'openclaw');
  writeJsonl(
    join(openclawRoot, 'agents', 'main', 'sessions', `${OPENCLAW_HEADER}.jsonl`),
    openclawLines(OPENCLAW_HEADER, [
      { id: 'f0000001', role: 'user', text: 'Is there cardamom in the pantry list?', ts: at(20) },
      { id: 'f0000002', role: 'toolResult', text: 'pantry: cardamom, cinnamon, flour', ts: at(21) },
    ]),
  );
  return { claudeRoot, codexRoot, openclawRoot };
}

describe('a role filter means the same for every agent', () => {
  const temp = coreHome('steward-search-roles-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const roots = writeConversations(join(temp.home.dir, 'roots'));
    temp.home.env.STEWARD_CLAUDE_ROOTS = roots.claudeRoot;
    temp.home.env.STEWARD_CODEX_ROOTS = roots.codexRoot;
    temp.home.env.STEWARD_OPENCLAW_ROOTS = roots.openclawRoot;
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);
  const found = async (params: Params<'Search.Query'>) =>
    (await search(params)).hits.map((h) => `${h.provider} ${h.role} ${h.kind}`).sort();
  const everyTool = ['claude tool tool_result', 'codex tool tool_result', 'openclaw tool tool_result'];
  const everyUser = ['claude user text', 'codex user text', 'openclaw user text'];

  it('role tool finds every agent’s tool output, Claude Code’s too, with words and without', async () => {
    for (const sort of ['relevance', 'newest'] as const) {
      expect(await found({ query: 'cardamom', role: 'tool', sort })).toEqual(everyTool);
    }
    expect(await found({ query: 'cardamom', role: 'tool', provider: 'claude' })).toEqual(['claude tool tool_result']);
    expect(await found({ query: '', role: 'tool' })).toEqual(everyTool);
    expect(await found({ query: '', role: 'tool', provider: 'claude' })).toEqual(['claude tool tool_result']);
    expect(await found({ query: 'cardamom', role: 'tool', kind: 'tool_result' })).toEqual(everyTool);
    // A tool's output is never text, a call or thinking.
    expect(await found({ query: 'cardamom', role: 'tool', kind: 'text' })).toEqual([]);
    expect(await found({ query: '', role: 'tool', kind: 'tool_use' })).toEqual([]);
  });

  it('role user is what was said in the person’s turn, never a tool’s output, whatever the agent stores it as', async () => {
    for (const sort of ['relevance', 'newest'] as const) {
      expect(await found({ query: 'cardamom', role: 'user', sort })).toEqual(everyUser);
      expect(await found({ query: 'cardamom', role: 'user', redact: true, sort })).toEqual(everyUser);
    }
    expect(await found({ query: 'cardamom', role: 'user', provider: 'claude' })).toEqual(['claude user text']);
    expect(await found({ query: '', role: 'user' })).toEqual(everyUser);
    expect(await found({ query: '', role: 'user', provider: 'claude' })).toEqual(['claude user text']);
    expect(await found({ query: 'cardamom', role: 'user', kind: 'tool_result' })).toEqual([]);
    expect(await found({ query: '', role: 'user', kind: 'tool_result' })).toEqual([]);
  });

  it('a tool result’s hit says the role that finds it, and OpenClaw’s own name for it, toolResult, finds the same', async () => {
    const { hits } = await search({ query: 'cardamom', kind: 'tool_result' });
    expect(hits.map((h) => h.role)).toEqual(['tool', 'tool', 'tool']);
    expect(await found({ query: 'cardamom', role: 'toolResult' })).toEqual(everyTool);
    expect(await found({ query: '', role: 'toolResult', provider: 'openclaw' })).toEqual(['openclaw tool tool_result']);
  });

  it('the CLI and the MCP tool offer the same roles, each of which can find something', async () => {
    expect(PART_ROLES).toEqual(['user', 'assistant', 'system', 'tool']);
    expect(SearchTranscriptsInput.shape.role.unwrap().options).toEqual([...PART_ROLES]);
    await temp.close();
    try {
      const cli = await runIn(temp.home.env, 'search', 'cardamom', '--role', 'tool', '--provider', 'claude', '--json');
      expect(cli.code).toBe(0);
      expect((JSON.parse(cli.out) as { hits: Array<{ kind: string }> }).hits.map((h) => h.kind)).toEqual(['tool_result']);
      const user = await runIn(temp.home.env, 'search', 'cardamom', '--role', 'user');
      expect(user.out).not.toContain('Tool output');
    } finally {
      core = temp.open();
    }
  });
});
