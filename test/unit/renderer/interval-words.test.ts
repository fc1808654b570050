import { describe, expect, it } from 'vitest';
import { fieldProblems } from '../../../core/config/problems.js';
import { intervalMs, intervalWords, problemWords } from '../../../renderer/src/places/settings/saving.js';

/** What the config schema (core/config/schema.ts, `sweep.interval_ms`: 1 s to a week) says of an interval in milliseconds. */
const intervalProblem = (ms: number) => fieldProblems({ sweep: { interval_ms: ms } })['sweep.interval_ms'];

/** QA: the least interval, 1 s, was said as "0.017 minutes (1 second)". */
describe('the check interval, said and typed in plain words', () => {
  it('says an interval in seconds or whole minutes, never a fraction of a minute', () => {
    expect(intervalWords(1_000)).toBe('1 second');
    expect(intervalWords(90_000)).toBe('90 seconds');
    expect(intervalWords(300_000)).toBe('5 minutes');
    expect(intervalWords(60_000)).toBe('1 minute');
    expect(intervalWords(1_500)).toBe('1.5 seconds');
  });

  it('reads what a person types: a bare number is minutes, as the field always took', () => {
    expect(intervalMs('5')).toBe(300_000);
    expect(intervalMs('5 minutes')).toBe(300_000);
    expect(intervalMs('1 minute')).toBe(60_000);
    expect(intervalMs('90 seconds')).toBe(90_000);
    expect(intervalMs('1 second')).toBe(1_000);
    expect(intervalMs(' 90s ')).toBe(90_000);
    expect(intervalMs('2 min')).toBe(120_000);
    expect(intervalMs('1.5 minutes')).toBe(90_000);
    expect(intervalMs('1 hour')).toBe(3_600_000);
    expect(intervalMs('-3')).toBe(-180_000);
    for (const text of ['', 'soon', '5 fortnights', '5 minutes 3']) expect(intervalMs(text), text).toBeUndefined();
  });

  it('round-trips what it says', () => {
    for (const ms of [1_000, 90_000, 300_000, 604_800_000]) expect(intervalMs(intervalWords(ms))).toBe(ms);
  });

  it('says the config’s bounds in the same words', () => {
    expect(problemWords(intervalProblem(-5), 'interval')).toBe('This must be at least 1 second.');
    expect(problemWords(intervalProblem(0), 'interval')).toBe('This must be at least 1 second.');
    expect(problemWords(intervalProblem(604_800_001), 'interval')).toBe('This must be at most 10,080 minutes.');
    expect(intervalProblem(1_000)).toBeUndefined();
  });
});
