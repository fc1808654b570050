import { describe, expect, it } from 'vitest';
import { parseIsoDate } from '../../../core/api/index.js';
import { parseDateOption } from '../../../core/cli/output.js';

describe('a date as people type it, read by one rule for the CLI and MCP', () => {
  it.each([
    ['2026-02-30', 'February 2026 has 28 days'],
    ['2026-02-29', 'February 2026 has 28 days'],
    ['2026-04-31T08:00:00Z', 'April 2026 has 30 days'],
    ['2026-13-01', 'there is no month 13'],
    ['2026-00-10', 'there is no month 00'],
    ['2026-01-00', 'January 2026 has 31 days'],
  ])('refuses %s, which Date.parse would roll over: %s', (value, why) => {
    expect(parseIsoDate(value)).toEqual({ error: expect.stringContaining(why), invalid: 'date' });
    expect(() => parseDateOption('--from', value)).toThrow(`--from: ${value.slice(0, 10)} is not a date: `);
  });

  it.each([
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2000-02-29', Date.UTC(2000, 1, 29)],
    ['2026-11-29T08:00:00Z', Date.UTC(2026, 10, 29, 8)],
    ['2026-12-31', Date.UTC(2026, 11, 31)],
  ])('reads %s', (value, ms) => {
    expect(parseIsoDate(value)).toEqual({ ms });
    expect(parseDateOption('--to', value)).toBe(ms);
  });

  it('says what it expects of what is not written as a date, and the CLI still takes a span', () => {
    expect(parseIsoDate('yesterday')).toMatchObject({ invalid: 'form' });
    expect(parseIsoDate('2026-11-29Tnoon')).toMatchObject({ invalid: 'date', error: expect.stringContaining('is not a time') });
    expect(() => parseDateOption('--from', 'yesterday')).toThrow('--from expects a date (2026-11-29), a time (2026-11-29T08:00Z) or a span back from now');
    expect(parseDateOption('--from', '7d', 8 * 86_400_000)).toBe(86_400_000);
  });
});
