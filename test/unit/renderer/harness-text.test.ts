import { describe, expect, it } from 'vitest';
import { harnessLine, messageSpeaker as cliSpeaker, type SessionMessage, type SessionPart } from '../../../core/api/index.js';
import { harnessFold, messageSpeaker } from '../../../renderer/src/places/sessions/reading.js';
import { sessionPart } from '../../support/rows.js';

const part = (o: Partial<SessionPart>): SessionPart => sessionPart({ partId: 'cc:x:0', text: 'words', ...o });
const user = (...parts: SessionPart[]): SessionMessage => ({ messageId: 'cc:x', role: 'user', ts: null, parts });

const typed = part({ text: 'How warm should it stay?', genuineUserTurn: true });
const echo = part({ text: '<command-name>/clear</command-name>', slashCommand: '/clear', summary: '/clear' });
const output = part({ text: '<local-command-stdout>Cleared</local-command-stdout>', summary: 'Cleared' });
const compacted = part({ text: 'This session is being continued…', summary: 'This session is being continued…', isCompactSummary: true });
const result = part({ kind: 'tool_result', text: 'ok', summary: '1 line: ok' });

describe('user text the person did not write, in the session viewer', () => {
  it('folds as what it is, never as the person’s words', () => {
    expect(harnessFold(typed, 'user', false, 'Claude Code')).toBeUndefined();
    expect(harnessFold(echo, 'user', false, 'Claude Code')).toEqual({ label: 'Command', summary: '/clear' });
    expect(harnessFold(compacted, 'user', false, 'Claude Code')).toEqual({ label: 'Summary', summary: 'Earlier conversation summarized' });
    expect(harnessFold(output, 'user', false, 'Claude Code')).toEqual({ label: 'Claude Code', summary: 'Cleared' });
    // The app is the session's: Claude Desktop's sessions are the Claude provider's too.
    expect(harnessFold(output, 'user', false, 'Claude Desktop')).toEqual({ label: 'Claude Desktop', summary: 'Cleared' });
    // The assistant's text, and tool parts, are not user text.
    expect(harnessFold(part({ text: 'Keep it warm.' }), 'assistant', false, 'Claude Code')).toBeUndefined();
    expect(harnessFold(result, 'user', false, 'Claude Code')).toBeUndefined();
  });

  it('a subagent’s prompt stays the main agent’s words; only a compaction summary folds there', () => {
    expect(harnessFold(part({ text: 'List the sensors' }), 'user', true, 'Claude Code')).toBeUndefined();
    expect(harnessFold(compacted, 'user', true, 'Claude Code')?.label).toBe('Summary');
  });

  it('a message of only the app’s text (and tool output) is the app’s turn, not “You”', () => {
    expect(messageSpeaker(user(echo), false, 'Claude Code')).toEqual({ who: 'Claude Code', kind: 'harness' });
    expect(messageSpeaker(user(output, result), false, 'Claude Code')).toEqual({ who: 'Claude Code', kind: 'harness' });
    // A compaction summary is no one's turn, the app's no more than the person's: part-words' neutral speaker.
    expect(messageSpeaker(user(compacted), false, 'Claude Code')).toEqual({ who: 'Conversation summary', kind: 'summary' });
    expect(messageSpeaker(user(typed, output), false, 'Claude Code')).toEqual({ who: 'You', kind: 'turn' });
    expect(messageSpeaker(user(result), false, 'Claude Code')).toEqual({ who: 'Tool result', kind: 'tool' });
    expect(messageSpeaker(user(part({ text: 'List the sensors' })), true, 'Claude Code')).toEqual({ who: 'Main agent', kind: 'turn' });
  });

  it('the CLI and MCP say the same as the panel', () => {
    expect(harnessLine(echo, 'user', false, 'Claude Code')).toBe('Command /clear');
    expect(harnessLine(output, 'user', false, 'Claude Code')).toBe('Claude Code: Cleared');
    expect(harnessLine(compacted, 'user', false, 'Claude Code')).toBe('Summary · Earlier conversation summarized');
    expect(harnessLine(typed, 'user', false, 'Claude Code')).toBeUndefined();
    expect(harnessLine(part({ text: 'List the sensors' }), 'user', true, 'Claude Code')).toBeUndefined();
  });

  it('the panel and the CLI tell whose words a message holds by one rule, in the same words (the person is "You" in both)', () => {
    const messages: Array<[SessionMessage, boolean]> = [
      [user(echo), false],
      [user(output, result), false],
      [user(compacted), true],
      [user(compacted), false],
      [user(typed, output), false],
      [user(result), false],
      [user(part({ text: 'List the sensors' })), true],
      [{ ...user(part({ text: 'Done.' })), role: 'assistant' }, false],
      // A message whose parts were all forgotten or withheld is nobody's tool output.
      [user(), false],
    ];
    for (const [message, inSubagent] of messages) expect(cliSpeaker(message, inSubagent, 'Claude Code')).toBe(messageSpeaker(message, inSubagent, 'Claude Code').who);
    expect(messageSpeaker(user(), false, 'Claude Code')).toEqual({ who: 'You', kind: 'turn' });
  });
});
