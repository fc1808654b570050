import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core, Result } from '../../../core/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { coreHome } from '../../support/core.js';

const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/transcripts/${path}`, import.meta.url));
const CODEX_ROLLOUT = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const CODEX_SESSION = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
const GEMINI_CHAT = 'session-2026-05-22T14-59-92f625c6.jsonl';

const temp = coreHome('steward-tool-results-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const codexDay = join(home.dir, 'roots', 'codex', 'sessions', '2026', '07', '13');
  mkdirSync(codexDay, { recursive: true });
  copyFileSync(fixture(`codex/${CODEX_ROLLOUT}`), join(codexDay, CODEX_ROLLOUT));
  const gemini = join(home.dir, 'roots', 'gemini');
  mkdirSync(join(gemini, 'tmp', 'site', 'chats'), { recursive: true });
  writeFileSync(join(gemini, 'projects.json'), JSON.stringify({ projects: { '/home/ana/src/site': 'site' } }));
  copyFileSync(fixture('gemini/current-session.jsonl'), join(gemini, 'tmp', 'site', 'chats', GEMINI_CHAT));
  home.env.STEWARD_CODEX_ROOTS = join(home.dir, 'roots', 'codex');
  home.env.STEWARD_GEMINI_ROOTS = gemini;
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

type Part = Result<'Sessions.Get'>['messages'][number]['parts'][number];
const results = (page: Result<'Sessions.Get'>): Part[] => page.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result');

describe('a tool result is not a message: the JSON export says which it leaves out', () => {
  // Codex stores each function call output as a message of its own; Gemini CLI a result in its call's message.
  it.each([['codex', 3], ['gemini', 0]] as const)('%s: the entries not marked countsAsMessage: false are as many as the header counts', async (provider, results) => {
    const { sessions } = await core.call('Sessions.List', { provider });
    const doc = JSON.parse((await core.call('Sessions.Export', { sessionId: sessions[0]!.sessionId, format: 'json' })).content) as {
      session: { messages: number };
      messages: Array<{ countsAsMessage?: false; parts: Array<{ kind: string }> }>;
    };
    const left = doc.messages.filter((m) => m.countsAsMessage === false);
    expect(left).toHaveLength(results);
    expect(left.every((m) => m.parts[0]!.kind === 'tool_result')).toBe(true);
    expect(doc.messages.length - left.length).toBe(doc.session.messages);
  });
});

describe('a captured tool result, read', () => {
  it('Codex: Sessions.Get gives the output and exit code of the JSON capture stored, and show and export print them', async () => {
    const page = await core.call('Sessions.Get', { sessionId: CODEX_SESSION });
    const failed = results(page).find((p) => p.toolUseId === 'call_Tt03')!;
    expect(failed).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: 1 failing', output: '1 failing\n  upload retries: expected 5 calls\n' });
    expect(failed.text).toMatch(/^\{"output":/);
    expect(formatSession(page)).toContain('  ◂ exit code 1: 1 failing\n');

    const markdown = (await core.call('Sessions.Export', { sessionId: CODEX_SESSION })).content;
    // The output's trailing blank line is not shown in its code block (stored as written).
    expect(markdown).toContain('**Tool result** (error, exit code 1)\n\n```\n1 failing\n  upload retries: expected 5 calls\n```');
    expect(markdown).toContain('**Tool result** (exit code 0)');
    expect(markdown).not.toContain('"metadata"');
  });

  it('Gemini CLI: a shell result that says "Exit Code: 1" is failed, though Gemini\'s status said success', async () => {
    const { sessions } = await core.call('Sessions.List', { provider: 'gemini' });
    const page = await core.call('Sessions.Get', { sessionId: sessions[0]!.sessionId });
    const shell = results(page).find((p) => p.toolName === 'run_shell_command')!;
    expect(shell).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: 1 failing', text: 'Command: npm test\nExit Code: 1\nOutput: 1 failing' });
    expect(shell.output).toBeUndefined();
    expect(formatSession(page)).toContain('  ◂ exit code 1: 1 failing\n');
  });
});
