import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { otherSpellingsWords } from '../../../core/api/names.js';
import { formatUnforget } from '../../../core/cli/commands/unforget.js';
import { Unforget, type Lift } from '../../../renderer/src/places/projects/Unforget.js';
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

describe('an Unforget that lifted other spellings of the folder too', () => {
  const lift = (otherSpellings?: number): Lift => ({ data: { lifted: true, ...(otherSpellings ? { otherSpellings } : {}) }, busy: false, error: undefined, run: () => Promise.resolve(undefined), reset: () => undefined });
  const said = (otherSpellings?: number) => renderToStaticMarkup(createElement(Unforget, { kind: 'project', id: 'p_0123456789abcdef', lift: lift(otherSpellings) })).replace(/<[^>]+>/g, '');

  it('says so in the panel, in the words the CLI uses', () => {
    expect(said(1)).toContain(otherSpellingsWords(1));
    expect(said(3)).toContain(otherSpellingsWords(3));
    expect(otherSpellingsWords(1)).toMatch(/another spelling of its folder.*that forget was lifted too/);
    expect(otherSpellingsWords(3)).toMatch(/3 other spellings of its folder.*those forgets were lifted too/);
    expect(formatUnforget({ lifted: true, otherSpellings: 3 }, { kind: 'project', id: 'p_0123456789abcdef' }, 'project key')).toContain(otherSpellingsWords(3));
  });

  it('says nothing of spellings when there were none', () => {
    expect(said()).not.toMatch(/spelling/);
  });
});
