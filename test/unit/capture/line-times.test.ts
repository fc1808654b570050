import { describe, expect, it } from 'vitest';
import { LAST_MS } from '../../../core/api/index.js';
import { FIRST_LINE_MS, LAST_LINE_MS, parseTs } from '../../../core/transcripts/bounds.js';

/**
 * A line's time as every provider reads it (parseTs): only a time a transcript can hold. One outside
 * it (past what a Date holds, or far from when any agent wrote) is no time: the line is placed, as one
 * without a time is, and never breaks a list, a duration or a date for the whole store.
 */
describe('parseTs', () => {
  it('reads epoch ms and ISO dates inside the window', () => {
    expect(parseTs(1_764_955_998_123)).toBe(1_764_955_998_123);
    expect(parseTs(1_764_955_998_123.9)).toBe(1_764_955_998_123);
    expect(parseTs('2025-12-05T17:33:18.123Z')).toBe(1_764_955_998_123);
    expect(parseTs(FIRST_LINE_MS)).toBe(FIRST_LINE_MS);
    expect(parseTs(LAST_LINE_MS)).toBe(LAST_LINE_MS);
    expect(parseTs(new Date(FIRST_LINE_MS).toISOString())).toBe(FIRST_LINE_MS);
  });

  it('takes a number past what a Date holds, or far from when any agent wrote, as no time', () => {
    for (const value of [1e300, -1e300, 9e15, -9e15, 8.64e15, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, Infinity, -Infinity, NaN, -1, 0, 1_764_955_998, FIRST_LINE_MS - 1, LAST_LINE_MS + 1]) {
      expect(parseTs(value), String(value)).toBeNull();
    }
  });

  it('takes a string that is no date, or a date outside the window, as no time', () => {
    for (const value of ['abc', '', ' ', '1e300', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '1970-01-01T00:00:00Z', '1989-12-31T23:59:59.999Z', '9999-12-31T23:59:59Z']) {
      expect(parseTs(value), value).toBeNull();
    }
  });

  it('ends where a request may name a time (LAST_MS), and starts on 1 January 1990', () => {
    expect(LAST_LINE_MS).toBe(LAST_MS);
    expect(new Date(FIRST_LINE_MS).toISOString()).toBe('1990-01-01T00:00:00.000Z');
  });

  it('takes anything else as no time', () => {
    for (const value of [{}, [], [1_764_955_998_123], null, undefined, true, 1_764_955_998_123n]) expect(parseTs(value)).toBeNull();
  });
});
