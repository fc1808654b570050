/** A bounded excerpt of a part around what matched, with [start, end) offsets of each match in it. */
export interface Snippet {
  text: string;
  highlights: Array<[number, number]>;
}

const WINDOW = 240;
const LEAD = 70;
const MAX_HIGHLIGHTS = 50;

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

/** The excerpt starts a little before the first match, at a word boundary, and holds one line of text. */
export function snippetOf(text: string | null, pattern: RegExp | null): Snippet {
  if (text === null || text === '') return { text: '', highlights: [] };
  const first = pattern === null ? -1 : text.search(pattern);
  let start = first <= LEAD ? 0 : first - LEAD;
  if (start > 0) {
    const space = text.lastIndexOf(' ', start + 15);
    if (space > start - 30 && space < first) start = space + 1;
  }
  const end = Math.min(text.length, start + WINDOW);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  const snippet = `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
  return { text: snippet, highlights: highlightsIn(snippet, pattern) };
}
