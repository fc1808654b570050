import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIsoDate } from '../../../core/api/index.js';
import { dateOptions, localTime, parseDateOption } from '../../../core/cli/output.js';

/**
 * The zone is pinned, and to one that is not UTC, so that reading a date in local time and reading it
 * in UTC differ on every machine: New York, four hours behind UTC on 10 March 2026 (summer time began
 * there on the 8th). Node reads TZ again when it changes.
 */
const ZONE = 'America/New_York';
let saved: string | undefined;
beforeAll(() => {
  saved = process.env.TZ;
  process.env.TZ = ZONE;
});
afterAll(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

const HOUR = 3_600_000;
const local = { zone: 'local', end: 'from' } as const;
const utc = { zone: 'utc', end: 'from' } as const;

describe('a date as people type it, read by one rule for the CLI and MCP', () => {
  it('runs with the zone pinned', () => {
    expect(new Date(Date.UTC(2026, 2, 10, 12)).getHours()).toBe(8);
  });

  it.each([
    ['2026-02-30', 'February 2026 has 28 days'],
    ['2026-02-29', 'February 2026 has 28 days'],
    ['2026-04-31T08:00:00Z', 'April 2026 has 30 days'],
    ['2026-13-01', 'there is no month 13'],
    ['2026-00-10', 'there is no month 00'],
    ['2026-01-00', 'January 2026 has 31 days'],
  ])('refuses %s, which Date.parse would roll over: %s', (value, why) => {
    expect(parseIsoDate(value, local)).toEqual({ error: expect.stringContaining(why), invalid: 'date' });
    expect(() => parseDateOption('--from', value)).toThrow(`--from: ${value.slice(0, 10)} is not a date: `);
  });

  it.each([
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2000-02-29', Date.UTC(2000, 1, 29)],
    ['2026-11-29T08:00:00Z', Date.UTC(2026, 10, 29, 8)],
    ['2026-12-31', Date.UTC(2026, 11, 31)],
  ])('reads %s in UTC', (value, ms) => {
    expect(parseIsoDate(value, utc)).toEqual({ ms });
  });

  it('a date alone is a whole day: from its first ms, to its last', () => {
    expect(parseIsoDate('2026-03-10', { zone: 'utc', end: 'from' })).toEqual({ ms: Date.UTC(2026, 2, 10) });
    expect(parseIsoDate('2026-03-10', { zone: 'utc', end: 'to' })).toEqual({ ms: Date.UTC(2026, 2, 11) - 1 });
    expect(parseIsoDate('2026-12-31', { zone: 'utc', end: 'to' })).toEqual({ ms: Date.UTC(2027, 0, 1) - 1 });
    expect(parseIsoDate('2024-02-29', { zone: 'utc', end: 'to' })).toEqual({ ms: Date.UTC(2024, 2, 1) - 1 });
    // The CLI: the person's own day, in the machine's zone (New York, UTC-4 that day).
    expect(parseDateOption('--from', '2026-03-10', 0, 'from')).toBe(Date.UTC(2026, 2, 10, 4));
    expect(parseDateOption('--to', '2026-03-10', 0, 'to')).toBe(Date.UTC(2026, 2, 11, 4) - 1);
    expect(dateOptions({ from: '2026-03-10', to: '2026-03-10' }).range).toEqual({ from: Date.UTC(2026, 2, 10, 4), to: Date.UTC(2026, 2, 11, 4) - 1 });
  });

  it('a local day is as long as the clocks make it: 23 hours the day summer time begins', () => {
    const from = parseDateOption('--from', '2026-03-08', 0, 'from');
    const to = parseDateOption('--to', '2026-03-08', 0, 'to');
    expect(from).toBe(Date.UTC(2026, 2, 8, 5));
    expect(to - from + 1).toBe(23 * HOUR);
  });

  it('a date alone and a time without an offset are read in the same zone', () => {
    for (const zone of ['local', 'utc'] as const) {
      const day = parseIsoDate('2026-03-10', { zone, end: 'from' });
      expect(parseIsoDate('2026-03-10T00:00', { zone, end: 'from' }), zone).toEqual(day);
      expect(parseIsoDate('2026-03-10 00:00:00', { zone, end: 'to' }), zone).toEqual(day);
    }
    expect(parseIsoDate('2026-03-10T08:30', local)).toEqual({ ms: Date.UTC(2026, 2, 10, 12, 30) });
    expect(parseIsoDate('2026-03-10T08:30', utc)).toEqual({ ms: Date.UTC(2026, 2, 10, 8, 30) });
  });

  it.each([
    ['2026-03-10T08:30:15Z', Date.UTC(2026, 2, 10, 8, 30, 15)],
    ['2026-03-10T08:30:15.250z', Date.UTC(2026, 2, 10, 8, 30, 15, 250)],
    ['2026-03-10T08:30:15.2509Z', Date.UTC(2026, 2, 10, 8, 30, 15, 250)],
    ['2026-03-10T08:30+02:00', Date.UTC(2026, 2, 10, 6, 30)],
    ['2026-03-10T08:30-0530', Date.UTC(2026, 2, 10, 14, 0)],
    ['2026-03-10T08:30+01', Date.UTC(2026, 2, 10, 7, 30)],
    ['2026-03-10T00:30+02:00', Date.UTC(2026, 2, 9, 22, 30)],
  ])('a time with an offset is that instant in any zone, at either end: %s', (value, ms) => {
    for (const zone of ['local', 'utc'] as const) {
      for (const end of ['from', 'to'] as const) expect(parseIsoDate(value, { zone, end }), `${zone} ${end}`).toEqual({ ms });
    }
  });

  it.each(['2026-03-10T24:00', '2026-03-10T08:60', '2026-03-10T08:30:60', '2026-03-10T08:30+24:00', '2026-03-10T8:30', '2026-11-29Tnoon', '2026-03-10T08'])(
    'refuses %s as a time',
    (value) => {
      expect(parseIsoDate(value, local)).toEqual({ invalid: 'date', error: expect.stringContaining('is not a time') });
      expect(() => parseDateOption('--to', value, 0, 'to')).toThrow('--to: ');
    },
  );

  it('says what it expects of what is not written as a date, and the CLI still takes a span', () => {
    expect(parseIsoDate('yesterday', local)).toMatchObject({ invalid: 'form' });
    expect(() => parseDateOption('--from', 'yesterday')).toThrow('--from expects a date (2026-11-29), a time (2026-11-29T08:00Z) or a span back from now');
    expect(parseDateOption('--from', '7d', 8 * 86_400_000)).toBe(86_400_000);
    expect(parseDateOption('--to', '7d', 8 * 86_400_000, 'to')).toBe(86_400_000);
  });

  it('a year before 100 is that year, not 1900 and more', () => {
    expect(parseIsoDate('0050-01-01', utc)).toEqual({ ms: Date.parse('0050-01-01T00:00:00Z') });
  });
});

describe('a time as the CLI prints it', () => {
  it('is the local time with its offset, the zone --from and --to read a time without one in', () => {
    const noon = Date.UTC(2026, 2, 10, 12, 5);
    expect(localTime(noon)).toBe('2026-03-10 08:05 -04:00');
    // What it prints reads back as the same minute.
    expect(parseDateOption('--from', localTime(noon).slice(0, 16).replace(' ', 'T'))).toBe(noon);
    expect(localTime(null)).toBe('—');
  });
});
