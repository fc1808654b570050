/**
 * How a person writes a time (a date, a time, a span back from now) and how it is read: one rule for the
 * CLI's --from/--to, the MCP tools and the panel's search box. It imports nothing, so the panel loads it
 * at run time (dates.ts, which adds the contract's zod type, re-exports it).
 */

/** A date as people type it (`2026-11-29`), optionally followed by a time (`T08:00Z`, ` 08:00`). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](.+))?$/;
/** The time after a date: hours and minutes, optional seconds and fraction, optional offset (`Z`, `+02:00`, `-0500`, `+02`). */
const ISO_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The months' names, January first: how an error names a month, and the panel's words for a date. */
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * Where a time without an offset (and a date alone) is read. `local`: the zone of the machine, which is
 * what a person at a terminal means by 10 March or 08:00. `utc`: what an agent means, whose every time
 * it is handed (a hit's `at`) is UTC, and which does not know the zone the owner runs in.
 */
export type DateZone = 'local' | 'utc';

export interface DateReading {
  zone: DateZone;
  /**
   * Which end of a range the value is. A date alone is a whole day: `from` it is its first ms, `to` it
   * is its last, so `--from 2026-03-10 --to 2026-03-10` is all of that day. A time is one instant either way.
   */
  end: 'from' | 'to';
}

/** Epoch ms of a wall-clock time in a zone; `day` may run past the month's end (the next day's start). */
function wallClock(zone: DateZone, [year, month, day]: [number, number, number], [h, m, s, ms]: [number, number, number, number]): number {
  // setFullYear, not the constructor: that one reads years 0–99 as 1900–1999.
  const date = new Date(0);
  if (zone === 'utc') {
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(h, m, s, ms);
  } else {
    date.setFullYear(year, month - 1, day);
    date.setHours(h, m, s, ms);
  }
  return date.getTime();
}

/** A time of day after a date, as epoch ms, or null when it is not one (25:00, 08:60, an offset of +24). */
function timeOn(zone: DateZone, date: [number, number, number], text: string): number | null {
  const time = ISO_TIME.exec(text);
  if (!time) return null;
  const [h, m, s] = [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)];
  const ms = Number((time[4] ?? '').padEnd(3, '0').slice(0, 3));
  if (h > 23 || m > 59 || s > 59) return null;
  const offset = time[5]?.toUpperCase();
  if (offset === undefined) return wallClock(zone, date, [h, m, s, ms]);
  if (offset === 'Z') return wallClock('utc', date, [h, m, s, ms]);
  const [oh, om] = [Number(offset.slice(1, 3)), Number(offset.replace(':', '').slice(3) || 0)];
  if (oh > 23 || om > 59) return null;
  const sign = offset.startsWith('-') ? -1 : 1;
  return wallClock('utc', date, [h, m, s, ms]) - sign * (oh * 60 + om) * 60_000;
}

/**
 * An ISO date or time as epoch ms, or why it is not one. The typed year, month and day are checked
 * (`Date.parse` would roll 2026-02-30 over to 2 March: a search "from 30 February" must be refused, not
 * run from a date nobody typed), and the time is read here, not by `Date.parse`, which reads a date
 * alone as UTC but a time without an offset as local: one rule, `reading.zone`, for both. A date alone
 * is a whole day (see DateReading.end). The CLI and MCP both read dates through this. `invalid`: `form`
 * when it is not written as a date at all (a caller may accept other forms), `date` when it is written
 * as one that does not exist.
 */
export function parseIsoDate(value: string, reading: DateReading): { ms: number } | { error: string; invalid: 'form' | 'date' } {
  const text = value.trim();
  const parts = ISO_DATE.exec(text);
  if (!parts) return { error: 'expected an ISO date or time such as 2026-11-29 or 2026-11-29T08:00:00Z', invalid: 'form' };
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12) return { error: `${text.slice(0, 10)} is not a date: there is no month ${parts[2]}`, invalid: 'date' };
  if (day < 1 || day > daysIn(year, month)) return { error: `${text.slice(0, 10)} is not a date: ${MONTHS[month - 1]} ${year} has ${daysIn(year, month)} days`, invalid: 'date' };
  if (parts[4] === undefined) {
    // The last ms of a day is the next day's first, less one: a day is not always 24 hours long.
    return { ms: reading.end === 'from' ? wallClock(reading.zone, [year, month, day], [0, 0, 0, 0]) : wallClock(reading.zone, [year, month, day + 1], [0, 0, 0, 0]) - 1 };
  }
  const ms = timeOn(reading.zone, [year, month, day], parts[4]);
  return ms === null ? { error: `${JSON.stringify(text)} is not a time: expected one such as 2026-11-29T08:00:00Z`, invalid: 'date' } : { ms };
}

const SPAN_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const SPAN = /^(\d{1,6})([mhdw])$/;
/** The longest span back from now a search takes: 100 years of days. */
const MAX_SPAN_MS = 36_525 * SPAN_MS.d!;

/** What a search's `from`/`to` takes, in words: the CLI's flags and the MCP tool's arguments say the same. */
export const DATE_FORMS = 'a date (2026-11-29), a time (2026-11-29T08:00Z) or a span back from now (30m, 12h, 7d, 2w)';

/**
 * A search's `from` or `to` as epoch ms: a span back from `now` (`30m`, `12h`, `7d`, `2w`), else an ISO
 * date or time read by parseIsoDate. `span` says it was one: it names a later instant on every call, so
 * a caller that pages pins it to the instant it meant (a cursor belongs to the exact search that gave it).
 * The CLI and MCP both read `from` and `to` through this.
 */
export function parseDateText(value: string, reading: DateReading, now = Date.now()): { ms: number; span: boolean } | { error: string; invalid: 'form' | 'date' } {
  const span = SPAN.exec(value.trim());
  if (span) {
    const back = Number(span[1]) * SPAN_MS[span[2]!]!;
    // `99999d` would mean 1970: no history reaches that far, and no one meant it.
    if (back > MAX_SPAN_MS) return { error: `${JSON.stringify(value.trim())} reaches back more than 100 years: give a shorter span (at most 36525d or 5217w) or a date`, invalid: 'date' };
    return { ms: Math.max(0, now - back), span: true };
  }
  const date = parseIsoDate(value, reading);
  if ('ms' in date) return { ms: date.ms, span: false };
  return date.invalid === 'form' ? { error: `expected ${DATE_FORMS}`, invalid: 'form' } : date;
}

/**
 * The calendar day of a time where the person is, `YYYY-MM-DD`: how notes are dated and how the CLI
 * prints a time's day (the zone its `--from` and `--to` read a bare date in).
 */
export function localDay(ts: number): string {
  const d = new Date(ts);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * A time as the CLI prints it: the person's local time with its offset (`2026-03-10 13:00 +01:00`, or
 * `UTC`), the zone `--from` and `--to` read a time without an offset in.
 */
export function localTime(ts: number | null): string {
  if (ts === null) return '—';
  const d = new Date(ts);
  const pad = (n: number) => String(n).padStart(2, '0');
  const offset = -d.getTimezoneOffset();
  const zone = offset === 0 ? 'UTC' : `${offset > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${localDay(ts)} ${pad(d.getHours())}:${pad(d.getMinutes())} ${zone}`;
}
