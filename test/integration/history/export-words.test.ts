import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { runIn } from '../../support/cli.js';
import { IDS, writeHistoryFixture } from '../../support/history.js';
import { claudeLine, desktopSession, writeJsonl } from '../../support/transcripts.js';

/**
 * How a Markdown export words what it holds: a patch fenced as a patch, a thought's first line said
 * once, a subagent's section said to be one, the files Gemini CLI added to a prompt in one fold, and
 * the person's turns in the panel's word.
 */
const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/transcripts/${path}`, import.meta.url));
const CODEX_ROLLOUT = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const CODEX_SESSION = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
const GEMINI_SESSION = '3b7e0c2a-5f4d-4e8b-9a1c-6d2e8f0b4c7a';
const ONE_MINUTE = 'c0ffee00-0000-4000-8000-00000000a1a1';

const temp = coreHome('steward-export-words-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const roots = writeHistoryFixture(join(home.dir, 'roots'));
  const codexDay = join(home.dir, 'roots', 'codex', 'sessions', '2026', '07', '13');
  mkdirSync(codexDay, { recursive: true });
  copyFileSync(fixture(`codex/${CODEX_ROLLOUT}`), join(codexDay, CODEX_ROLLOUT));
  const gemini = join(home.dir, 'roots', 'gemini');
  mkdirSync(join(gemini, 'tmp', 'mailer', 'chats'), { recursive: true });
  copyFileSync(fixture('gemini/compressed-session.jsonl'), join(gemini, 'tmp', 'mailer', 'chats', 'session-2026-06-10T08-00-3b7e0c2a.jsonl'));
  desktopSession(join(home.dir, 'roots', 'desktop'), 'cw-frost', 2, 'Sort the seed packets');
  // A question and its answer within one minute.
  const asked = new Date(Date.UTC(2026, 5, 1, 9, 15, 5));
  writeJsonl(join(roots.claudeRoot, 'projects', '-work-minute', `${ONE_MINUTE}.jsonl`), [
    claudeLine({ sessionId: ONE_MINUTE, cwd: '/work/minute', ts: asked, text: 'What time is it?' }),
    claudeLine({ sessionId: ONE_MINUTE, type: 'assistant', cwd: '/work/minute', ts: new Date(asked.getTime() + 20_000), text: 'A quarter past nine.' }),
  ]);
  Object.assign(home.env, { STEWARD_CLAUDE_DESKTOP_ROOTS: join(home.dir, 'roots', 'desktop'), STEWARD_CLAUDE_ROOTS: roots.claudeRoot, STEWARD_OPENCLAW_ROOTS: roots.openclawRoot, STEWARD_CODEX_ROOTS: join(home.dir, 'roots', 'codex'), STEWARD_GEMINI_ROOTS: gemini });
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

const markdown = async (sessionId: string) => (await core.call('Sessions.Export', { sessionId, format: 'markdown' })).content;

describe('a Markdown export’s words', () => {
  it('says the time of a conversation within one minute once', async () => {
    const md = await markdown(ONE_MINUTE);
    expect(md).toContain('- At 2026-06-01 09:15 UTC');
    expect(md).not.toContain('- From 2026-06-01 09:15 UTC to 2026-06-01 09:15 UTC');
  });


  it('fences a patch a tool was given as a diff, and a JSON input as JSON', async () => {
    const md = await markdown(CODEX_SESSION);
    expect(md).toMatch(/```diff\n\*\*\* Begin Patch\n\*\*\* Update File: src\/upload\.ts/);
    expect(md).not.toMatch(/```json\n\*\*\* Begin Patch/);
    const claude = await markdown(IDS.pruning);
    expect(claude).toMatch(/```json\n\{"command":"npm run build:calendar"/);
  });

  it('says a thought’s first line once: in its fold’s line, not again in the body', async () => {
    const claude = await markdown(IDS.pruning);
    const thought = 'The person wants a pruning schedule; dormant season is best.';
    expect(claude).toContain(`Thinking · ${thought}`);
    expect(claude.split(thought)).toHaveLength(2);
    const gemini = await markdown(GEMINI_SESSION);
    expect(gemini).toContain('<details><summary>Thinking · Checking callers</summary>\n\n```\nThe attachment list may be dropped before send().\n```');
  });

  it('heads a subagent’s section as a subagent’s, with its type', async () => {
    const md = await markdown(IDS.pruning);
    expect(md).toMatch(/\n## Subagent \(Explore\): Find the first frost dates for the orchard region\n/);
    expect(md).toMatch(/^# Winter pruning plan\n/);
  });

  it('folds the files Gemini CLI added to a prompt into one block, their text whole and in order', async () => {
    const md = await markdown(GEMINI_SESSION);
    expect(md.match(/Added context/g)).toHaveLength(1);
    expect(md).toMatch(/Added context · [^\n]*@src\/mail\.ts[^\n]*<\/summary>\n\n```\n--- Content from referenced files ---\nContent from @src\/mail\.ts:\nexport function send\(msg: Mail\) \{\n[^`]*\}\n\n--- End of content ---\n```/);
    const shown = formatSession(await core.call('Sessions.Get', { sessionId: GEMINI_SESSION }));
    expect(shown.match(/Added context/g)).toHaveLength(1);
  });

  it('says the person’s turns are theirs in the panel’s word, in an export and in `sessions show` alike', async () => {
    const md = await markdown(IDS.config);
    expect(md).toMatch(/\n## You · /);
    expect(md).not.toMatch(/\n## User · /);
    const shown = formatSession(await core.call('Sessions.Get', { sessionId: IDS.config }));
    expect(shown).toMatch(/── You · /);
    expect(shown).not.toMatch(/── User /);
  });
});

describe('narrowed to Claude Desktop', () => {
  it('Sessions.List and `steward sessions list` take the provider names a search takes', async () => {
    const listed = await core.call('Sessions.List', { provider: 'claude-desktop' });
    expect(listed.sessions.map((s) => [s.sessionId, s.app])).toEqual([['cw-frost', 'Claude Desktop']]);
    expect((await core.call('Sessions.List', { provider: 'claude' })).sessions.map((s) => s.sessionId)).toEqual(expect.arrayContaining(['cw-frost', IDS.pruning]));
    await temp.close();
    const cli = await runIn(temp.home.env, 'sessions', 'list', '--provider', 'claude-desktop');
    expect(cli.err).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.out).toMatch(/^cw-frost /m);
    expect(cli.out).not.toContain(IDS.pruning);
  });
});
