import { describe, expect, it } from 'vitest';
import { hitSpeaker, type Result, type SessionMessage, type SessionPart } from '../../../core/api/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { readSessionPage } from '../../../core/mcp/session-page.js';
import { sessionPart } from '../../support/rows.js';

// get_session said each agent's own role for tool output (Claude's user, OpenClaw's toolResult), where
// search_transcripts says tool for every app; and a Gemini thought folded to its line let the next
// text read as the thought's body.

const part = (id: string, kind: string, text: string, over: Partial<SessionPart> = {}): SessionPart => sessionPart({ partId: id, kind, text, ...over });

function resultOf(provider: string, app: string, messages: SessionMessage[]): Result<'Sessions.Get'> {
  return {
    session: { sessionId: `${provider}-s`, projectKey: null, provider, app, title: 'Roles', agentType: null, startedAt: 1_780_000_000_000, lastAt: 1_780_000_000_000, messages: messages.length, parentSessionId: null, parentKind: null, projectName: null, firstRequest: null, model: null, durationMs: null, toolCalls: 1, subagents: 0 },
    messages,
    subagents: [],
  };
}

const page = async (result: Result<'Sessions.Get'>) => readSessionPage(async () => result, 20, undefined, (t) => t);
const TOOL_SPEAKER = hitSpeaker({ role: 'toolResult', kind: 'tool_result', genuineUserTurn: false, isCompactSummary: false }, false, 'OpenClaw', 'agent');

describe('get_session gives tool output one role and one speaker, as search does', () => {
  for (const [provider, app, role] of [
    ['openclaw', 'OpenClaw', 'toolResult'],
    ['codex', 'Codex CLI', 'tool'],
    ['claude', 'Claude Code', 'user'],
  ] as const) {
    it(`${app}: a result stored under role ${role} is role tool, "${TOOL_SPEAKER}"`, async () => {
      const { page: out, text } = await page(
        resultOf(provider, app, [
          { messageId: 'm1', role: 'assistant', ts: 1_780_000_000_000, parts: [part('m1:0', 'tool_use', '{"command":"ls"}', { summary: 'exec: ls', toolName: 'exec' })] },
          { messageId: 'm2', role, ts: 1_780_000_000_001, countsAsMessage: false, parts: [part('m2:0', 'tool_result', 'a.txt')] },
        ]),
      );
      expect(out.messages[1]).toMatchObject({ role: 'tool', speaker: TOOL_SPEAKER });
      expect(text).toContain(`— ${TOOL_SPEAKER} `);
    });
  }

  it('a Claude user message with the person’s words beside a result stays user; the result part says tool', async () => {
    const { page: out } = await page(
      resultOf('claude', 'Claude Code', [{ messageId: 'm1', role: 'user', ts: 1, parts: [part('m1:0', 'tool_result', 'ok'), part('m1:1', 'text', 'stop and use pnpm', { genuineUserTurn: true })] }]),
    );
    expect(out.messages[0]!.role).toBe('user');
    expect(out.messages[0]!.parts.map((p) => p.role)).toEqual(['tool', undefined]);
  });
});

describe('a folded thought and the text after it', () => {
  const gemini = resultOf('gemini', 'Gemini CLI', [
    {
      messageId: 'g1',
      role: 'assistant',
      ts: 1_780_000_000_000,
      parts: [part('g1:t', 'thinking', '**Planning**\nI will look at the suite.', { summary: 'Planning' }), part('g1:x', 'text', "I'll run the test suite first.")],
    },
  ]);

  it('get_session ends the thought’s line and starts the text apart from it', async () => {
    const { text } = await page(gemini);
    const lines = text.split('\n');
    const fold = lines.findIndex((l) => l.startsWith('[Thinking · Planning]'));
    expect(fold).toBeGreaterThan(-1);
    expect(lines[fold + 1]).not.toBe("I'll run the test suite first.");
    expect(text).toContain("I'll run the test suite first.");
  });

  it('steward sessions show already sets the folded line apart', () => {
    const out = formatSession(gemini);
    expect(out).toMatch(/ {2}\[Thinking · Planning\]\nI'll run the test suite first\./);
  });
});
