import { hash } from 'node:crypto';
import { CUT_GAP, wholeAt } from '../api/constants/index.js';

/** Texts above these caps keep a prefix, their full length and a hash; a tool result its start and its end (boundResult). */
export const TEXT_CAP = 32 * 1024;
export const TOOL_RESULT_CAP = 8 * 1024;

/**
 * A cut text's facts (a part's meta `truncated`): the whole's length and hash, and for a tool result
 * cut at both ends (boundResult) the characters kept of its start (`head`) and of its end (`tail`),
 * which its stored text holds in that order with CUT_GAP between them. A prefix cut has neither.
 */
export interface Truncated {
  length: number;
  sha256: string;
  head?: number;
  tail?: number;
}

export interface Bounded {
  text: string;
  truncated?: Truncated;
}

/**
 * One-shot: a cold import hashes every truncated text, and a Hash object per call (its stream
 * machinery, its digest) cost more than hashing the bytes of a typical one. The digest is the same.
 */
export function sha256(value: string | Buffer): string {
  return hash('sha256', value, 'hex');
}

/**
 * The first `cap` UTF-16 units of a text, one fewer when the cut would fall between the halves of a
 * surrogate pair (an emoji): a lone half is no character, and reaches SQLite as U+FFFD.
 */
export function prefix(text: string, cap: number): string {
  return text.length <= cap ? text : text.slice(0, wholeAt(text, cap));
}

export function bound(text: string, cap: number): Bounded {
  if (text.length <= cap) return { text };
  return { text: prefix(text, cap), truncated: { length: text.length, sha256: sha256(text) } };
}

/**
 * The share of a cut tool result's cap its start keeps; its end gets the rest. A command's output says
 * what it ran at its start and how it ended at its end (the error, the test summary, the exit): 6 KB
 * keeps three quarters of the start kept before, and 2 KB (some 25 to 40 lines) holds a stack trace or
 * a test runner's summary. The middle, a run's progress, is what a reader loses least.
 */
const RESULT_HEAD_SHARE = 0.75;
/** How far into its end a cut result's tail may move to start at a line: no more than a long line. */
const TAIL_LINE_SLACK = 256;

/**
 * A tool result bounded to `cap`: whole when it fits, else its start and its end with CUT_GAP between
 * (`truncated.head`, `.tail`: what each kept). Neither cut splits a surrogate pair; the tail starts at a
 * line when one starts near its cut. Slices and one bounded indexOf: a cold import cuts every long
 * result, and never walks one character by character.
 */
export function boundResult(text: string, cap: number = TOOL_RESULT_CAP): Bounded {
  if (text.length <= cap) return { text };
  const head = wholeAt(text, Math.floor(cap * RESULT_HEAD_SHARE));
  let from = text.length - (cap - head - CUT_GAP.length);
  // Between the halves of a pair, the tail starts one later (one fewer kept, never one over the cap).
  if (wholeAt(text, from) !== from) from += 1;
  // The scan runs at most to the text's end, which is the tail's length away.
  const line = text.indexOf('\n', from - 1) + 1;
  if (line > 0 && line - from <= TAIL_LINE_SLACK && line < text.length) from = line;
  return {
    text: text.slice(0, head) + CUT_GAP + text.slice(from),
    truncated: { length: text.length, sha256: sha256(text), head, tail: text.length - from },
  };
}

/** Image data becomes {media_type, bytes, sha256}: megabytes of base64 never reach the cache. */
export function imageFacts(mediaType: unknown, data: unknown): Record<string, unknown> {
  const facts: Record<string, unknown> = { media_type: typeof mediaType === 'string' ? mediaType : null };
  if (typeof data === 'string' && data.length > 0) {
    const bytes = Buffer.from(data, 'base64');
    facts.bytes = bytes.length;
    facts.sha256 = sha256(bytes);
  } else {
    facts.bytes = 0;
  }
  return facts;
}

/** The white space a base64 text may hold (MIME and PEM wrap it in lines of 76 or 64); a decoder skips it. */
const BASE64_SPACES = ['\n', '\r', ' ', '\t'] as const;

/** `=` (padding), `\n`, `\r`, space, tab: what may end a base64 text and decodes to nothing. */
function isBase64Tail(code: number): boolean {
  return code === 61 || code === 10 || code === 13 || code === 32 || code === 9;
}

/**
 * The bytes a base64 text (from `from` on) decodes to, from its length alone: every 4 characters are 3
 * bytes, and its white space and the `=` padding at its end (before a last line end too) none. A tool
 * result's screenshot is sized this way; decoding megabytes only to count them would hold the event
 * loop on a cold import. White space is counted by `indexOf`, one native scan per kind, never a copy:
 * on 5 MB that is well under a millisecond unwrapped and a few wrapped, where a charCodeAt loop took 20.
 */
export function base64Bytes(data: string, from = 0): number {
  let end = data.length;
  while (end > from && isBase64Tail(data.charCodeAt(end - 1))) end -= 1;
  let chars = end - from;
  for (const space of BASE64_SPACES) {
    for (let at = data.indexOf(space, from); at !== -1 && at < end; at = data.indexOf(space, at + 1)) chars -= 1;
  }
  return Math.floor((chars * 3) / 4);
}

/** One image a tool result returned, as its part's meta keeps it (`imageFacts`): its type and decoded size, never its data. */
export interface ResultImage {
  media_type: string | null;
  bytes: number;
}

/** At most this many images of one tool result keep their facts; `images` still counts them all. */
export const RESULT_IMAGES_CAP = 32;

export function resultImage(mediaType: unknown, bytes: number): ResultImage {
  return { media_type: typeof mediaType === 'string' && mediaType !== '' ? mediaType.slice(0, 100) : null, bytes };
}

/** A base64 image (Claude's `source`, Gemini's `inlineData`) as a tool result's meta keeps it. */
export function base64Image(mediaType: unknown, data: unknown): ResultImage {
  return resultImage(mediaType, typeof data === 'string' ? base64Bytes(data) : 0);
}

/**
 * A tool result's images in its meta: how many (`images`, all an older parser kept of them) and each
 * one's facts (`imageFacts`, the first RESULT_IMAGES_CAP); nothing when it returned none.
 */
export function resultImagesMeta(images: readonly ResultImage[]): { images?: number; imageFacts?: ResultImage[] } {
  return images.length === 0 ? {} : { images: images.length, imageFacts: images.slice(0, RESULT_IMAGES_CAP) };
}

/**
 * Stringifies a structured payload (tool input, unknown block) for storage, bounded. A value nested
 * too deep to stringify throws its RangeError on: the record is then counted `malformed` by its reader
 * (countRecordError), not stored with empty text and counted nowhere.
 */
export function boundJson(value: unknown, cap: number): Bounded {
  return bound(JSON.stringify(value) ?? '', cap);
}

/**
 * The times a transcript line can hold, in epoch ms: from 1 January 1990 to LAST_MS (17 October 2243,
 * the last a request may name and the search index can key), well inside what a Date holds (±8.64e15).
 * Fixed, not "now and a few years": a line reads the same whenever it is read, and a store's times are
 * checked by the same bounds (gateway step 34, the history reads). Before 1990 no agent wrote a
 * transcript: such a time is a clock set back (an RTC lost at 1970) or seconds taken for ms, and would
 * sort the conversation last and have retention prune it at once.
 */
export const FIRST_LINE_MS = 631_152_000_000;
export const LAST_LINE_MS = 8_640_000_000_000;

/** Whether `ms` is a time a line can hold (FIRST_LINE_MS to LAST_LINE_MS). */
export function isLineTime(ms: number): boolean {
  return ms >= FIRST_LINE_MS && ms <= LAST_LINE_MS;
}

/**
 * A line's time: epoch ms (a fraction dropped) or a date string, when it is one a line can hold
 * (isLineTime). Anything else is no time (null), as a line without one: its part is placed among its
 * neighbours (placed.ts) and shows none, so one bad time (1e300, past what a Date holds) cannot break
 * a list, a duration or a date for the whole store.
 */
export function parseTs(value: unknown): number | null {
  const ms = typeof value === 'number' ? Math.trunc(value) : typeof value === 'string' && value !== '' ? Date.parse(value) : NaN;
  return isLineTime(ms) ? ms : null;
}

export function metaJson(meta: Record<string, unknown>): string | null {
  // Most parts carry no facts at all; JSON.stringify already drops undefined members.
  for (const key in meta) if (meta[key] !== undefined && meta[key] !== null) return JSON.stringify(meta);
  return null;
}
