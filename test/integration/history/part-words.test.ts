import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { formatSearch } from '../../../core/cli/commands/search.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { readSessionPage } from '../../../core/mcp/session-page.js';
import { coreHome } from '../../support/core.js';
import { openclawLines } from '../../support/transcripts.js';

/**
 * Parts that are neither text nor a tool's: OpenClaw's compaction and branch summaries (the system's
 * turns), Gemini CLI's notices and errors. The panel folds them in a person's words (core/api/part-words.ts);
 * `steward sessions show`, the exports and MCP get_session must say the same, never the kind's name.
 */
const OPENCLAW = 'oc:main:lyon-1';
const GEMINI = 'sess-uuid-3';
const KEPT = 'Kept: the Lyon trip, trains before 9.';

const temp = coreHome('steward-part-words-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const sessions = join(home.dir, 'roots', 'openclaw', 'agents', 'main', 'sessions');
  mkdirSync(sessions, { recursive: true });
  const at = (s: number) => new Date(Date.now() - 60_000 + s * 1_000).toISOString();
  writeFileSync(
    join(sessions, 'lyon-1.jsonl'),
    [
      ...openclawLines('lyon-1', [{ id: 'a0000001', text: 'Plan the Lyon trip' }]),
      { type: 'compaction', id: 'a0000002', parentId: 'a0000001', timestamp: at(1), summary: KEPT, tokensBefore: 48_210 },
      { type: 'branch_summary', id: 'a0000003', parentId: 'a0000002', timestamp: at(2), summary: 'Tried the night train first.' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n') + '\n',
  );
  const gemini = join(home.dir, 'roots', 'gemini');
  const chats = join(gemini, 'tmp', 'abc123def456', 'chats');
  mkdirSync(chats, { recursive: true });
  copyFileSync(fileURLToPath(new URL('../../fixtures/transcripts/gemini/agentsview/system_messages.json', import.meta.url)), join(chats, 'session-2024-01-01T10-00-fixture.json'));
  home.env.STEWARD_OPENCLAW_ROOTS = join(home.dir, 'roots', 'openclaw');
  home.env.STEWARD_GEMINI_ROOTS = gemini;
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

const kinds = async (sessionId: string) => (await core.call('Sessions.Get', { sessionId })).messages.flatMap((m) => m.parts.map((p) => [p.kind, p.summary]));

describe('a part that is not text or a tool’s, outside the panel', () => {
  it('Sessions.Get gives each its line in a person’s words: a notice’s own first line, else its kind’s', async () => {
    expect(await kinds(OPENCLAW)).toEqual([
      ['text', null],
      ['compaction', 'Earlier conversation summarized'],
      ['branch_summary', 'Another branch of the conversation summarized'],
    ]);
    expect(await kinds(GEMINI)).toEqual([
      ['notice', 'Starting session'],
      ['error', 'Some error'],
      ['notice', 'Some warning'],
    ]);
  });

  it('steward sessions show says them as the panel folds them: a compaction summary under its neutral speaker, a branch’s from the System', async () => {
    const text = formatSession(await core.call('Sessions.Get', { sessionId: OPENCLAW }));
    expect(text).toMatch(/── Conversation summary · .*\n {2}\[Summary · Earlier conversation summarized\]/);
    expect(text).toContain('  [Summary · Another branch of the conversation summarized]');
    expect(text).toMatch(/── System · /);
    expect(text).not.toMatch(/\[(compaction|branch_summary)\]|── system/);
    const gemini = formatSession(await core.call('Sessions.Get', { sessionId: GEMINI }));
    expect(gemini).toContain('  [Notice · Starting session]');
    expect(gemini).toContain('  [Error · Some error]');
    expect(gemini).not.toMatch(/\[(notice|error)\]/);
  });

  it('a Markdown export folds them under the same line, their text kept', async () => {
    const md = (await core.call('Sessions.Export', { sessionId: OPENCLAW, format: 'markdown' })).content;
    expect(md).toContain(`<details><summary>Summary · Earlier conversation summarized</summary>\n\n\`\`\`\n${KEPT}\n\`\`\``);
    expect(md).toMatch(/\n## System · /);
    expect(md).not.toMatch(/\*\*(compaction|branch_summary)\*\*|## system/);
    const gemini = (await core.call('Sessions.Export', { sessionId: GEMINI, format: 'markdown' })).content;
    expect(gemini).toContain('<details><summary>Notice · Starting session</summary>');
    expect(gemini).not.toContain('**notice**');
  });

  it('steward search names a hit by who wrote it and its label, not its role and kind', async () => {
    const notices = formatSearch(await core.call('Search.Query', { query: 'warning', sessionId: GEMINI }));
    expect(notices).toMatch(/ System · Notice: .*warning/i);
    const summaries = formatSearch(await core.call('Search.Query', { query: 'Lyon trains', sessionId: OPENCLAW }));
    // A compaction summary's hit says the one neutral speaker its message has in sessions show (search-summary-label.test.ts).
    expect(summaries).toMatch(/ Conversation summary: /);
    expect(notices + summaries).not.toMatch(/ (system|assistant|user) (notice|compaction|error|tool_use|thinking)\b/);
  });

  it('MCP get_session’s text names each by its label, not its kind', async () => {
    const { text } = await readSessionPage((limit) => core.call('Sessions.Get', { sessionId: OPENCLAW, limit }), 50, undefined, (t) => t);
    // A compaction summary with its text, as a Claude Code one (summary-words.test.ts); a branch's, as the CLI says it.
    expect(text).toContain(`— Conversation summary `);
    expect(text).toContain(`[Summary · Earlier conversation summarized — written by the agent's app, not the person]\n${KEPT}`);
    expect(text).toContain('[Summary · Another branch of the conversation summarized]');
    expect(text).not.toMatch(/\[(compaction|branch_summary)\]/);
  });
});
