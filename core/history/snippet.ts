import { wholeAt } from '../api/index.js';

/** A bounded excerpt of a part around what matched, with [start, end) offsets of each match in it. */
export interface Snippet {
  text: string;
  highlights: Array<[number, number]>;
}

const WINDOW = 240;
const LEAD = 70;
const MAX_HIGHLIGHTS = 50;
/** Characters on either side of a snippet that are redacted with it (see excerptOf). */
const REDACT_CONTEXT = 1_000;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The words of the terms, longest first, as one case-insensitive pattern; null when there are none. */
export function termPattern(terms: readonly string[]): RegExp | null {
  const words = new Set<string>();
  for (const term of terms) for (const word of term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) words.add(word);
  // One-letter words would light up every line; they count only when nothing longer was asked for.
  let list = [...words].filter((w) => w.length > 1);
  if (list.length === 0) list = [...words];
  if (list.length === 0) return null;
  list.sort((a, b) => b.length - a.length);
  return new RegExp(list.map(escape).join('|'), 'giu');
}

function highlightsIn(text: string, pattern: RegExp | null): Array<[number, number]> {
  if (pattern === null) return [];
  const out: Array<[number, number]> = [];
  for (const match of text.matchAll(pattern)) {
    out.push([match.index, match.index + match[0].length]);
    if (out.length >= MAX_HIGHLIGHTS) break;
  }
  return out;
}

/** Where an excerpt of a longer text lies in it: `at` is its first match's offset in the excerpt. */
export interface Excerpt {
  text: string;
  at: number;
  cutBefore: boolean;
  cutAfter: boolean;
}

/**
 * The stretch of `text` a snippet is cut from, with room on both sides for the context a secret is
 * recognised by (the key id beside an AWS secret, the `Bearer` before a token, a PEM header): it is
 * redacted whole before the snippet is cut from it, so the cut cannot hide that context.
 */
export function excerptOf(text: string, pattern: RegExp | null): Excerpt {
  const first = Math.max(0, pattern === null ? -1 : text.search(pattern));
  const from = wholeAt(text, Math.max(0, first - REDACT_CONTEXT));
  const to = wholeAt(text, Math.min(text.length, first + WINDOW + REDACT_CONTEXT));
  return { text: text.slice(from, to), at: first - from, cutBefore: from > 0, cutAfter: to < text.length };
}

/**
 * The excerpt starts a little before the first match, at a word boundary, and holds one line of text.
 * `around`: `text` is an excerpt of a longer text (see excerptOf), redacted since, so its match may be gone.
 */
export function snippetOf(text: string | null, pattern: RegExp | null, around?: Excerpt): Snippet {
  if (text === null || text === '') return { text: '', highlights: [] };
  const found = pattern === null ? -1 : text.search(pattern);
  const first = found < 0 && around ? Math.min(around.at, text.length) : found;
  let start = first <= LEAD ? 0 : first - LEAD;
  if (start > 0) {
    const space = text.lastIndexOf(' ', start + 15);
    if (space > start - 30 && space < first) start = space + 1;
  }
  start = wholeAt(text, start);
  const end = wholeAt(text, Math.min(text.length, start + WINDOW));
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  const snippet = `${start > 0 || around?.cutBefore ? '…' : ''}${body}${end < text.length || around?.cutAfter ? '…' : ''}`;
  return { text: snippet, highlights: highlightsIn(snippet, pattern) };
}
