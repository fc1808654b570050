import { cjkSegments, hasCjk, identifierPieces, indexReading, isCjkAt } from '../gateway/index.js';

/**
 * Where a query's terms stand in a text, found the way the full-text index found the text (search_fts:
 * unicode61 with remove_diacritics 2, over searchText), so a snippet shows, marks and ranks what the
 * index matched and nothing else: a term matches whole tokens (a word, or a phrase as consecutive
 * tokens; a prefix term's last word starts a token), compared case- and accent-folded; the pieces of a
 * camelCase or letter-digit identifier are tokens too (searchText indexes them), and so are, in a token
 * with Chinese or Japanese characters, each of those characters and each run of other letters between
 * them (searchTextV2): a term with such characters matches any stretch of a token it spells. A text
 * is read as the index reads it (indexReading, searchTextV3): in JSON, `\n` before a word is a line
 * break, not an `n` that begins it.
 */

/** unicode61's token characters (its default categories L* N* Co); every other character separates tokens. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u;
const TOKEN_CHAR_AT = /[\p{L}\p{N}\p{Co}]/uy;
const TOKENS = /[\p{L}\p{N}\p{Co}]+/gu;
/** Runs of non-ASCII code units (without the u flag, which V8 scans far slower; a surrogate pair stays whole in a run). */
const NON_ASCII = /[\u0080-\uffff]+/g;
const MARKS = /\p{M}/gu;
const ASCII_LETTER = /^[a-z]$/;

/**
 * The combining marks unicode61 keeps inside a token and drops (sqlite3Fts5UnicodeIsdiacritic, a bit per
 * code point from U+0300 to U+0331); any other mark, and one that starts a token, separates tokens.
 */
function isIndexDiacritic(code: number): boolean {
  if (code < 0x300 || code > 0x331) return false;
  return code < 0x320 ? (0x08029fdf & (1 << (code - 0x300))) !== 0 : (0x000361f8 & (1 << (code - 0x320))) !== 0;
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

const folds = new Map<string, string | null>();

/**
 * One character as the index folds it, or null when it separates tokens: case-folded (`ſ` is `s`, `ς`
 * is `σ`), and a letter whose accents sit on a plain ASCII letter without them (unicode61's table maps
 * to ASCII only: `é` is `e`, `ǿ` stays, and Greek and Cyrillic keep theirs).
 */
function foldChar(ch: string): string | null {
  let out = folds.get(ch);
  if (out === undefined) {
    if (TOKEN_CHAR.test(ch)) {
      // Through upper case, as case folding does; not where that grows (`ß`), nor for the dotless `ı`, which folds to itself.
      const upper = ch.toUpperCase();
      const folded = ch !== '\u0131' && [...upper].length === 1 ? upper.toLowerCase() : ch.toLowerCase();
      const base = folded.normalize('NFD').replace(MARKS, '');
      out = ASCII_LETTER.test(base) ? base : folded;
    } else out = null;
    if (folds.size > 10_000) folds.clear();
    folds.set(ch, out);
  }
  return out;
}

/**
 * A text folded as the index folds it, and how its offsets moved: from folded offset `shifts[k][0]` on,
 * the text's offset is the folded one less `shifts[k][1]` (a combining accent the fold dropped).
 */
interface Folded {
  text: string;
  shifts: Array<[number, number]>;
}

function fold(text: string): Folded {
  const shifts: Array<[number, number]> = [];
  let delta = 0;
  const folded = text.replace(NON_ASCII, (run: string, offset: number) => {
    let inToken = isAsciiAlnum(text.charCodeAt(offset - 1));
    let out = '';
    let at = offset;
    for (const ch of run) {
      let piece: string;
      // unicode61 keeps a diacritic inside a token, and drops it; one that would start a token separates.
      if (isIndexDiacritic(ch.codePointAt(0)!)) piece = inToken ? '' : ch;
      else {
        const f = foldChar(ch);
        inToken = f !== null;
        piece = f ?? ch;
      }
      out += piece;
      if (piece.length !== ch.length) {
        delta += piece.length - ch.length;
        shifts.push([at + delta + ch.length, delta]);
      }
      at += ch.length;
    }
    return out;
  });
  // Only ASCII is left to lower: what the fold wrote is folded already.
  return { text: folded.toLowerCase(), shifts };
}

/** The text's offset of a folded one. */
function originOf({ shifts }: Folded, at: number): number {
  let low = 0;
  let high = shifts.length - 1;
  let delta = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (shifts[mid]![0] <= at) {
      delta = shifts[mid]![1];
      low = mid + 1;
    } else high = mid - 1;
  }
  return at - delta;
}

/**
 * One way a term is matched: its words as consecutive tokens, the last only a token's start when
 * `prefix`. `within`: the words are a token's segments (cjkSegments), also matched as a stretch of one token.
 */
interface Alternative {
  words: string[];
  prefix: boolean;
  within?: boolean;
}

/** The ways one term is matched: as written, and (an identifier with humps) as the phrase of its pieces. */
export type Term = Alternative[];

/**
 * The terms as the index matches them, in their order, less those without a word (`"  "`). `prefixes`
 * are the terms typed with a `*` (PreparedQuery.prefixes): without it a term matches whole words only.
 * An identifier typed with humps is searched as itself or as the phrase of its pieces (prepareQuery).
 */
export function compileTerms(terms: readonly string[], prefixes: readonly string[] = []): Term[] {
  const isPrefix = new Set(prefixes);
  const out: Term[] = [];
  for (const term of terms) {
    const words = fold(term).text.match(TOKENS) ?? [];
    if (words.length === 0) continue;
    if (hasCjk(term)) {
      out.push(...cjkTerms(words, isPrefix.has(term)));
      continue;
    }
    const prefix = isPrefix.has(term);
    const alternatives: Alternative[] = [{ words, prefix }];
    const pieces = identifierPieces(term);
    if (pieces.length > 1) alternatives.push({ words: pieces.map((p) => p.toLowerCase()), prefix });
    out.push(alternatives);
  }
  return out;
}

/**
 * The terms of a term with Chinese or Japanese characters, one per token, as the query searches it
 * (the tokens ANDed, see prepareQuery): a token with such characters by its segments, within a token
 * too; any other token as a word. The prefix is its last token's.
 */
function cjkTerms(tokens: readonly string[], prefix: boolean): Term[] {
  return tokens.map((token, i) => {
    const last = prefix && i === tokens.length - 1;
    return hasCjk(token) ? [{ words: cjkSegments(token), prefix: last, within: true }] : [{ words: [token], prefix: last }];
  });
}

/** A single Chinese character is a word: only other one-letter terms stand aside. */
const isOneLetter = (term: Term) => term.every((a) => !a.within && a.words.every((w) => [...w].length === 1));

/** One-letter terms would light up every line: they count only when nothing longer was asked for. */
export function withoutOneLetterTerms(terms: readonly Term[]): Term[] {
  const longer = terms.filter((t) => !isOneLetter(t));
  return longer.length > 0 ? longer : [...terms];
}

function tokenCharAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return isAsciiAlnum(code);
  TOKEN_CHAR_AT.lastIndex = at;
  return TOKEN_CHAR_AT.test(text);
}

function tokenCharBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  const low = text.charCodeAt(at - 1);
  const high = at > 1 ? text.charCodeAt(at - 2) : 0;
  return tokenCharAt(text, low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? at - 2 : at - 1);
}

/** Whether the character before `at` is Chinese or Japanese: where a segment of a token with such characters may begin. */
function cjkBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  const low = text.charCodeAt(at - 1);
  return isCjkAt(text, low >= 0xdc00 && low <= 0xdfff && at > 1 ? at - 2 : at - 1);
}

/** Whether a segment (cjkSegments) of letters other than Chinese or Japanese may end at `at`. */
function segmentEndsAt(text: string, at: number): boolean {
  return !tokenCharAt(text, at) || isCjkAt(text, at);
}

/** The offset of the first token character at or after `at`, or the text's length. */
function nextToken(text: string, at: number): number {
  let next = at;
  while (next < text.length && !tokenCharAt(text, next)) next += text.codePointAt(next)! > 0xffff ? 2 : 1;
  return next;
}

/** The alternative's words as consecutive tokens of the text from `at`, as folded ranges; null when they are not. */
function tokensAt(folded: string, at: number, { words, prefix }: Alternative): Array<[number, number]> | null {
  // One word is also a segment of a token with Chinese or Japanese characters (`React` of `React入門`).
  if (words.length === 1) return segmentAt(folded, at, words[0]!, prefix);
  if (tokenCharBefore(folded, at)) return null;
  const ranges: Array<[number, number]> = [];
  let from = at;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    const last = i === words.length - 1;
    const end = from + word.length;
    if (!folded.startsWith(word, from)) return null;
    if (!(last && prefix) && tokenCharAt(folded, end)) return null;
    ranges.push([from, end]);
    if (last) break;
    from = nextToken(folded, end);
  }
  return ranges;
}

/** One word as a whole token, or as a whole segment of one (see tokensAt). */
function segmentAt(folded: string, at: number, word: string, prefix: boolean): Array<[number, number]> | null {
  if (!folded.startsWith(word, at)) return null;
  if (tokenCharBefore(folded, at) && !cjkBefore(folded, at)) return null;
  const end = at + word.length;
  return prefix || segmentEndsAt(folded, end) ? [[at, end]] : null;
}

/**
 * A term with Chinese or Japanese characters as a stretch of one token: its segments side by side,
 * a run of other letters at either end whole (a prefix at the end when `prefix`); or as tokens.
 */
function withinAt(folded: string, at: number, alternative: Alternative): Array<[number, number]> | null {
  const { words, prefix } = alternative;
  const stretch = words.join('');
  if (!folded.startsWith(stretch, at)) return tokensAt(folded, at, alternative);
  const end = at + stretch.length;
  const startsWhole = hasCjk(words[0]!) || !tokenCharBefore(folded, at) || cjkBefore(folded, at);
  const endsWhole = prefix || hasCjk(words[words.length - 1]!) || segmentEndsAt(folded, end);
  return startsWhole && endsWhole ? [[at, end]] : tokensAt(folded, at, alternative);
}

const CAPITAL_OR_DIGIT = /[A-Z0-9]/;

/**
 * The edges of the pieces searchText indexes for the ASCII identifier a text offset lies in (`parseConfig`:
 * 0, 5, 11), or none; the last identifier's are kept, as matches are looked for in the order of the text.
 */
class PieceEdges {
  #from = -1;
  #to = -1;
  #edges: number[] = [];

  constructor(private readonly text: string) {}

  around(at: number): number[] {
    if (at >= this.#from && at < this.#to) return this.#edges;
    if (!isAsciiAlnum(this.text.charCodeAt(at))) return [];
    let from = at;
    while (from > 0 && isAsciiAlnum(this.text.charCodeAt(from - 1))) from -= 1;
    let to = at + 1;
    while (to < this.text.length && isAsciiAlnum(this.text.charCodeAt(to))) to += 1;
    const run = this.text.slice(from, to);
    const edges = [from];
    // A hump needs a capital or a digit: a run of small letters (most words) has no pieces.
    if (CAPITAL_OR_DIGIT.test(run)) for (const piece of identifierPieces(run)) edges.push(edges[edges.length - 1]! + piece.length);
    this.#from = from;
    this.#to = to;
    this.#edges = edges.length > 2 ? edges : [];
    return this.#edges;
  }
}

/** Whether a piece of an identifier may start at text offset `at`: where its run starts, or at a hump (`parse|Config`, `HTTP|Server`, `TS|2345`). */
function mayStartPiece(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  if (!isAsciiAlnum(code)) return false;
  if (!isAsciiAlnum(before)) return true;
  const isDigit = (c: number) => c >= 48 && c <= 57;
  return (code >= 65 && code <= 90) || isDigit(code) !== isDigit(before);
}

/** The index of `value` in the ascending `list`, or -1. */
function indexIn(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (list[mid] === value) return mid;
    if (list[mid]! < value) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** The alternative's words as consecutive pieces of one identifier from folded `at` (text offset `start`), as folded ranges. */
function piecesAt(folded: string, at: number, start: number, edges: readonly number[], { words, prefix }: Alternative): Array<[number, number]> | null {
  const first = indexIn(edges, start);
  if (first < 0 || first + words.length >= edges.length) return null;
  // An identifier is ASCII: folded, it keeps its length, so its offsets move by one shift.
  const shift = at - start;
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < words.length; i += 1) {
    const from = edges[first + i]! + shift;
    const to = edges[first + i + 1]! + shift;
    const word = words[i]!;
    if (!folded.startsWith(word, from)) return null;
    if (i === words.length - 1 && prefix) ranges.push([from, from + word.length]);
    else if (from + word.length === to) ranges.push([from, to]);
    else return null;
  }
  return ranges;
}

/** One match: which term (its index among the compiled terms), and the text ranges of its tokens. */
export interface TermMatch {
  term: number;
  ranges: Array<[number, number]>;
}

/**
 * How a text is handed to a TermPattern: as the part stores it (`read: false`), or already as the index
 * reads it (`read: true`: indexReading's, or a piece of that, which cannot tell whether it is JSON).
 */
export interface Reading {
  read: boolean;
}
const STORED: Reading = { read: false };

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The compiled terms of a query: their first words are looked for over folded text wherever they
 * stand, and each place is then held to the index's token edges. Read matches with matchesIn,
 * firstIn and countsIn.
 */
export class TermPattern {
  readonly #terms: readonly Term[];
  /** The terms' first words, longest first, as one RegExp without the u flag (literal words need none): V8 runs it on its fast path. */
  readonly #firsts: RegExp;
  /** A term matches inside a token: every place its first word is found is looked at. */
  readonly #within: boolean;

  constructor(terms: readonly Term[]) {
    if (terms.length === 0) throw new Error('A term pattern needs a term.');
    const firsts = [...new Set(terms.flatMap((t) => t.map((a) => a.words[0]!)))].sort((a, b) => b.length - a.length);
    this.#firsts = new RegExp(firsts.map(escape).join('|'), 'g');
    this.#terms = terms;
    this.#within = terms.some((t) => t.some((a) => a.within === true));
  }

  /** The words looked for first, as a pattern's source (`frost|cat`). */
  get source(): string {
    return this.#firsts.source;
  }

  /**
   * Each match in the text, in the order they begin, one per term and place (a place the whole
   * identifier and its pieces both match counts once), as folded ranges; `visit` returns true to stop.
   */
  #scan(stored: string, read: boolean, visit: (term: number, ranges: Array<[number, number]>, back: (at: number) => number) => boolean): void {
    // Same length as the stored text: a match's offsets are the stored text's.
    const text = read ? stored : indexReading(stored);
    const folded = fold(text);
    const back = (at: number) => (folded.shifts.length === 0 ? at : originOf(folded, at));
    const edges = new PieceEdges(text);
    const firsts = this.#firsts;
    firsts.lastIndex = 0;
    for (let found = firsts.exec(folded.text); found !== null; found = firsts.exec(folded.text)) {
      const at = found.index;
      // Every place is looked at: a match may begin inside another (a phrase's second word, a piece).
      firsts.lastIndex = at + (folded.text.codePointAt(at)! > 0xffff ? 2 : 1);
      const start = back(at);
      const piece = mayStartPiece(text, start);
      if (!piece && !this.#within && tokenCharBefore(folded.text, at) && !cjkBefore(folded.text, at)) continue;
      for (let t = 0; t < this.#terms.length; t += 1) {
        const term = this.#terms[t]!;
        for (let a = 0; a < term.length; a += 1) {
          const alternative = term[a]!;
          if (!folded.text.startsWith(alternative.words[0]!, at)) continue;
          const ranges = alternative.within
            ? withinAt(folded.text, at, alternative)
            : (tokensAt(folded.text, at, alternative) ?? (piece ? piecesAt(folded.text, at, start, edges.around(start), alternative) : null));
          if (ranges === null) continue;
          if (visit(t, ranges, back)) return;
          break;
        }
      }
    }
  }

  matchesIn(text: string, how: Reading = STORED): TermMatch[] {
    const out: TermMatch[] = [];
    this.#scan(text, how.read, (term, ranges, back) => {
      out.push({ term, ranges: ranges.map(([a, b]) => [back(a), back(b)]) });
      return false;
    });
    return out;
  }

  /**
   * The first `each` matches of every term, in the order they begin (see matchesIn): the scan stops
   * once every term has that many, so a long text full of one word is not read to its end.
   */
  firstMatchesIn(text: string, each: number): TermMatch[] {
    const out: TermMatch[] = [];
    const counts = this.#terms.map(() => 0);
    let full = 0;
    this.#scan(text, false, (term, ranges, back) => {
      if (counts[term]! >= each) return false;
      out.push({ term, ranges: ranges.map(([a, b]) => [back(a), back(b)]) });
      counts[term]! += 1;
      if (counts[term] === each) full += 1;
      return full === counts.length;
    });
    return out;
  }

  /** Where the first match begins, or -1. */
  firstIn(text: string, how: Reading = STORED): number {
    let first = -1;
    this.#scan(text, how.read, (_term, ranges, back) => {
      first = back(ranges[0]![0]);
      return true;
    });
    return first;
  }

  /** How many places each term matches, in the terms' order. */
  countsIn(text: string): number[] {
    const counts = this.#terms.map(() => 0);
    this.#scan(text, false, (term) => {
      counts[term]! += 1;
      return false;
    });
    return counts;
  }
}
