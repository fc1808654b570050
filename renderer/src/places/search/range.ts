import { DATE_FORMS, MONTHS, parseDateText, parseIsoDate, type DateReading } from '../../../../core/api/date-text.js';

/** Which end of a date range a typed date is: since:/from: starts it, until:/to: ends it (the contract's `from`/`to`). */
export type End = 'from' | 'to';

/** A whole month (`2025-03`): the one form the box takes besides DATE_FORMS, since people recall "in March". */
const MONTH = /^(\d{4})-(\d{2})$/;

/** What a typed date may be, in words: the CLI's and MCP's forms (DATE_FORMS) and the month. */
export const RANGE_FORMS = `a month (2025-03), ${DATE_FORMS}`;

/**
 * A typed end of a range as the epoch ms it stands for, or why it stands for none. Read by the CLI's
 * rule (parseDateText) where the person is, as `--from`/`--to` are: a day or a month is all of it (from
 * its first ms, to its last), a span counts back from `now`.
 */
export function dateMs(text: string, end: End, now = Date.now()): { ms: number } | { error: string; invalid: 'form' | 'date' } {
  const read = readMs(text, end, now);
  return 'ms' in read ? since1970(text, read.ms) : read;
}

function readMs(text: string, end: End, now: number): { ms: number } | { error: string; invalid: 'form' | 'date' } {
  const reading: DateReading = { zone: 'local', end };
  const month = MONTH.exec(text);
  if (!month) {
    const read = parseDateText(text, reading, now);
    return 'ms' in read ? { ms: read.ms } : read;
  }
  if (!('ms' in parseIsoDate(`${text}-01`, reading))) return { error: `${text} is not a month: there is no month ${month[2]}`, invalid: 'date' };
  // A month's first day, or its last: the longest of 31 to 28 that is a date, by the one rule of what a date is.
  const days = end === 'from' ? ['01'] : ['31', '30', '29', '28'];
  return days.map((day) => parseIsoDate(`${text}-${day}`, reading)).find((read) => 'ms' in read)!;
}

/**
 * The contract takes no time before 1970 (a negative ms failed the search): a date before then, where the
 * person is, is refused with words. 1 Jan 1970 itself starts before 00:00 UTC east of Greenwich: read as 0.
 */
function since1970(text: string, ms: number): { ms: number } | { error: string; invalid: 'date' } {
  if (new Date(ms).getFullYear() < 1970) return { error: `${text} is before 1970, the earliest a search reaches`, invalid: 'date' };
  return { ms: Math.max(0, ms) };
}

/** Whether the address's `from`/`to` is a date the box would have taken: anything else is no range. */
export function isDateText(text: string | undefined, end: End): text is string {
  return text !== undefined && 'ms' in dateMs(text, end);
}

const UNITS: Record<string, string> = { m: 'minute', h: 'hour', d: 'day', w: 'week' };
/** A date as typed, in its pieces for words (it was read by dateMs already): year, month, day, the time after it. */
const PIECES = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](.+))?)?$/;

/** One end in words, `year` false to leave the year to the other end: "1 Jan 2026", "March 2025", "12 hours ago". */
function endWords(text: string, year = true): string {
  const span = /^(\d+)([mhdw])$/.exec(text);
  if (span) return `${Number(span[1])} ${UNITS[span[2]!]}${Number(span[1]) === 1 ? '' : 's'} ago`;
  const pieces = PIECES.exec(text);
  if (!pieces) return text;
  const [, y, m, d, time] = pieces;
  const month = MONTHS[Number(m) - 1]!;
  const when = d === undefined ? month : `${Number(d)} ${month.slice(0, 3)}`;
  return [when, year || time !== undefined ? y : '', time ?? ''].filter(Boolean).join(' ');
}

/**
 * A range as its chip says it: "Since 1 Jan 2026", "Until March 2025", "March 2025" (one month, or one
 * day, given to both ends), "1 Jan – 31 Mar 2025" (the year once when both ends share it).
 */
export function rangeWords(from: string | undefined, to: string | undefined): string {
  if (from === undefined) return to === undefined ? 'Any time' : `Until ${endWords(to)}`;
  if (to === undefined) return `Since ${endWords(from)}`;
  if (from === to) return endWords(from);
  const sameYear = PIECES.exec(from)?.[1] !== undefined && PIECES.exec(from)?.[1] === PIECES.exec(to)?.[1];
  return `${endWords(from, !sameYear)} – ${endWords(to)}`;
}

/** A range that ends before it starts, in words, or undefined when it does not (or an end is open). */
export function backwards(from: string | undefined, to: string | undefined, now = Date.now()): string | undefined {
  if (from === undefined || to === undefined) return undefined;
  const [start, end] = [dateMs(from, 'from', now), dateMs(to, 'to', now)];
  if (!('ms' in start) || !('ms' in end) || start.ms <= end.ms) return undefined;
  return `The dates end before they start: ${endWords(to)} is before ${endWords(from)}.`;
}
