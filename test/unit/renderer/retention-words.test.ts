import { describe, expect, it } from 'vitest';
import type { PruneReport } from '../../../core/api/index.js';
import { removalQuestion, removingWindow, wouldRemove } from '../../../renderer/src/places/settings/retention-words.js';

const report = (parts: number, sessions: number, messages: number, conversations: number): PruneReport => ({
  dryRun: true,
  cutoffs: [],
  removedParts: parts,
  removedSessions: sessions,
  removedMessages: messages,
  removedConversations: conversations,
  durationMs: 3,
  complete: true,
});

describe('saving a retention window that would remove stored conversations', () => {
  it('asks only about a positive whole number of days: 0 keeps everything, a wrong value is the schema\'s to refuse', () => {
    expect(removingWindow(400)).toBe(true);
    expect(removingWindow(0)).toBe(false);
    expect(removingWindow(1.5)).toBe(false);
    expect(removingWindow('400')).toBe(false);
    expect(wouldRemove(report(0, 0, 0, 0))).toBe(false);
    expect(wouldRemove(report(53, 16, 40, 12))).toBe(true);
  });

  it('says how many conversations and messages go, and when', () => {
    const question = removalQuestion(400, report(53, 16, 40, 12));
    expect(question).toContain('Save a retention window of 400 days?');
    expect(question).toContain('When Steward next starts');
    expect(question).toContain('older than the window: 12 conversations entirely, 40 messages in all.');
    expect(removalQuestion(400, report(2, 0, 1, 0))).toContain('older than the window: 1 message, from conversations that keep their newer ones.');
  });
});
