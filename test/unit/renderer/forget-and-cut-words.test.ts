import { describe, expect, it } from 'vitest';
import { forgettingSentence, liftedSentence } from '../../../renderer/src/places/projects/opened.js';
import { cutSentence } from '../../../renderer/src/places/sessions/reading.js';

describe('the words under a part stored cut short', () => {
  it('says how much was kept of how much, in characters, not "the first part"', () => {
    const sentence = cutSentence(8000, 19517);
    expect(sentence).toMatch(/8,000/);
    expect(sentence).toMatch(/19,517/);
    expect(sentence).not.toMatch(/\bpart\b/);
  });
});

describe('what Unforget says', () => {
  it('a lifted conversation or project is no longer forgotten', () => {
    expect(liftedSentence('session', true)).toBe('This conversation is no longer forgotten.');
    expect(liftedSentence('project', true)).toBe('This project is no longer forgotten.');
  });

  it('one lifted elsewhere meanwhile is said so, not as a failure', () => {
    expect(liftedSentence('session', false)).toBe('Nothing to unforget: this conversation is not forgotten.');
  });
});

describe('forgetting a large project, while it runs', () => {
  it('says how many of its conversations are gone so far, and only that it began before the first count', () => {
    expect(forgettingSentence(undefined)).toBe('Forgetting…');
    expect(forgettingSentence({ kind: 'project', id: 'p_1', sessionsDone: 0, sessionsTotal: 0, removedParts: 0, complete: false })).toBe('Forgetting…');
    expect(forgettingSentence({ kind: 'project', id: 'p_1', sessionsDone: 1200, sessionsTotal: 30001, removedParts: 4800, complete: false })).toMatch(/^Forgetting… 1,200 of 30,001 conversations and subagents deleted so far\.$/);
  });
});
