import { describe, expect, it } from 'vitest';
import { DATE_FORMS, methods } from '../../../core/api/index.js';
import { searchHref } from '../../../renderer/src/navigation.js';
import { filterNames } from '../../../renderer/src/places/search/Chips.js';
import { canSearch, filtersFrom, filtersToParams, queryOf, withChip, withDates, type SearchFilters } from '../../../renderer/src/places/search/filters.js';
import { rangeWords } from '../../../renderer/src/places/search/range.js';
import { typedFilters } from '../../../renderer/src/places/search/typed.js';

// QA: `quokkaflux since:2026-01-01` said "since: takes 7d, 30d or 365d", `to:` was refused and `until:`
// was searched as a word: the panel could not search a date range, which the CLI's --from/--to can.

const typed = (text: string, filters: SearchFilters = { q: '' }) => typedFilters(text, filters, []);
/** Local midnight of a day: a typed date is the person's day, as the CLI reads --from/--to. */
const local = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();

describe('a date range typed in the search box', () => {
  it('since:/from: and until:/to: take a day or a month, and leave the box', () => {
    expect(typed('quokkaflux since:2026-01-01')).toEqual({ filters: { q: 'quokkaflux', from: '2026-01-01' } });
    expect(typed('from:2025-01-01 invoice until:2025-03-31')).toEqual({ filters: { q: 'invoice', from: '2025-01-01', to: '2025-03-31' } });
    expect(typed('since:2025-03 to:2025-03')).toEqual({ filters: { q: '', from: '2025-03', to: '2025-03' } });
    expect(typed('Until:2026-11-29T08:00Z')).toEqual({ filters: { q: '', to: '2026-11-29T08:00Z' } });
  });

  it('since:7d, 30d, 365d stay the When chips; with an end they start the range', () => {
    expect(typed('since:7d')).toEqual({ filters: { q: '', when: '7d' } });
    expect(typed('since:30d until:2099-01-01')).toEqual({ filters: { q: '', from: '30d', to: '2099-01-01' } });
    expect(typed('until:2099-01-01 since:30d')).toEqual({ filters: { q: '', from: '30d', to: '2099-01-01' } });
    // A typed start takes the place of a When chip, and keeps the end already chosen.
    expect(typed('since:2025-01-01', { q: '', when: '7d' })).toEqual({ filters: { q: '', from: '2025-01-01' } });
    expect(typed('since:2025-01-01', { q: '', to: '2025-03' })).toEqual({ filters: { q: '', from: '2025-01-01', to: '2025-03' } });
    expect(typed('until:2099-01', { q: '', when: '365d' })).toEqual({ filters: { q: '', from: '365d', to: '2099-01' } });
  });

  it('a malformed date says what forms it takes, and changes nothing', () => {
    expect(typed('quokkaflux since:2026-1-1')).toEqual({ problem: `since: takes a month (2025-03), ${DATE_FORMS}; not “2026-1-1”.` });
    expect(typed('until:banana')).toEqual({ problem: `until: takes a month (2025-03), ${DATE_FORMS}; not “banana”.` });
    expect(typed('to:2026-02-30')).toEqual({ problem: 'to: 2026-02-30 is not a date: February 2026 has 28 days.' });
    expect(typed('from:2025-13')).toEqual({ problem: 'from: 2025-13 is not a month: there is no month 13.' });
    expect(typed('until:""')).toEqual({ problem: 'until: needs a value, such as until:2026-03-31.' });
    expect(typed('since:2026-03-01 until:2026-01-31')).toEqual({ problem: 'The dates end before they start: 31 Jan 2026 is before 1 Mar 2026.' });
  });

  it('asks the contract for the whole days and months, read where the person is', () => {
    const query = queryOf({ q: 'x', from: '2025-01-01', to: '2025-03-31' });
    expect(query).toMatchObject({ from: local(2025, 1, 1), to: local(2025, 4, 1) - 1 });
    expect(queryOf({ q: '', from: '2025-03', to: '2025-03' })).toMatchObject({ from: local(2025, 3, 1), to: local(2025, 4, 1) - 1 });
    expect(queryOf({ q: '', to: '2024-02' })).toMatchObject({ to: local(2024, 3, 1) - 1 });
    expect(queryOf({ q: '', from: '12h' }, 1_000_000_000_000)).toMatchObject({ from: 1_000_000_000_000 - 12 * 3_600_000 });
    expect(methods['Search.Query'].params.safeParse(query).success).toBe(true);
    expect(canSearch({ q: '', to: '2025-03' })).toBe(true);
  });

  it('is in the address with the rest of the search (reload and Back keep it); a bad one in it is no range', () => {
    const filters: SearchFilters = { q: 'quokkaflux', from: '2025-01-01', to: '2025-03' };
    const href = searchHref(filtersToParams(filters));
    expect(href).toBe('#/search?q=quokkaflux&from=2025-01-01&to=2025-03');
    expect(filtersFrom(Object.fromEntries(new URLSearchParams(href.split('?')[1])))).toMatchObject(filters);
    expect(filtersFrom({ q: 'x', from: 'banana', to: '2025-02-30' })).toMatchObject({ from: undefined, to: undefined });
  });

  it('the When chips take its place, and Any time removes it', () => {
    expect(withChip({ q: 'x', from: '2025-01-01', to: '2025-03' }, 'when', '7d')).toEqual({ q: 'x', when: '7d' });
    expect(withChip({ q: 'x', from: '2025-01-01', to: '2025-03' }, 'when', undefined)).toEqual({ q: 'x' });
  });
});

describe('the Dates… control', () => {
  it('sets both ends from its two date inputs, an empty one leaving that end open', () => {
    expect(withDates({ q: 'x', when: '7d' }, '2025-01-01', '2025-03-31')).toEqual({ filters: { q: 'x', from: '2025-01-01', to: '2025-03-31' } });
    expect(withDates({ q: 'x', from: '2025-01-01', to: '2025-03' }, '', '2025-02-01')).toEqual({ filters: { q: 'x', to: '2025-02-01' } });
    expect(withDates({ q: 'x', from: '2025-01-01' }, '', '')).toEqual({ filters: { q: 'x' } });
  });

  it('refuses a range that ends before it starts, changing nothing', () => {
    expect(withDates({ q: 'x' }, '2025-03-01', '2025-01-31')).toEqual({ problem: 'The dates end before they start: 31 Jan 2025 is before 1 Mar 2025.' });
  });
});

// Review: a backwards range in the address reached the server and showed as a failed search;
// since:1900-01-01 sent a negative time ("Too small: expected number to be >=0").
describe('a date range the address or the box cannot search', () => {
  it('a backwards one in the address is no range, as other bad filters are dropped', () => {
    expect(filtersFrom({ q: 'x', from: '2026-03-01', to: '2026-01-01' })).toMatchObject({ from: undefined, to: undefined });
    expect(queryOf(filtersFrom({ q: 'x', from: '2026-03-01', to: '2026-01-01' }))).not.toHaveProperty('from');
  });

  it('beside a When chip in the address, the range wins and the chip goes', () => {
    expect(filtersFrom({ q: 'x', when: '7d', from: '2025-01-01' })).toMatchObject({ when: undefined, from: '2025-01-01' });
    expect(filtersFrom({ q: 'x', when: '7d', to: '2025-01-01' })).toMatchObject({ when: undefined, to: '2025-01-01' });
    expect(filtersFrom({ q: 'x', when: '7d' })).toMatchObject({ when: '7d' });
  });

  it('a date before 1970 is refused with words, typed or picked, and is no range in the address', () => {
    expect(typed('since:1900-01-01')).toEqual({ problem: 'since: 1900-01-01 is before 1970, the earliest a search reaches.' });
    expect(typed('until:1969-12')).toEqual({ problem: 'until: 1969-12 is before 1970, the earliest a search reaches.' });
    expect(withDates({ q: 'x' }, '1900-01-01', '')).toEqual({ problem: '1900-01-01 is before 1970, the earliest a search reaches.' });
    expect(filtersFrom({ q: 'x', from: '1900-01-01' })).toMatchObject({ from: undefined });
    // The first day of 1970 is searchable wherever the person is: its start before 00:00 UTC is read as 0.
    expect(queryOf({ q: 'x', from: '1970-01-01' }).from).toBeGreaterThanOrEqual(0);
    expect(methods['Search.Query'].params.safeParse(queryOf({ q: 'x', from: '1970-01-01' })).success).toBe(true);
  });
});

// Review: applying Dates… dropped an end the inputs cannot show (a month, a span, a When chip).
describe('the Dates… control keeps what its inputs cannot show', () => {
  it('changes only the end whose input the person changed', () => {
    expect(withDates({ q: 'x', from: '2025-03', to: '2025-06-30' }, '', '2025-07-31')).toEqual({ filters: { q: 'x', from: '2025-03', to: '2025-07-31' } });
    expect(withDates({ q: 'x', from: '30d' }, '', '2099-01-01')).toEqual({ filters: { q: 'x', from: '30d', to: '2099-01-01' } });
    expect(withDates({ q: 'x', when: '365d' }, '', '2099-01-01')).toEqual({ filters: { q: 'x', from: '365d', to: '2099-01-01' } });
    expect(withDates({ q: 'x', from: '2025-01-01', to: '2025-03' }, '2024-12-01', '')).toEqual({ filters: { q: 'x', from: '2024-12-01', to: '2025-03' } });
    expect(withDates({ q: 'x', when: '7d' }, '', '')).toEqual({ filters: { q: 'x', when: '7d' } });
  });
});

describe('a date range in words', () => {
  it('names the days and months as people say them', () => {
    expect(rangeWords('2026-01-01', undefined)).toBe('Since 1 Jan 2026');
    expect(rangeWords(undefined, '2025-03-31')).toBe('Until 31 Mar 2025');
    expect(rangeWords('2025-03', '2025-03')).toBe('March 2025');
    expect(rangeWords('2025-01-01', '2025-03-31')).toBe('1 Jan – 31 Mar 2025');
    expect(rangeWords('2025-12-01', '2026-01-31')).toBe('1 Dec 2025 – 31 Jan 2026');
    expect(rangeWords('2025-01', '2025-03')).toBe('January – March 2025');
    expect(rangeWords('2026-01-01', '2026-01-01')).toBe('1 Jan 2026');
    expect(rangeWords('2025-03', undefined)).toBe('Since March 2025');
    expect(rangeWords('30d', '2026-01-01')).toBe('30 days ago – 1 Jan 2026');
    expect(rangeWords('12h', undefined)).toBe('Since 12 hours ago');
    expect(rangeWords('2026-11-29T08:00Z', undefined)).toBe('Since 29 Nov 2026 08:00Z');
  });

  it('names it among the filters in use', () => {
    expect(filterNames({ q: 'x', from: '2026-01-01', kind: 'tool_use' }, [])).toEqual(['Tool calls', 'Since 1 Jan 2026']);
  });
});
