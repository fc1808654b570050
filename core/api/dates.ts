import { z } from 'zod';

/**
 * The last date a request may carry, in epoch ms: 100,000 days after 1970 (17 October 2243), later than
 * any transcript and well inside what a Date holds. A range wider than 1970 to it means everything in it.
 */
export const LAST_MS = 8_640_000_000_000;

/** A time as the contract carries it (a search's or a list's `from`/`to`): epoch ms from 1970 to LAST_MS. */
export const EpochMs = z.number().int().min(0).max(LAST_MS);

export { DATE_FORMS, localDay, localTime, parseDateText, parseIsoDate, type DateReading, type DateZone } from './date-text.js';
