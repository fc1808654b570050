import { describe, expect, it } from 'vitest';
import type { SearchHit, SessionMessage } from '../../../core/api/index.js';
import {
  conversationOpened,
  conversationToReturnTo,
  forgottenProjectShown,
  forgottenSentence,
  lastForgottenProject,
  openedFromList,
  projectForgotten,
  takeConversationToReturnTo,
} from '../../../renderer/src/places/projects/opened.js';
import { firstNewHit } from '../../../renderer/src/places/search/groups.js';
import { hitLabel } from '../../../renderer/src/places/search/sentences.js';
import { landingMessage, speakerOf } from '../../../renderer/src/places/sessions/reading.js';

const message = (messageId: string): SessionMessage => ({ messageId, role: 'assistant', ts: null, parts: [] });
const hit = (sessionId: string, partId: string): SearchHit => ({ sessionId, partId, projectKey: null, ts: 1, role: 'user', kind: 'text', provider: 'claude', genuineUserTurn: true, isCompactSummary: false, toolName: null, summary: null, snippet: 'x', highlights: [] });

describe('who a conversation’s words are from', () => {
  it('a subagent’s prompt is the main agent’s, not the person’s', () => {
    expect(speakerOf('user', true)).toBe('Main agent');
    expect(speakerOf('user', false)).toBe('You');
    expect(speakerOf('assistant', true)).toBe('Assistant');
    expect(hitLabel({ role: 'user', kind: 'text', toolName: null, genuineUserTurn: false, isCompactSummary: false }, true, 'Claude Code')).toBe('Main agent');
    expect(hitLabel({ role: 'user', kind: 'text', toolName: null, genuineUserTurn: true, isCompactSummary: false }, false, 'Claude Code')).toBe('You');
    // User text capture did not mark as the person's (a command's echo, hook output) is the app's.
    expect(hitLabel({ role: 'user', kind: 'text', toolName: null, genuineUserTurn: false, isCompactSummary: false }, false, 'Claude Code')).toBe('Claude Code');
    expect(hitLabel({ role: 'user', kind: 'text', toolName: null, genuineUserTurn: false, isCompactSummary: false }, false, 'Codex CLI')).toBe('Codex CLI');
  });

  it('a tool’s output found by a search is nobody’s words, though Claude stores it as a user turn', () => {
    expect(hitLabel({ role: 'user', kind: 'tool_result', toolName: null, genuineUserTurn: false, isCompactSummary: false }, false, 'Claude Code')).toBe('Tool output');
    expect(hitLabel({ role: 'toolResult', kind: 'tool_result', toolName: 'exec', genuineUserTurn: false, isCompactSummary: false }, false, 'OpenClaw')).toBe('Tool output exec');
    expect(hitLabel({ role: 'assistant', kind: 'tool_use', toolName: 'Bash', genuineUserTurn: false, isCompactSummary: false }, false, 'Claude Code')).toBe('Assistant · Tool call Bash');
  });
});

describe('where the reader lands after more of a conversation or a search loaded', () => {
  it('later messages: the first new one; a message cut at the page edge is not new', () => {
    expect(landingMessage([message('a'), message('b')], [message('c'), message('d')], 'cursor')).toBe('c');
    expect(landingMessage([message('a'), message('b')], [message('b'), message('c')], 'cursor')).toBe('c');
    expect(landingMessage([message('a'), message('b')], [message('b')], 'cursor')).toBe('b');
  });

  it('earlier messages: the last new one, right before where the reader was', () => {
    expect(landingMessage([message('c'), message('d')], [message('a'), message('b')], 'before')).toBe('b');
    expect(landingMessage([message('c'), message('d')], [message('a'), message('b'), message('c')], 'before')).toBe('b');
    expect(landingMessage([message('c')], [], 'before')).toBeUndefined();
  });

  it('more matches: the first new hit as the results show it, a new match of a shown conversation in its group', () => {
    const shown = [hit('s1', 'p1'), hit('s2', 'p2')];
    expect(firstNewHit(shown, [...shown, hit('s3', 'p3'), hit('s1', 'p4')])).toBe('p4');
    expect(firstNewHit(shown, [...shown, hit('s3', 'p3')])).toBe('p3');
    expect(firstNewHit(shown, shown)).toBeUndefined();
  });
});

describe('a project’s view after a conversation or the project itself went away', () => {
  const key = 'p_0123456789abcdef';

  /** A tab's history entry, as the page has it: its state, replaced in place (the address stays). */
  const entry = (state: unknown = null) => {
    const at = { state, replaceState: (next: unknown) => void (at.state = next) };
    return at;
  };

  // QA: Back from a conversation opened from a project's later pages showed the list at its top; kept by the project's own entry, a reload of the conversation keeps it too.
  it('Back from a conversation opened from the project gives that conversation the focus, once: the project’s history entry keeps it', () => {
    const project = entry({ panelDepth: 2 });
    conversationOpened('session-1', project);
    expect(project.state).toEqual({ panelDepth: 2, projectOpened: 'session-1' });
    expect(conversationToReturnTo(project)).toBe('session-1');
    expect(takeConversationToReturnTo(project)).toBe('session-1');
    expect(project.state).toEqual({ panelDepth: 2 });
    expect(conversationToReturnTo(project)).toBeUndefined();
    expect(takeConversationToReturnTo(entry('x'))).toBeUndefined();
  });

  it('a project opened afresh from the list starts at its heading: its entry is a new one', () => {
    conversationOpened('session-1', entry());
    openedFromList(key);
    expect(conversationToReturnTo(entry({ panelDepth: 3 }))).toBeUndefined();
  });

  it('the list says a project was forgotten, until it has said so', () => {
    projectForgotten({ projectKey: key, name: 'kitchen' });
    expect(lastForgottenProject()).toEqual({ projectKey: key, name: 'kitchen' });
    expect(forgottenSentence({ projectKey: key, name: 'kitchen' })).toBe(
      'Forgot kitchen: its conversations and notes were deleted from Steward, and it is not imported again while its transcripts stay on disk.',
    );
    forgottenProjectShown();
    expect(lastForgottenProject()).toBeUndefined();
  });
});
