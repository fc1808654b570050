import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Claude Code starts several subagents from one assistant message: one line per Task call, all before
 * any subagent's first line. Each call's result names the agent it started (`toolUseResult.agentId`,
 * and `agentId: …` in its text), so each subagent sits under its own call, not all under the last one.
 * Until results name them (still running, or an older Claude Code) the nearest call is the rule.
 */
let home: TempHome;
let core: Core;
const base = Date.now() - 3 * 3_600_000;
const at = (seconds: number) => new Date(base + seconds * 1000);

const CWD = '/work/orchard';
const CLAUDE_DIR = () => join(home.dir, 'roots', 'claude', 'projects', '-work-orchard');
const CALLS = [
  { id: 'toolu_F1', type: 'Explore' },
  { id: 'toolu_F2', type: 'code-reviewer' },
  { id: 'toolu_F3', type: 'general-purpose' },
];

/** The three calls of one assistant message (`msg_fan`), a line each, as Claude Code writes them. */
const calls = (sessionId: string) =>
  CALLS.map((c, i) => {
    const content = [{ type: 'tool_use', id: c.id, name: 'Task', input: { description: `survey ${i + 1}`, prompt: `Survey bed ${i + 1}`, subagent_type: c.type } }];
    const line = claudeLine({ sessionId, cwd: CWD, ts: new Date(at(10).getTime() + i), type: 'assistant', uuid: `${sessionId}-task-${c.id}`, content });
    return { ...line, message: { id: 'msg_fan', role: 'assistant', model: 'claude-opus-4-5', content } };
  });

/** A Task result as Claude Code writes it: the agent's answer, then its id and usage in the text, and in toolUseResult. */
const result = (sessionId: string, seconds: number, callId: string, agentId: string) =>
  claudeLine({
    sessionId,
    cwd: CWD,
    ts: at(seconds),
    uuid: `${sessionId}-result-${callId}`,
    content: [
      {
        type: 'tool_result',
        tool_use_id: callId,
        content: [
          { type: 'text', text: `Bed surveyed; agentId: zzzzzzz was mentioned in the notes.` },
          { type: 'text', text: `agentId: ${agentId} (for resuming to continue this agent's work if needed)\n<usage>total_tokens: 1200\ntool_uses: 3\nduration_ms: 4000</usage>` },
        ],
      },
    ],
    extra: { toolUseResult: { status: 'completed', prompt: 'Survey', agentId, content: [{ type: 'text', text: 'Bed surveyed.' }], totalDurationMs: 4000, totalTokens: 1200, totalToolUseCount: 3 } },
  });

/** The subagents' transcripts, each started after all three calls, in the order of their ids. */
function subagents(sessionId: string): void {
  ['a111111', 'a222222', 'a333333'].forEach((agentId, i) =>
    writeJsonl(join(CLAUDE_DIR(), sessionId, 'subagents', `agent-${agentId}.jsonl`), [
      claudeLine({ sessionId, cwd: CWD, ts: at(11 + i), agentId, uuid: `${sessionId}-${agentId}-1`, text: `Survey bed of ${agentId}` }),
      claudeLine({ sessionId, cwd: CWD, ts: at(30 + i), agentId, uuid: `${sessionId}-${agentId}-2`, type: 'assistant', text: 'Bed surveyed.' }),
    ]),
  );
}

/** Which call's message each subagent is listed under, by agent id. */
const FINISHED = 'a0a0a0a0-0000-4000-8000-00000000fa01';
const RUNNING = 'a0a0a0a0-0000-4000-8000-00000000fa02';
const HALF = 'a0a0a0a0-0000-4000-8000-00000000fa03';
const ask = (sessionId: string) => claudeLine({ sessionId, cwd: CWD, ts: at(0), uuid: `${sessionId}-ask`, text: 'survey the three seed beds' });
const callMessage = (sessionId: string, callId: string) => `cc:${sessionId}-task-${callId}`;

beforeAll(async () => {
  home = tempHome('steward-parallel-subagents-');
  home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'roots', 'claude');
  // Every result written; the calls started the agents out of their ids' order.
  writeJsonl(join(CLAUDE_DIR(), `${FINISHED}.jsonl`), [
    ask(FINISHED),
    ...calls(FINISHED),
    result(FINISHED, 40, 'toolu_F3', 'a111111'),
    result(FINISHED, 41, 'toolu_F1', 'a222222'),
    result(FINISHED, 42, 'toolu_F2', 'a333333'),
    claudeLine({ sessionId: FINISHED, cwd: CWD, ts: at(50), uuid: `${FINISHED}-done`, type: 'assistant', text: 'All three beds surveyed.' }),
  ]);
  subagents(FINISHED);
  // No result written yet: the nearest call, as before.
  writeJsonl(join(CLAUDE_DIR(), `${RUNNING}.jsonl`), [ask(RUNNING), ...calls(RUNNING)]);
  subagents(RUNNING);
  // One result written (the last call's, naming a333333): the others are not put under that call.
  writeJsonl(join(CLAUDE_DIR(), `${HALF}.jsonl`), [ask(HALF), ...calls(HALF), result(HALF, 40, 'toolu_F3', 'a333333')]);
  subagents(HALF);
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
}, 60_000);

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

async function exportedJson(sessionId: string): Promise<{ subagents: Array<{ startedBy: string | null; session: { sessionId: string } }> }> {
  const first = await core.call('Sessions.Export', { sessionId, format: 'json' });
  const pieces = [first.content];
  for (let next = first.next; next !== null; ) {
    const piece = await core.call('Sessions.ExportNext', { next });
    pieces.push(piece.content);
    next = piece.next;
  }
  return JSON.parse(pieces.join('')) as { subagents: Array<{ startedBy: string | null; session: { sessionId: string } }> };
}

describe('parallel Task calls', () => {
  it('each subagent sits under the call whose result names it, typed as that call asked', async () => {
    const page = await core.call('Sessions.Get', { sessionId: FINISHED });
    expect(page.subagents).toMatchObject([
      { startedBy: callMessage(FINISHED, 'toolu_F3'), session: { sessionId: `${FINISHED}:agent-a111111`, agentType: 'general-purpose' } },
      { startedBy: callMessage(FINISHED, 'toolu_F1'), session: { sessionId: `${FINISHED}:agent-a222222`, agentType: 'Explore' } },
      { startedBy: callMessage(FINISHED, 'toolu_F2'), session: { sessionId: `${FINISHED}:agent-a333333`, agentType: 'code-reviewer' } },
    ]);
    // The redacted page places them the same.
    const redacted = await core.call('Sessions.Get', { sessionId: FINISHED, redact: true });
    expect(redacted.subagents.map((s) => s.startedBy)).toEqual(page.subagents.map((s) => s.startedBy));
  });

  it('steward sessions show lists each under its own call', async () => {
    const text = formatSession(await core.call('Sessions.Get', { sessionId: FINISHED }));
    expect(text).toMatch(/survey 1.*\n {2}⤷ subagent Explore [^\n]*:agent-a222222/);
    expect(text).toMatch(/survey 2.*\n {2}⤷ subagent code-reviewer [^\n]*:agent-a333333/);
    expect(text).toMatch(/survey 3.*\n {2}⤷ subagent general-purpose [^\n]*:agent-a111111/);
  });

  it('the JSON export says the same startedBy', async () => {
    const doc = await exportedJson(FINISHED);
    expect(doc.subagents.map((s) => [s.session.sessionId, s.startedBy])).toEqual([
      [`${FINISHED}:agent-a111111`, callMessage(FINISHED, 'toolu_F3')],
      [`${FINISHED}:agent-a222222`, callMessage(FINISHED, 'toolu_F1')],
      [`${FINISHED}:agent-a333333`, callMessage(FINISHED, 'toolu_F2')],
    ]);
  });

  it('with no result written yet, the nearest call claims them all, as before', async () => {
    const page = await core.call('Sessions.Get', { sessionId: RUNNING });
    expect(page.subagents.map((s) => s.startedBy)).toEqual([callMessage(RUNNING, 'toolu_F3'), callMessage(RUNNING, 'toolu_F3'), callMessage(RUNNING, 'toolu_F3')]);
    expect((await exportedJson(RUNNING)).subagents.map((s) => s.startedBy)).toEqual(page.subagents.map((s) => s.startedBy));
  });

  it('a call whose result names another agent claims only that one; the rest go to the nearest call still unnamed', async () => {
    const page = await core.call('Sessions.Get', { sessionId: HALF });
    expect(page.subagents).toMatchObject([
      { startedBy: callMessage(HALF, 'toolu_F2'), session: { sessionId: `${HALF}:agent-a111111` } },
      { startedBy: callMessage(HALF, 'toolu_F2'), session: { sessionId: `${HALF}:agent-a222222` } },
      { startedBy: callMessage(HALF, 'toolu_F3'), session: { sessionId: `${HALF}:agent-a333333`, agentType: 'general-purpose' } },
    ]);
  });
});
