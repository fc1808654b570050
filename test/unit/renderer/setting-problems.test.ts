import { describe, expect, it } from 'vitest';
import { fieldProblems } from '../../../core/config/problems.js';
import { problemWords } from '../../../renderer/src/places/settings/saving.js';

/** What the config schema says of the interval the minutes field sent (the field sends milliseconds). */
const intervalProblem = (minutes: number) => fieldProblems({ sweep: { interval_ms: Math.round(minutes * 60_000) } })['sweep.interval_ms'];

describe('a refused setting, said under its field', () => {
  it('says the interval’s limits in minutes, the unit the field is typed in, and a part of a minute also in seconds', () => {
    // QA: -3 in the minutes field said "at least 1 second", a unit the field is not typed in.
    expect(problemWords(intervalProblem(-3), 'minutes')).toBe('This must be at least 0.017 minutes (1 second).');
    expect(problemWords(intervalProblem(0), 'minutes')).toBe('This must be at least 0.017 minutes (1 second).');
    expect(problemWords(intervalProblem(100_000), 'minutes')).toBe('This must be at most 10,080 minutes.');
  });

  it('a negative interval is told the same least as 0, not a least that 0 fails too', () => {
    expect(problemWords(intervalProblem(-1), 'minutes')).toBe(problemWords(intervalProblem(0), 'minutes'));
  });

  it('the least interval it names is one the field takes, and a whole least is said in whole minutes', () => {
    expect(intervalProblem(0.017)).toBeUndefined();
    expect(problemWords({ message: 'must be at least 60000', minimum: 60_000 }, 'minutes')).toBe('This must be at least 1 minute.');
  });

  it('days and calls stay in their own unit', () => {
    expect(problemWords({ message: 'must be at least 0', minimum: 0 }, 'days')).toBe('This must be at least 0 days.');
    expect(problemWords({ message: 'must be one of info, debug' })).toBe('This must be one of info, debug.');
  });
});
