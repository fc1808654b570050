import { describe, expect, it } from 'vitest';
import { fieldProblems } from '../../../core/config/problems.js';
import { problemWords } from '../../../renderer/src/places/settings/saving.js';

/** What the config schema says of the interval the minutes field sent (the field sends milliseconds). */
const intervalProblem = (minutes: number) => fieldProblems({ sweep: { interval_ms: Math.round(minutes * 60_000) } })['sweep.interval_ms'];

describe('a refused setting, said under its field', () => {
  it('says the interval’s limits in minutes, the unit the field is typed in, and a part of a minute in seconds', () => {
    expect(problemWords(intervalProblem(0), 'minutes')).toBe('This must be at least 1 second.');
    expect(problemWords(intervalProblem(100_000), 'minutes')).toBe('This must be at most 10,080 minutes.');
  });

  it('a negative interval is told the same least as 0, not a least that 0 fails too', () => {
    expect(problemWords(intervalProblem(-1), 'minutes')).toBe('This must be at least 1 second.');
    expect(problemWords(intervalProblem(0), 'minutes')).toBe(problemWords(intervalProblem(-1), 'minutes'));
  });

  it('the least interval it names is one the field takes', () => {
    expect(intervalProblem(0.017)).toBeUndefined();
  });

  it('days and calls stay in their own unit', () => {
    expect(problemWords({ message: 'must be at least 0', minimum: 0 }, 'days')).toBe('This must be at least 0 days.');
    expect(problemWords({ message: 'must be one of info, debug' })).toBe('This must be one of info, debug.');
  });
});
