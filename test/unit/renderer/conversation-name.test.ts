import { describe, expect, it } from 'vitest';
import { conversationName } from '../../../renderer/src/components/format.js';

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
