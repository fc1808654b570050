/** A date as people type it (`2026-11-29`), optionally followed by a time (`T08:00Z`, ` 08:00`). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].+)?$/;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * An ISO date or time as epoch ms, or why it is not one. `Date.parse` rolls an impossible day over
 * (2026-02-30 becomes 2 March), so the typed year, month and day are checked before it is asked: a
 * search "from 30 February" must be refused, not run from a date nobody typed. The CLI and MCP both
 * read dates through this one rule. `invalid`: `form` when it is not written as a date at all (a
 * caller may accept other forms), `date` when it is written as one that does not exist.
 */
export function parseIsoDate(value: string): { ms: number } | { error: string; invalid: 'form' | 'date' } {
  const text = value.trim();
  const parts = ISO_DATE.exec(text);
  if (!parts) return { error: 'expected an ISO date or time such as 2026-11-29 or 2026-11-29T08:00:00Z', invalid: 'form' };
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12) return { error: `${text.slice(0, 10)} is not a date: there is no month ${parts[2]}`, invalid: 'date' };
  if (day < 1 || day > daysIn(year, month)) return { error: `${text.slice(0, 10)} is not a date: ${MONTHS[month - 1]} ${year} has ${daysIn(year, month)} days`, invalid: 'date' };
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? { error: `${JSON.stringify(text)} is not a time: expected one such as 2026-11-29T08:00:00Z`, invalid: 'date' } : { ms };
}
