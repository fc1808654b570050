import { wholeAt } from '../api/index.js';
import { indexReading, looksLikeJson } from '../gateway/index.js';
import { isJsonText, type Redactor } from '../secrets/index.js';
import { redactAll } from './redaction.js';
import { compileTerms, TermPattern, withoutOneLetterTerms } from './term-match.js';

/** A bounded excerpt of a part around what matched, with [start, end) offsets of each match in it. */
export interface Snippet {
  text: string;
  highlights: Array<[number, number]>;
  /** Shorter than a snippet is, cut by the end of the excerpt it came from (see excerptOf): a match past where the excerpt was centred. */
  cutShort?: boolean;
}

const WINDOW = 240;
const LEAD = 70;
const MAX_HIGHLIGHTS = 50;
/** Characters on either side of a snippet that are redacted with it (see excerptOf). */
const REDACT_CONTEXT = 1_000;
/** Text handed to the pattern already as the index reads it (indexReading): snippets match on pieces of it. */
const READ = { read: true };

/**
 * The terms as the index matches them (see term-match.ts), as one pattern; null when none holds a word.
 * `prefixes`: the terms typed with a `*` (PreparedQuery.prefixes), which match the start of a word.
 */
export function termPattern(terms: readonly string[], prefixes: readonly string[] = []): TermPattern | null {
  const compiled = withoutOneLetterTerms(compileTerms(terms, prefixes));
  return compiled.length === 0 ? null : new TermPattern(compiled);
}

/** The ranges of the matches in `text` (a piece of a text as the index reads it), in order and apart. */
function rangesIn(text: string, pattern: TermPattern): Array<[number, number]> {
  const ranges = pattern.matchesIn(text, READ).flatMap((m) => m.ranges);
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const apart: Array<[number, number]> = [];
  for (const range of ranges) if (apart.length === 0 || range[0] >= apart[apart.length - 1]![1]) apart.push(range);
  return apart;
}

/**
 * The matches in a short text shown whole (a tool call's one line), found as a snippet's are (rangesIn);
 * none without a pattern. A word running into the cut the text ends with (`…`) is left out: the word
 * stored there may be longer (`cursors` shown as `cursor…`), and a mark would say it matched.
 */
export function highlightsIn(text: string, pattern: TermPattern | null): Array<[number, number]> {
  if (pattern === null || text === '') return [];
  const cut = text.endsWith('…') ? text.length - 1 : -1;
  return rangesIn(indexReading(text, false), pattern)
    .filter(([, end]) => end !== cut)
    .slice(0, MAX_HIGHLIGHTS);
}

/** Where an excerpt of a longer text lies in it: `at` is its first match's offset in the excerpt. */
export interface Excerpt {
  text: string;
  at: number;
  cutBefore: boolean;
  cutAfter: boolean;
  /** The text it was cut from is JSON (looksLikeJson): the excerpt is read as the index read that text. */
  json: boolean;
  /** That text is JSON by redaction's rule (isJsonText): the excerpt is redacted as a piece of it (see redactPieces). */
  redactAsJson: boolean;
  /** Where in that text the word of its first match ends (a later excerpt may start looking there); -1 when none matched. */
  past: number;
}

/**
 * The stretch of `text` a snippet is cut from, with room on both sides for the context a secret is
 * recognised by (the key id beside an AWS secret, the `Bearer` before a token, a PEM header): it is
 * redacted whole before the snippet is cut from it, so the cut cannot hide that context.
 */
export function excerptOf(text: string, pattern: TermPattern | null, from = 0): Excerpt {
  const found = pattern === null ? -1 : firstFrom(pattern, text, from);
  const first = Math.max(0, found);
  const json = looksLikeJson(text);
  const [start, to] = redactableCut(text, first - REDACT_CONTEXT, first + WINDOW + REDACT_CONTEXT);
  return { text: text.slice(start, to), at: first - start, cutBefore: start > 0, cutAfter: to < text.length, json, redactAsJson: isJsonText(text), past: found < 0 ? -1 : wordEnd(text, found) };
}

/** A stretch of a part's text to redact, and whether that whole text is JSON by redaction's rule (isJsonText). */
export interface Piece {
  text: string;
  redactAsJson: boolean;
}

/**
 * Pieces redacted many to a pass (redactAll), each read as the text it was cut from is: a piece from
 * deep inside a JSON text does not begin as one, yet its `\n` is a line break there (else a secret's
 * rule runs on into the next line's first word, and a token at a line's start is missed). A page's
 * JSON and plain pieces share its passes, each with its own flag (RedactOptions.json).
 */
export async function redactPieces(pieces: readonly Piece[], redactor: Redactor): Promise<string[]> {
  // Only texts redactAll runs (it skips empty ones), so its passes, made in order, take the flags in order.
  const run = pieces.filter((piece) => piece.text !== '');
  let next = 0;
  const asCut: Redactor = { ...redactor, redactMany: (texts) => redactor.redactMany(texts, { json: run.slice(next, (next += texts.length)).map((piece) => piece.redactAsJson) }) };
  const done = await redactAll(
    run.map((piece) => piece.text),
    asCut,
  );
  let k = 0;
  return pieces.map((piece) => (piece.text === '' ? '' : (done[k++] ?? '')));
}

/** How far a cut's edge moves out to leave whole the run of characters it fell in (a token cut short no longer looks like one). */
const RUN_REACH = 4_096;
/** What ends a run a secret could be: white space, quotes and the punctuation around values. */
const RUN_END = /[\s"'`,;()[\]{}<>|]/;
/** How far back a cut looks for the header of a key block it fell in. */
const BLOCK_REACH = 16_384;
/** Key blocks whose lines are a secret only below their header (PEM, PuTTY's private lines). */
const BLOCK_HEADER = /-----BEGIN[ A-Z0-9_-]{0,100}-----|Private-Lines:/g;
const BLOCK_FOOTER = '-----END';

/**
 * text[from, to) widened so that what is redacted of it is redacted as in the whole text: no token cut
 * short, no key block cut from its header (the lines of a PEM body are recognised by the BEGIN line
 * above them), and not inside a run of backslashes (JSON's escapes are read in pairs from the first).
 * The one rule for every stretch a redacted search looks at: snippets' excerpts and the re-check's pieces.
 */
export function redactableCut(text: string, from: number, to: number): [number, number] {
  let start = runStart(text, wholeAt(text, Math.max(0, from)));
  start = blockStart(text, start);
  while (start > 0 && text.charCodeAt(start - 1) === 92) start -= 1;
  return [start, runEnd(text, wholeAt(text, Math.min(text.length, to)))];
}

/** `at` moved back to the start of the run it falls in (within RUN_REACH). */
function runStart(text: string, at: number): number {
  const floor = Math.max(0, at - RUN_REACH);
  let from = at;
  while (from > floor && !RUN_END.test(text[from - 1]!)) from -= 1;
  return from === floor && floor > 0 ? at : from;
}

/** `at` moved on to the end of the run it falls in (within RUN_REACH). */
function runEnd(text: string, at: number): number {
  const ceiling = Math.min(text.length, at + RUN_REACH);
  let to = at;
  while (to < ceiling && !RUN_END.test(text[to]!)) to += 1;
  return to === ceiling && ceiling < text.length ? at : to;
}

/** `at` moved back to the header of a key block it falls inside (one whose footer is not before `at`). */
function blockStart(text: string, at: number): number {
  const floor = Math.max(0, at - BLOCK_REACH);
  const before = text.slice(floor, at);
  let header = -1;
  for (const m of before.matchAll(BLOCK_HEADER)) header = m.index;
  if (header < 0 || before.includes(BLOCK_FOOTER, header)) return at;
  return floor + header;
}

/** Where the first match at or after `from` begins, or -1. */
function firstFrom(pattern: TermPattern, text: string, from: number): number {
  if (from === 0) return pattern.firstIn(text);
  const at = pattern.firstIn(text.slice(from));
  return at < 0 ? -1 : at + from;
}

/** Where the word at `at` ends: the next place a match may start. */
function wordEnd(text: string, at: number): number {
  let end = at + 1;
  while (end < text.length && /[\p{L}\p{N}\p{M}_]/u.test(text[end]!)) end += 1;
  return end;
}

/**
 * The excerpt starts a little before the first match, at a word boundary, and holds one line of text.
 * `around`: `text` is an excerpt of a longer text (see excerptOf), redacted since, so its match may be gone.
 */
export function snippetOf(text: string | null, pattern: TermPattern | null, around?: Excerpt): Snippet {
  if (text === null || text === '') return { text: '', highlights: [] };
  // Matched as the index read the text; shown as it is (the same length: offsets agree).
  const read = indexReading(text, around?.json);
  const found = pattern?.firstIn(read, READ) ?? -1;
  const first = found < 0 && around ? Math.min(around.at, text.length) : found;
  let start = first <= LEAD ? 0 : first - LEAD;
  if (start > 0) {
    const space = text.lastIndexOf(' ', start + 15);
    if (space > start - 30 && space < first) start = space + 1;
  }
  start = wholeAt(text, start);
  const end = wholeAt(text, Math.min(text.length, start + WINDOW));
  const { body, at } = collapsed(text, start, end);
  const before = start > 0 || around?.cutBefore ? '…' : '';
  const snippet = `${before}${body}${end < text.length || around?.cutAfter ? '…' : ''}`;
  const cutShort = around?.cutAfter === true && start + WINDOW > text.length ? { cutShort: true } : {};
  if (pattern === null) return { text: snippet, highlights: [], ...cutShort };
  const highlights: Array<[number, number]> = [];
  for (const [from, to] of rangesAround(read, start, end, pattern)) {
    if (highlights.length >= MAX_HIGHLIGHTS) break;
    if (at[to - start]! > at[from - start]!) highlights.push([before.length + at[from - start]!, before.length + at[to - start]!]);
  }
  return { text: snippet, highlights, ...cutShort };
}

/** Characters of the text read on either side of a snippet, so a word the cut runs through is told from one it leaves whole. */
const EDGE_CONTEXT = 64;

/**
 * The matches lying wholly in text[start, end) (a text as the index reads it): found in the text around
 * it, so a word cut at an edge is not taken for a whole one.
 */
function rangesAround(text: string, start: number, end: number, pattern: TermPattern): Array<[number, number]> {
  const from = wholeAt(text, Math.max(0, start - EDGE_CONTEXT));
  const to = wholeAt(text, Math.min(text.length, end + EDGE_CONTEXT));
  return rangesIn(text.slice(from, to), pattern)
    .map(([a, b]): [number, number] => [a + from, b + from])
    .filter(([a, b]) => a >= start && b <= end);
}

const SPACE = /\s/;

/** text[start, end) with each run of white space as one space, trimmed; `at[i]` is where its offset start + i lands in that. */
function collapsed(text: string, start: number, end: number): { body: string; at: number[] } {
  let body = '';
  const at: number[] = [];
  let pending = false;
  for (let i = start; i < end; i += 1) {
    at.push(body.length + (pending ? 1 : 0));
    if (SPACE.test(text[i]!)) pending = body.length > 0;
    else {
      if (pending) body += ' ';
      pending = false;
      body += text[i]!;
    }
  }
  at.push(body.length);
  return { body, at };
}
