import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { coreHome } from '../../support/core.js';
import { connectInProcess, type ToolResult } from '../../support/mcp.js';

/**
 * An empty text block, as OpenClaw stores a turn that failed before the model wrote anything
 * (`content:[{"type":"text","text":""}]`, `stopReason:"error"`, its `errorMessage`), and as any agent
 * may store a turn with no words: no reader shows it as an empty paragraph. The part stays stored,
 * and in Sessions.Get's JSON; a message of nothing else says it is empty, in words.
 */
const SESSION = 'oc:main:empty-1';
const FAILED = '529 overloaded_error: Overloaded';

const temp = coreHome('steward-empty-text-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const sessions = join(home.dir, 'roots', 'openclaw', 'agents', 'main', 'sessions');
  mkdirSync(sessions, { recursive: true });
  const at = (s: number) => new Date(Date.now() - 60_000 + s * 1_000);
  const message = (id: string, parentId: string | null, s: number, body: Record<string, unknown>) => ({
    type: 'message',
    id,
    parentId,
    timestamp: at(s).toISOString(),
    message: { ...body, timestamp: at(s).getTime() },
  });
  const assistant = { role: 'assistant', api: 'anthropic-messages', provider: 'anthropic', model: 'claude-opus-4-5' };
  writeFileSync(
    join(sessions, 'empty-1.jsonl'),
    [
      { type: 'session', version: 3, id: 'empty-1', timestamp: at(0).toISOString(), cwd: '/home/sam/claw' },
      message('b0000001', null, 1, { role: 'user', content: [{ type: 'text', text: 'book the flight' }] }),
      message('b0000002', 'b0000001', 2, { ...assistant, content: [{ type: 'text', text: '' }], stopReason: 'error', errorMessage: FAILED }),
      message('b0000003', 'b0000002', 3, { role: 'user', content: [{ type: 'text', text: 'try again' }] }),
      message('b0000004', 'b0000003', 4, { ...assistant, content: [{ type: 'text', text: ' \n ' }], stopReason: 'stop' }),
      message('b0000005', 'b0000004', 5, { role: 'user', content: [{ type: 'text', text: 'still there?' }] }),
    ]
      .map((line) => JSON.stringify(line))
      .join('\n') + '\n',
  );
  home.env.STEWARD_OPENCLAW_ROOTS = join(home.dir, 'roots', 'openclaw');
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

describe('an empty text part, where a conversation is read', () => {
  it('stays stored, and in Sessions.Get’s JSON', async () => {
    const { messages } = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(messages.map((m) => m.parts.map((p) => [p.kind, p.text]))).toEqual([
      [['text', 'book the flight']],
      [
        ['text', ''],
        ['error', FAILED],
      ],
      [['text', 'try again']],
      [['text', ' \n ']],
      [['text', 'still there?']],
    ]);
  });

  it('steward sessions show: no empty line before the error; a message of nothing else says it is empty', async () => {
    const text = formatSession(await core.call('Sessions.Get', { sessionId: SESSION }));
    expect(text).toMatch(/── Assistant · [^\n]*\n {2}\[Error · 529 overloaded_error: Overloaded\]\n/);
    expect(text).toMatch(/── Assistant · [^\n]*\n {2}\[Empty message · No text was written\]\n\n── You/);
    // No message's lines hold a blank (or whitespace-only) line between its header and the next message.
    expect(text).not.toMatch(/── [^\n]*\n[ \t]*\n/);
  });

  it('a Markdown export: no empty paragraph before the error; a message of nothing else says it is empty', async () => {
    const md = (await core.call('Sessions.Export', { sessionId: SESSION, format: 'markdown' })).content;
    expect(md).toMatch(/## Assistant · [^\n]*\n\n<details><summary>Error · 529 overloaded_error: Overloaded<\/summary>/);
    expect(md).toMatch(/## Assistant · [^\n]*\n\n_\[Empty message · No text was written\]_\n/);
    expect(md).not.toMatch(/## Assistant · [^\n]*\n\n[ \t]*\n/);
  });

  it('MCP get_session: no empty line before the error; a message of nothing else says it is empty', async () => {
    const client = await connectInProcess(core, { home: temp.home.dir, stewardHome: temp.home.dir });
    try {
      const result = (await client.callTool({ name: 'get_session', arguments: { session_id: SESSION } })) as ToolResult;
      const text = result.content[0]!.text!;
      expect(text).toMatch(/— Assistant [^\n]*\n\[Error · 529 overloaded_error: Overloaded\]/);
      expect(text).toMatch(/— Assistant [^\n]*\n\[Empty message · No text was written\]\n— User/);
      expect(text).not.toMatch(/— [^\n]*\n[ \t]*\n/);
    } finally {
      await client.close();
    }
  });
});
