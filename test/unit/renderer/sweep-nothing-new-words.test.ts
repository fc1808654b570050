import { describe, expect, it } from 'vitest';
import { nothingNewWords, sweepRunWords } from '../../../core/api/index.js';

describe('a sweep with nothing new since the last one, in words (Sweep now)', () => {
  it('after a forget that left no conversation, says the overview was removed and the changelog kept, not "Overview updated"', () => {
    expect(nothingNewWords('ok', 'empty', 'nothing-new')).toBe('Nothing new since the last sweep, and no overview was written (a rebuild after a forget that left no conversation removes the old one). The changelog keeps its earlier days.');
  });

  it('says "Overview updated" only when the overview was written, else that the notes needed no change', () => {
    expect(nothingNewWords('ok', 'written')).toBe('Overview updated; nothing new since the last sweep, so no changelog entry.');
    for (const [outcome, overview] of [['ok', 'unchanged'], ['ok', 'preserved'], ['nochange', 'unchanged'], ['nochange', 'none']] as const)
      expect(nothingNewWords(outcome, overview)).toBe('Nothing new since the last sweep; the notes needed no change.');
  });
});

describe('a rebuild after a forget that removed the notes', () => {
  it('says the notes were removed, not "Notes updated": none left to describe, or the settings keep notes from being rewritten', () => {
    expect(nothingNewWords('ok', 'empty', 'no-activity')).toBe('The notes were removed: no conversation is left to describe.');
    for (const reason of ['disabled', 'scratch', 'ignored'])
      expect(nothingNewWords('ok', 'empty', reason)).toBe('The notes written from the forgotten conversations were removed; Steward does not write notes here, so none were rewritten.');
  });
});

describe('Sweep now, in words', () => {
  it('an ordinary sweep whose curator wrote no overview says the notes were updated, not that they were removed', () => {
    expect(sweepRunWords({ outcome: 'ok', reason: null, overview: 'empty' })).toBe('Notes updated.');
    expect(sweepRunWords({ outcome: 'ok', reason: 'no-activity', overview: 'empty' })).toBe('The notes were removed: no conversation is left to describe.');
    expect(sweepRunWords({ outcome: 'nochange', reason: null, overview: 'unchanged' })).toBe('Swept; nothing in the notes needed to change.');
    expect(sweepRunWords({ outcome: 'skipped', reason: 'backoff', overview: 'none' }, '2026-12-04 19:40 UTC')).toBe('Waiting after recent failures before trying again at 2026-12-04 19:40 UTC.');
  });
});
