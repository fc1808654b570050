import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { readSessionPage } from '../../../core/mcp/session-page.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, openclawLines, writeJsonl } from '../../support/transcripts.js';

/**
 * A compaction summary, an image and a thought from Claude Code, Codex CLI and OpenClaw, each stored
 * its own way (Claude's user text marked isCompactSummary, Codex's `compacted` line, OpenClaw's
 * `compaction` entry). `steward sessions show` and MCP get_session must say each the same way for every
 * agent, in core/api/part-words.ts's words: the summary under one neutral speaker, with its text.
 */
const CLAUDE = 'cafe0000-aaaa-4222-8333-444455556666';
const CODEX = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
const OPENCLAW = 'oc:main:lyon-2';
const CLAUDE_SUMMARY = 'This session is being continued from a previous conversation.\nSummary: the uploader retries five times.';
const CODEX_SUMMARY = 'The user asked for exponential backoff in upload()';
const OPENCLAW_SUMMARY = 'Kept: the Lyon trip, trains before 9.';
const PNG = Buffer.alloc(27, 7).toString('base64');

const temp = coreHome('steward-summary-words-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const at = (s: number) => new Date(Date.now() - 600_000 + s * 1_000);
  const line = (n: number, o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts' | 'uuid'>) =>
    claudeLine({ sessionId: CLAUDE, cwd: '/work/uploader', ts: at(n), uuid: `cafe0000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`, ...o });
  const claudeRoot = join(home.dir, 'claude');
  writeJsonl(join(claudeRoot, 'projects', '-work-uploader', `${CLAUDE}.jsonl`), [
    line(1, { text: 'Make the uploader retry' }),
    line(2, { type: 'assistant', content: [{ type: 'thinking', thinking: 'Looking at upload.ts first.' }, { type: 'text', text: 'On it.' }] }),
    line(3, { content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, { type: 'text', text: 'This is the error I see' }] }),
    line(4, { text: CLAUDE_SUMMARY, extra: { isCompactSummary: true, isVisibleInTranscriptOnly: true } }),
  ]);
  // The Codex fixture, moved to yesterday so no retention window leaves it out.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const rollout = readFileSync(fileURLToPath(new URL(`../../fixtures/transcripts/codex/rollout-2026-07-13T18-41-30-${CODEX}.jsonl`, import.meta.url)), 'utf8');
  const codexDir = join(home.dir, 'codex', 'sessions', '2026', '07', '13');
  mkdirSync(codexDir, { recursive: true });
  writeFileSync(join(codexDir, `rollout-2026-07-13T18-41-30-${CODEX}.jsonl`), rollout.replaceAll('2026-07-13T', `${yesterday}T`));
  const sessions = join(home.dir, 'openclaw', 'agents', 'main', 'sessions');
  mkdirSync(sessions, { recursive: true });
  writeJsonl(join(sessions, 'lyon-2.jsonl'), [
    ...openclawLines('lyon-2', [{ id: 'b0000001', text: 'Plan the Lyon trip' }]),
    { type: 'compaction', id: 'b0000002', parentId: 'b0000001', timestamp: at(5).toISOString(), summary: OPENCLAW_SUMMARY, tokensBefore: 48_210 },
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = claudeRoot;
  home.env.STEWARD_CODEX_ROOTS = join(home.dir, 'codex');
  home.env.STEWARD_OPENCLAW_ROOTS = join(home.dir, 'openclaw');
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

const SUMMARIES: Array<[string, string]> = [
  [CLAUDE, 'Summary: the uploader retries five times.'],
  [CODEX, CODEX_SUMMARY],
  [OPENCLAW, OPENCLAW_SUMMARY],
];

/** The block of a printed or MCP transcript that holds `text`: from its speaker's line to the next. */
function blockHolding(out: string, text: string, header: RegExp): string {
  const blocks = out.split(header);
  const found = blocks.find((b) => b.includes(text));
  if (found === undefined) throw new Error(`no block holds ${text}`);
  return found;
}

describe('a compaction summary reads the same for every agent', () => {
  it('steward sessions show puts it under one neutral speaker, folded as a summary', async () => {
    const speakers = new Set<string>();
    for (const [sessionId] of SUMMARIES) {
      const text = formatSession(await core.call('Sessions.Get', { sessionId }));
      const block = blockHolding(text, '[Summary · Earlier conversation summarized]', /\n\n(?=── )/);
      speakers.add(/^── (.*) · /.exec(block)![1]!);
    }
    expect([...speakers]).toEqual(['Conversation summary']);
  });

  it('MCP get_session gives its text for every agent, under the same speaker and line', async () => {
    for (const [sessionId, summary] of SUMMARIES) {
      const { text, page } = await readSessionPage((limit) => core.call('Sessions.Get', { sessionId, limit }), 50, undefined, (t) => t);
      const block = blockHolding(text, summary, /\n(?=— )/);
      expect(block, sessionId).toMatch(/^— Conversation summary /);
      expect(block, sessionId).toContain('[Summary · Earlier conversation summarized');
      const message = page.messages.find((m) => m.parts.some((p) => p.text?.includes(summary)))!;
      expect(message.speaker, sessionId).toBe('Conversation summary');
      expect(message.parts[0]!.harness, sessionId).toMatch(/^Summary · Earlier conversation summarized/);
    }
  });
});

describe('images and thoughts read the same on every surface', () => {
  it('steward sessions show and MCP get_session say an image and a thought in part-words’ words', async () => {
    const cli = formatSession(await core.call('Sessions.Get', { sessionId: CLAUDE }));
    const { text: mcp } = await readSessionPage((limit) => core.call('Sessions.Get', { sessionId: CLAUDE, limit }), 50, undefined, (t) => t);
    for (const out of [cli, mcp]) {
      expect(out).toContain('[Image · PNG, 27 bytes]');
      expect(out).toContain('[Thinking · Looking at upload.ts first.]');
      expect(out).not.toMatch(/\(thinking\)|\[Thinking\]|\[Image\]|image \(image\/png\)/);
    }
    const codexCli = formatSession(await core.call('Sessions.Get', { sessionId: CODEX }));
    const { text: codexMcp } = await readSessionPage((limit) => core.call('Sessions.Get', { sessionId: CODEX, limit }), 50, undefined, (t) => t);
    // The model's Markdown bold is read as words in the fold's line (part-words' plainLine).
    for (const out of [codexCli, codexMcp]) expect(out).toMatch(/\[Thinking · Reading upload\.ts\]/);
  });
});
