import { describe, expect, it } from 'vitest';
import { timeSpan } from '../../../core/api/reading.js';

/** A minute-long format, as the export and the CLI write a time. */
const minute = (ts: number | null) => (ts === null ? '' : `${new Date(ts).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
const at = (iso: string) => Date.parse(iso);

describe("a conversation's time, one rule for the export and the CLI", () => {
  it('says it once when both ends read the same, both ends otherwise', () => {
    expect(timeSpan(at('2026-09-10T09:15:05Z'), at('2026-09-10T09:15:55Z'), minute)).toEqual({ at: '2026-09-10 09:15 UTC' });
    expect(timeSpan(at('2026-09-10T09:15:05Z'), at('2026-09-10T09:16:00Z'), minute)).toEqual({ from: '2026-09-10 09:15 UTC', to: '2026-09-10 09:16 UTC' });
    // An end not known reads differently from a start that is: both said, as before.
    expect(timeSpan(at('2026-09-10T09:15:05Z'), null, minute)).toEqual({ from: '2026-09-10 09:15 UTC', to: '' });
  });
});
