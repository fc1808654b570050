import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PruneReport } from '../../../core/api/index.js';
import { CacheRetention } from '../../../renderer/src/places/settings/CacheRetention.js';
import { ConfirmRemoval } from '../../../renderer/src/places/settings/ConfirmRemoval.js';
import { pruneWarning } from '../../../core/cli/commands/cache.js';
import { agentRemoved, checkSentence, comeBackWords, removalQuestion, removalSentence, removeLabel, removeQuestion, removingWindow, wouldRemove } from '../../../renderer/src/places/settings/retention-words.js';

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

  // QA: a transcript deleted, then a window saved that removes its conversation: the CLI's dry run said
  // Steward held the only copy, the panel only "2 conversations entirely, 46 messages in all".
  it('says, as the CLI does, how many of the conversations it removes have no transcript left on disk', () => {
    const lost = { ...report(60, 2, 46, 2), lost: 1 };
    const onlyCopy = '1 of them has no transcript left on disk: Steward holds the only copy.';
    expect(removalQuestion(10, lost)).toContain(`older than the window: 2 conversations entirely, 46 messages in all. ${onlyCopy} `);
    expect(pruneWarning(lost)).toContain(onlyCopy);
    expect(removalQuestion(10, { ...lost, lost: 2 })).toContain('2 of them have no transcript left on disk: Steward holds the only copy.');
    for (const none of [report(60, 2, 46, 2), { ...report(60, 2, 46, 2), lost: 0 }]) expect(removalQuestion(10, none)).not.toContain('only copy');
    const html = renderToStaticMarkup(createElement(ConfirmRemoval, { days: 10, report: lost, busy: false, onConfirm: () => undefined, onCancel: () => undefined }));
    expect(html).toContain(onlyCopy);
  });
});

describe('the Cache retention check in Settings', () => {
  const cutoffs = [{ provider: 'claude', cutoffMs: Date.UTC(2025, 11, 3), removedParts: 9 }];
  const checked = { ...report(9, 2, 6, 1), cutoffs };

  it('speaks of messages and whole conversations, never of parts', () => {
    expect(removeLabel(checked)).toBe('Remove 6 messages');
    expect(checkSentence(checked)).toBe('6 messages would go, and with them 1 conversation entirely.');
    expect(removeQuestion(checked)).toBe('Remove 6 messages older than the retention window from the cache, and with them 1 conversation entirely?');
    const some = { ...report(2, 0, 1, 0), cutoffs };
    expect(checkSentence(some)).toBe('1 message would go, from conversations that keep their newer ones.');
    expect(removeLabel(some)).toBe('Remove 1 message');
    for (const words of [removeLabel(checked), checkSentence(checked), removeQuestion(checked), checkSentence(some)]) expect(words).not.toMatch(/\bparts?\b/);
  });

  it('asks before removing with what goes for good: conversations whose transcript is gone', () => {
    expect(removeQuestion({ ...checked, lost: 1 })).toBe('Remove 6 messages older than the retention window from the cache, and with them 1 conversation entirely? 1 of them has no transcript left on disk: Steward holds the only copy.');
    expect(checkSentence({ ...checked, lost: 1 })).toBe('6 messages would go, and with them 1 conversation entirely. 1 of them has no transcript left on disk: Steward holds the only copy.');
  });

  it('says per agent how many messages and whole conversations went (or would go), not "some"', () => {
    expect(agentRemoved({ provider: 'claude', cutoffMs: Date.UTC(2025, 11, 3), removedParts: 9, removedMessages: 6, removedConversations: 1 })).toBe('1 conversation entirely, 6 messages in all');
    expect(agentRemoved({ provider: 'claude', cutoffMs: Date.UTC(2025, 11, 3), removedParts: 2, removedMessages: 1, removedConversations: 0 })).toBe('1 message');
    expect(agentRemoved({ provider: 'codex', cutoffMs: Date.UTC(2025, 11, 3), removedParts: 0, removedMessages: 0, removedConversations: 0 })).toBe('Nothing');
    expect(agentRemoved({ provider: 'codex', cutoffMs: null, removedParts: 0 })).toBe('Nothing');
    // An owner from before removals counted messages.
    expect(agentRemoved({ provider: 'claude', cutoffMs: Date.UTC(2025, 11, 3), removedParts: 9 })).toBe('Some messages');
  });

  it('says what a removal took, in messages and whole conversations', () => {
    const removed: PruneReport = { ...report(9, 2, 6, 1), dryRun: false, durationMs: 12, cutoffs };
    expect(removalSentence(removed)).toBe('Removed in 12 ms: 6 messages, and with them 1 conversation entirely. The cache holds nothing older than the retention window now.');
    expect(removalSentence({ ...removed, removedConversations: 0 })).toBe('Removed in 12 ms: 6 messages, from conversations that keep their newer ones. The cache holds nothing older than the retention window now.');
  });

  it('says when nothing would go, and what a removal left', () => {
    expect(checkSentence({ ...report(0, 0, 0, 0), cutoffs })).toBe('Nothing is older than the retention window: nothing would be removed.');
    expect(checkSentence({ ...report(0, 0, 0, 0), cutoffs: [{ provider: 'claude', cutoffMs: null, removedParts: 0 }] })).toContain('keeps everything');
    // An owner from before a removal counted messages: parts and emptied sessions only.
    const removed: PruneReport = { dryRun: false, cutoffs, removedParts: 9, removedSessions: 2, durationMs: 12, complete: true };
    expect(removalSentence(removed)).toBe('Removed in 12 ms: the cache holds nothing older than the retention window now.');
    expect(removalSentence({ ...removed, complete: false })).toMatch(/^Stopped early after 12 ms \(Steward was shutting down\): the next pass removes the rest/);
    expect(removalSentence({ ...removed, removedParts: 0, removedSessions: 0 })).toBe('Nothing was older than the retention window any more: nothing was removed.');
  });
});

describe('whether removed conversations come back, said the same on Home and in Settings', () => {
  const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|\u2019/g, "'").replace(/\s+/g, ' ').trim();
  const said = (text: string) => text.replace(/\u2019/g, "'");

  it('says what the core does: checks never bring them back, importing everything does, and a saved window removes them again', () => {
    const words = comeBackWords();
    expect(words).toMatch(/^Scheduled checks never import removed conversations again\. /);
    expect(words).toContain('Importing everything (Import earlier history on Projects) brings back those whose transcripts are still in your agents\u2019 folders');
    expect(words).toContain('while a retention window is saved, the clean-up removes them again');
    expect(comeBackWords(true)).toContain('once this window is saved, the clean-up removes them again');
  });

  it('Settings (the retention panel) and the question Home and Settings ask before saving a window both say it', () => {
    const settings = textOf(renderToStaticMarkup(createElement(CacheRetention)));
    expect(settings).toContain(said(comeBackWords()));
    expect(settings).not.toMatch(/come back only if you import everything again/);
    const question = textOf(renderToStaticMarkup(createElement(ConfirmRemoval, { days: 30, report: report(53, 16, 40, 12), busy: false, onConfirm: () => undefined, onCancel: () => undefined })));
    expect(question).toContain(said(comeBackWords(true)));
    expect(question).not.toMatch(/cannot bring them back by itself/);
  });
});
