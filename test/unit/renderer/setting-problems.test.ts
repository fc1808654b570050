import { describe, expect, it } from 'vitest';
import { fieldProblems } from '../../../core/config/problems.js';
import { problemWords } from '../../../renderer/src/places/settings/saving.js';

/** What the config schema says of the interval the minutes field sent (the field sends milliseconds). */
const intervalProblem = (minutes: number) => fieldProblems({ sweep: { interval_ms: Math.round(minutes * 60_000) } })['sweep.interval_ms'];

describe('a refused setting, said under its field', () => {
  it('says the interval’s limits in the words the field takes: seconds below a minute, never a fraction of a minute', () => {
    // QA: the least was said as "0.017 minutes (1 second)"; the field now takes "1 second" as typed.
    expect(problemWords(intervalProblem(-3), 'interval')).toBe('This must be at least 1 second.');
    expect(problemWords(intervalProblem(0), 'interval')).toBe('This must be at least 1 second.');
    expect(problemWords(intervalProblem(100_000), 'interval')).toBe('This must be at most 7 days.');
  });

  it('a negative interval is told the same least as 0, not a least that 0 fails too', () => {
    expect(problemWords(intervalProblem(-1), 'interval')).toBe(problemWords(intervalProblem(0), 'interval'));
  });

  it('the least interval it names is one the field takes, and a whole least is said in whole minutes', () => {
    expect(intervalProblem(1 / 60)).toBeUndefined();
    expect(problemWords({ message: 'must be at least 60000', minimum: 60_000 }, 'interval')).toBe('This must be at least 1 minute.');
  });

  it('days and calls stay in their own unit', () => {
    expect(problemWords({ message: 'must be at least 0', minimum: 0 }, 'days')).toBe('This must be at least 0 days.');
    expect(problemWords({ message: 'must be one of info, debug' })).toBe('This must be one of info, debug.');
  });
});
