import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { connectInProcess, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * QA: texts that end (or are made) of blank lines showed them: an OpenClaw error "Request was
 * aborted\n\n" put two blank lines in its code block in a Markdown export, a Gemini error of spaces a
 * whitespace-only line, and an empty tool result an empty line after MCP's "[Result] no output". What
 * is stored stays as written; where it is shown, leading and trailing blank lines are not.
 */
const OPENCLAW = 'oc:main:aborted-1';
const CLAUDE = '5e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b';
const GEMINI = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';

const temp = coreHome('steward-blank-lines-', { shared: true });
let core: Core;
const at = (s: number) => new Date(Date.now() - 60_000 + s * 1_000);

function writeOpenclaw(root: string): void {
  const sessions = join(root, 'agents', 'main', 'sessions');
  mkdirSync(sessions, { recursive: true });
  const message = (id: string, parentId: string | null, s: number, body: Record<string, unknown>) => ({ type: 'message', id, parentId, timestamp: at(s).toISOString(), message: { ...body, timestamp: at(s).getTime() } });
  writeJsonl(join(sessions, 'aborted-1.jsonl'), [
    { type: 'session', version: 3, id: 'aborted-1', timestamp: at(0).toISOString(), cwd: '/home/sam/claw' },
    message('c0000001', null, 1, { role: 'user', content: [{ type: 'text', text: 'book the flight' }] }),
    message('c0000002', 'c0000001', 2, { role: 'assistant', api: 'anthropic-messages', provider: 'anthropic', model: 'claude-opus-4-5', content: [{ type: 'text', text: '' }], stopReason: 'error', errorMessage: 'Request was aborted\n\n' }),
  ]);
}

function writeClaude(root: string): void {
  const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'true' } };
  writeJsonl(join(root, 'projects', '-work-blank', `${CLAUDE}.jsonl`), [
    claudeLine({ sessionId: CLAUDE, cwd: '/work/blank', ts: at(1), text: 'run true' }),
    claudeLine({ sessionId: CLAUDE, cwd: '/work/blank', ts: at(2), type: 'assistant', content: [toolUse] }),
    claudeLine({ sessionId: CLAUDE, cwd: '/work/blank', ts: at(3), content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '' }] }),
    claudeLine({ sessionId: CLAUDE, cwd: '/work/blank', ts: at(4), type: 'assistant', text: 'done' }),
  ]);
}

function writeGemini(root: string): void {
  const chats = join(root, 'tmp', 'blankhash', 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(root, 'tmp', 'blankhash', '.project_root'), '/work/gem');
  writeJsonl(join(chats, 'session-2026-05-22T14-59-3c4d5e6f.jsonl'), [
    { sessionId: GEMINI, projectHash: 'blankhash', startTime: at(0).toISOString(), lastUpdated: at(2).toISOString(), kind: 'main' },
    { id: 'g1', timestamp: at(1).toISOString(), type: 'user', content: [{ text: 'hello' }] },
    { id: 'g2', timestamp: at(2).toISOString(), type: 'error', content: '  ' },
  ]);
}

beforeAll(async () => {
  const { home } = temp;
  for (const [name, write] of [['openclaw', writeOpenclaw], ['claude', writeClaude], ['gemini', writeGemini]] as const) {
    const root = join(home.dir, 'roots', name);
    write(root);
    home.env[`STEWARD_${name.toUpperCase()}_ROOTS`] = root;
  }
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

const exported = async (sessionId: string) => (await core.call('Sessions.Export', { sessionId, format: 'markdown' })).content;

describe('blank lines of a text, where it is shown', () => {
  it('stay stored as written', async () => {
    const { messages } = await core.call('Sessions.Get', { sessionId: OPENCLAW });
    expect(messages.flatMap((m) => m.parts).find((p) => p.kind === 'error')?.text).toBe('Request was aborted\n\n');
  });

  it('a Markdown export: an error’s code block holds no blank line before or after its words', async () => {
    expect(await exported(OPENCLAW)).toMatch(/\n(`{3,})\nRequest was aborted\n\1\n/);
    const gemini = await exported(GEMINI);
    // Nothing to show: no code block, and no whitespace-only line; said folded, as an empty error is.
    expect(gemini).not.toMatch(/\n[ \t]+\n/);
    expect(gemini).toMatch(/## System · [^\n]*\n\n_\[Error · [^\n]*\]_\n/);
  });

  it('MCP get_session: an empty tool result adds no line after "[Result] no output"', async () => {
    const client = await connectInProcess(core, { home: temp.home.dir, stewardHome: temp.home.dir });
    try {
      const result = (await client.callTool({ name: 'get_session', arguments: { session_id: CLAUDE } })) as ToolResult;
      const text = result.content[0]!.text!;
      expect(text).toMatch(/\[Result\] [^\n]*\n— Assistant/);
    } finally {
      await client.close();
    }
  });
});
