import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionMessage, SessionSubagent, SessionSummary } from '../../../core/api/index.js';
import { Conversation } from '../../../renderer/src/places/sessions/Conversation.js';

/**
 * Where the panel lists a subagent: inside the message whose call started it; one no call started
 * after the message it started after, outside it (under no call); one whose start is unknown, last.
 */
const message = (id: string, ts: number, text: string): SessionMessage => ({
  messageId: id,
  role: 'assistant',
  ts,
  parts: [{ partId: `${id}:0`, kind: 'text', text, summary: null, toolName: null, toolUseId: null, isError: false, truncatedFrom: null, image: null, genuineUserTurn: false, isCompactSummary: false, slashCommand: null }],
});

const summary = (sessionId: string, agentType: string | null): SessionSummary => ({
  sessionId,
  projectKey: null,
  provider: 'gemini',
  app: 'Gemini CLI',
  title: `Asked of ${sessionId}`,
  agentType,
  startedAt: 2,
  lastAt: 3,
  messages: 2,
  parentSessionId: 'parent',
  parentKind: 'subagent',
  projectName: null,
  firstRequest: null,
  model: null,
  durationMs: 1,
  toolCalls: 0,
  subagents: 0,
});

const sub = (sessionId: string, placed: Pick<SessionSubagent, 'startedBy' | 'startedAfter'>, agentType: string | null = null): SessionSubagent => ({ session: summary(sessionId, agentType), ...placed });

describe('subagents in a conversation', () => {
  it('one no call started is listed after the message it started after, not inside it; one a call started, inside its message', () => {
    const html = renderToStaticMarkup(
      createElement(Conversation, {
        messages: [message('gm:p:m2', 1, 'I searched for fetchPlots.'), message('gm:p:m3', 2, 'Delegating now.'), message('gm:p:m4', 5, 'Renamed in 4 files.')],
        subagents: [sub('unplaced-sub', { startedBy: null, startedAfter: null }), sub('timed-sub', { startedBy: null, startedAfter: 'gm:p:m3' }), sub('called-sub', { startedBy: 'gm:p:m4', startedAfter: null }, 'codebase_investigator')],
        hitPartId: undefined,
        app: 'Gemini CLI',
      }),
    );
    const at = (text: string) => html.indexOf(text);
    // The search's message closes before the timed subagent; it comes after the message it followed.
    expect(at('Asked of timed-sub')).toBeGreaterThan(at('Delegating now.'));
    const between = html.slice(at('Delegating now.'), at('Asked of timed-sub'));
    expect(between).toContain('</article>');
    expect(at('Asked of timed-sub')).toBeLessThan(at('Renamed in 4 files.'));
    // The called one sits inside its message's article, with its type.
    const called = html.slice(at('Renamed in 4 files.'), at('Asked of called-sub'));
    expect(called).not.toContain('</article>');
    expect(html).toContain('Subagent codebase_investigator');
    // One with no known start is still listed, last.
    expect(at('Asked of unplaced-sub')).toBeGreaterThan(at('Asked of called-sub'));
  });
});
