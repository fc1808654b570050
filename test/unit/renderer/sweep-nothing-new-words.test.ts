import { describe, expect, it } from 'vitest';
import { nothingNewWords } from '../../../core/api/index.js';

describe('a sweep with nothing new since the last one, in words (Sweep now)', () => {
  it('after a forget that left no conversation, says the overview was removed and the changelog kept, not "Overview updated"', () => {
    expect(nothingNewWords('ok', 'empty')).toBe('The overview was removed: no conversation is left to describe. The changelog keeps its earlier days.');
  });

  it('says "Overview updated" only when the overview was written, else that the notes needed no change', () => {
    expect(nothingNewWords('ok', 'written')).toBe('Overview updated; nothing new since the last sweep, so no changelog entry.');
    for (const [outcome, overview] of [['ok', 'unchanged'], ['ok', 'preserved'], ['nochange', 'unchanged'], ['nochange', 'none']] as const)
      expect(nothingNewWords(outcome, overview)).toBe('Nothing new since the last sweep; the notes needed no change.');
  });
});
