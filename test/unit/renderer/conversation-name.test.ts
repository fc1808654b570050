import { describe, expect, it } from 'vitest';
import { conversationName, formatDuration, formatRelativeTime } from '../../../renderer/src/components/format.js';

describe('what a conversation is called where it is listed and at its top', () => {
  it('its title, whole', () => {
    expect(conversationName({ title: 'Winter pruning plan', firstRequest: 'How should I prune?' })).toBe('Winter pruning plan');
  });

  it('else its first request’s first sentence, or first line', () => {
    expect(conversationName({ title: null, firstRequest: 'Why does parseConfig throw? It worked yesterday. Please look.' })).toBe('Why does parseConfig throw?');
    expect(conversationName({ title: null, firstRequest: 'fix the flaky test in src/app.ts\nit fails one run in ten' })).toBe('fix the flaky test in src/app.ts');
  });

  it('a long first sentence is cut at a word, with an ellipsis', () => {
    const request = `Please ${'refactor the settings loader and '.repeat(8)}then run the tests`;
    const name = conversationName({ title: null, firstRequest: request });
    expect(name.length).toBeLessThanOrEqual(101);
    expect(name.endsWith('…')).toBe(true);
    expect(request.startsWith(name.slice(0, -1))).toBe(true);
    expect(name.slice(0, -1)).not.toMatch(/\s$/);
    // A plain cut at 100 characters would end in "loade": the kept text must stop where a word does.
    expect(request[name.length - 1]).toBe(' ');
    expect(name).toBe('Please refactor the settings loader and refactor the settings loader and refactor the settings…');
  });

  it('says so when there is nothing to call it by', () => {
    expect(conversationName({ title: null, firstRequest: null })).toBe('Untitled conversation');
    expect(conversationName({ title: null, firstRequest: '  ' })).toBe('Untitled conversation');
  });
});

describe('durations and times as a person says them', () => {
  it('leaves out a zero remainder, and rounds 59.6 s up to the next minute', () => {
    expect(formatDuration(3 * 60_000)).toBe('3 min');
    expect(formatDuration(3 * 60_000 + 20_000)).toBe('3 min 20 s');
    expect(formatDuration(2 * 60_000 + 59_600)).toBe('3 min');
    expect(formatDuration(2 * 3_600_000)).toBe('2 h');
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 5 min');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(850)).toBe('850 ms');
  });

  it('says "just now" for the last moments and "in a moment" for the next, which read right after "forgotten" or "next sync"', () => {
    const now = Date.UTC(2026, 11, 2, 12);
    expect(formatRelativeTime(now - 10_000, now)).toBe('just now');
    expect(formatRelativeTime(now, now)).toBe('just now');
    expect(formatRelativeTime(now + 10_000, now)).toBe('in a moment');
  });
});
