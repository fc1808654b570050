import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Which call started a subagent, and what kind it is, as Sessions.Get says them. Only a call that
 * starts subagents (Claude Code's Task/Agent, Gemini CLI's agents, Codex's spawn_agent) claims one,
 * and only when made just before it started; any other subagent is listed by when it started, under
 * no call. A subagent still running (no Task result, no `.meta.json` yet) has the type its Task asked for.
 */
let home: TempHome;
let core: Core;
const base = Date.now() - 3 * 3_600_000;
const at = (seconds: number) => new Date(base + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();

const CWD = '/work/orchard';
const CLAUDE_DIR = () => join(home.dir, 'roots', 'claude', 'projects', '-work-orchard');
const GEMINI_CHATS = () => join(home.dir, 'roots', 'gemini', 'tmp', 'orchard', 'chats');

const task = (sessionId: string, seconds: number, id: string, subagentType: string) =>
  claudeLine({ sessionId, cwd: CWD, ts: at(seconds), type: 'assistant', uuid: `${sessionId}-task-${id}`, content: [{ type: 'tool_use', id, name: 'Task', input: { description: 'review tests', prompt: 'Review test/jitter.test.ts', subagent_type: subagentType } }] });
const read = (sessionId: string, seconds: number) =>
  claudeLine({ sessionId, cwd: CWD, ts: at(seconds), type: 'assistant', uuid: `${sessionId}-read`, content: [{ type: 'tool_use', id: `toolu_${sessionId}_read`, name: 'Read', input: { file_path: `${CWD}/src/upload.ts` } }] });
const asked = (sessionId: string, seconds: number, text: string) => claudeLine({ sessionId, cwd: CWD, ts: at(seconds), uuid: `${sessionId}-ask-${seconds}`, text });
const subagentFile = (sessionId: string, agentId: string, seconds: number) =>
  writeJsonl(join(CLAUDE_DIR(), sessionId, 'subagents', `agent-${agentId}.jsonl`), [
    claudeLine({ sessionId, cwd: CWD, ts: at(seconds), agentId, uuid: `${agentId}-1`, text: 'Review test/jitter.test.ts' }),
    claudeLine({ sessionId, cwd: CWD, ts: at(seconds + 20), agentId, uuid: `${agentId}-2`, type: 'assistant', text: 'Looks good.' }),
  ]);

/** A Gemini CLI chat and its subagent's, in the layout of 2026 (`chats/<parent>/<subagent>.jsonl`). */
function geminiChat(parent: string, child: string, toolName: string, args: Record<string, unknown>, callSeconds: number, childSeconds: number): void {
  const header = (sessionId: string, kind: string, seconds: number) => ({ sessionId, projectHash: 'orchard', startTime: iso(seconds), lastUpdated: iso(seconds), kind, directories: [CWD] });
  const call = { id: `${toolName}-1`, name: toolName, args, result: [{ functionResponse: { id: `${toolName}-1`, name: toolName, response: { output: 'done' } } }], status: 'success', timestamp: iso(callSeconds), displayName: toolName };
  writeJsonl(join(GEMINI_CHATS(), `session-${iso(0).slice(0, 16).replace(':', '-')}-${parent.slice(0, 8)}.jsonl`), [
    header(parent, 'main', 0),
    { id: 'm1', timestamp: iso(1), type: 'user', content: [{ text: 'rename fetchPlots to loadPlots' }] },
    { id: 'm2', timestamp: iso(callSeconds), type: 'gemini', content: 'On it.', model: 'gemini-3-pro', toolCalls: [call] },
    { id: 'm3', timestamp: iso(childSeconds - 1), type: 'info', content: 'Delegating to subagent codebase_investigator' },
    { id: 'm4', timestamp: iso(childSeconds + 60), type: 'gemini', content: 'Renamed in 4 files.', model: 'gemini-3-pro' },
  ]);
  writeJsonl(join(GEMINI_CHATS(), parent, `${child}.jsonl`), [
    header(child, 'subagent', childSeconds),
    { id: 's1', timestamp: iso(childSeconds + 1), type: 'user', content: [{ text: 'Find every caller of fetchPlots' }] },
    { id: 's2', timestamp: iso(childSeconds + 30), type: 'gemini', content: 'Callers: src/ui/map.ts:22.', model: 'gemini-3-flash' },
  ]);
}

const GEMINI_GREP = '92f625c6-1111-48e3-b922-3766d41f9c4c';
const GEMINI_GREP_SUB = 'e4f5a6b7-2222-4e0f-9a1b-2c3d4e5f6a7b';
const GEMINI_CALLED = '7a1b2c3d-3333-48e3-b922-3766d41f9c4c';
const GEMINI_CALLED_SUB = 'e4f5a6b7-4444-4e0f-9a1b-2c3d4e5f6a7b';

beforeAll(async () => {
  home = tempHome('steward-subagent-start-');
  home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'roots', 'claude');
  home.env.STEWARD_GEMINI_ROOTS = join(home.dir, 'roots', 'gemini');
  // A Task call whose subagent is still running: its result and its sidecar are not written yet.
  writeJsonl(join(CLAUDE_DIR(), 'running.jsonl'), [asked('running', 0, 'review the jitter test'), read('running', 5), task('running', 10, 'toolu_T1', 'code-reviewer')]);
  subagentFile('running', 'c9c9c9c', 11);
  // A subagent no Task call started, after other calls: an earlier Read, and a Task from long before.
  writeJsonl(join(CLAUDE_DIR(), 'untasked.jsonl'), [asked('untasked', 0, 'look around'), task('untasked', 5, 'toolu_T2', 'Explore'), asked('untasked', 1_800, 'and now?'), read('untasked', 1_805)]);
  subagentFile('untasked', 'd1d1d1d', 1_810);
  // The subagent's transcript is read before its parent's Task line is written.
  writeJsonl(join(CLAUDE_DIR(), 'late.jsonl'), [asked('late', 0, 'review it')]);
  subagentFile('late', 'e2e2e2e', 11);
  // Gemini: a search made two minutes before the subagent started; and its agent called by its name.
  mkdirSync(GEMINI_CHATS(), { recursive: true });
  writeFileSync(join(GEMINI_CHATS(), '..', '.project_root'), CWD);
  geminiChat(GEMINI_GREP, GEMINI_GREP_SUB, 'search_file_content', { pattern: 'fetchPlots' }, 7, 130);
  geminiChat(GEMINI_CALLED, GEMINI_CALLED_SUB, 'codebase_investigator', { objective: 'Find every caller of fetchPlots' }, 129, 130);
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const subagentsOf = async (sessionId: string) => (await core.call('Sessions.Get', { sessionId })).subagents;

describe('the call that started a subagent', () => {
  it('a running subagent sits under its Task call, typed as the call asked, before any sidecar or result', async () => {
    const page = await core.call('Sessions.Get', { sessionId: 'running' });
    expect(page.subagents).toHaveLength(1);
    expect(page.subagents[0]).toMatchObject({ startedBy: 'cc:running-task-toolu_T1', session: { sessionId: 'running:agent-c9c9c9c', agentType: 'code-reviewer' } });
    // The redacted page reads the same.
    expect((await core.call('Sessions.Get', { sessionId: 'running', redact: true })).subagents[0]).toMatchObject({ startedBy: 'cc:running-task-toolu_T1', session: { agentType: 'code-reviewer' } });
    expect(formatSession(page)).toContain('⤷ subagent code-reviewer running:agent-c9c9c9c');
  });

  it('a Task line written after its subagent’s transcript was read places and types it all the same', async () => {
    expect(await subagentsOf('late')).toMatchObject([{ startedBy: null, session: { sessionId: 'late:agent-e2e2e2e', agentType: null } }]);
    appendJsonl(join(CLAUDE_DIR(), 'late.jsonl'), [task('late', 10, 'toolu_T3', 'code-reviewer')]);
    await core.call('Sweep.Tick', {});
    expect(await subagentsOf('late')).toMatchObject([{ startedBy: 'cc:late-task-toolu_T3', session: { agentType: 'code-reviewer' } }]);
  });

  it('no other call claims a subagent, nor a Task made long before it started: it is listed unplaced, still shown', async () => {
    const page = await core.call('Sessions.Get', { sessionId: 'untasked' });
    // Listed after the message it started after (the Read 5 s before), under no call.
    expect(page.subagents).toMatchObject([{ startedBy: null, startedAfter: 'cc:untasked-read', session: { sessionId: 'untasked:agent-d1d1d1d', agentType: null } }]);
    expect(formatSession(page)).toMatch(/▸ Read: \/work\/orchard\/src\/upload\.ts\n {2}⤷ subagent untasked:agent-d1d1d1d \(2 messages\)/);
  });

  it('a Gemini subagent is not put under a search made before it; its agent called by name claims it and names its type', async () => {
    const grep = await core.call('Sessions.Get', { sessionId: GEMINI_GREP });
    // Listed at its start: after Gemini's "Delegating to subagent" notice, not under the search.
    expect(grep.subagents).toMatchObject([{ startedBy: null, startedAfter: `gm:${GEMINI_GREP}:m3`, session: { sessionId: GEMINI_GREP_SUB } }]);
    const cli = formatSession(grep);
    expect(cli).not.toMatch(/search_file_content.*\n\s*⤷ subagent/);
    expect(cli).toMatch(new RegExp(`Delegating to subagent codebase_investigator\\]\\n {2}⤷ subagent ${GEMINI_GREP_SUB}`));
    const called = await core.call('Sessions.Get', { sessionId: GEMINI_CALLED });
    const callMessage = called.messages.find((m) => m.parts.some((p) => p.toolName === 'codebase_investigator'))!;
    expect(called.subagents).toMatchObject([{ startedBy: callMessage.messageId, session: { sessionId: GEMINI_CALLED_SUB, agentType: 'codebase_investigator' } }]);
  });
});
