/**
 * What a person types, made into a full-text expression the index accepts. Words, "phrases",
 * prefix*, ^initial, AND/OR/NOT, NEAR(…) and (groups) keep their meaning; anything else that FTS5
 * would refuse as written (`src/app.ts`, `foo-bar`, `E0308:`, a command's `-rf`) is quoted as a phrase of its own.
 * Unbalanced quotes or parentheses cannot be repaired locally: the caller then searches the whole
 * input as one phrase and says so.
 */
export interface PreparedQuery {
  expression: string;
  /** What the person looked for, for highlighting: words and phrases without operators. */
  terms: string[];
  /** The text before each prefix term's `*` (`conf*`, `"load conf"*`): the index weighs what each stands for. */
  prefixes: string[];
  /**
   * The expression without what NOT leaves out: every part the expression matches, and those it left
   * out. A search whose results are redacted asks the index this, then holds each part's redacted text
   * to the whole expression (recheck.ts): the index sees secrets, so leaving out by it would tell them.
   */
  positive: string;
  /**
   * The terms the positive expression holds (`terms` less what NOT leaves out): what relevance counts.
   * A word after NOT is never in a hit as the reader sees it, and counted in stored text it told a
   * redacted search's order whether a secret starts with it.
   */
  positiveTerms: string[];
}

import { PART_ROLES, SEARCH_KINDS } from '../api/index.js';
import { cjkPhrases, hasCjk, holdsToken, identifierPieces } from '../gateway/index.js';

const OPERATORS = new Set(['AND', 'OR', 'NOT']);
/** The part columns a person may name (`tool_input:npm`); the filter column is not one of them. */
const COLUMNS = new Set(['body', 'thinking', 'tool_input', 'tool_output']);
const BAREWORD = /^[A-Za-z0-9_\u0080-\u{10FFFF}]+$/u;
const COLUMN_FILTER = /^(-?(?:\{[A-Za-z_ ]+\}|[A-Za-z_]+)):(.*)$/;

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

function namesOurColumns(spec: string): boolean {
  const names = spec.replace(/^-/, '').replace(/[{}]/g, ' ').trim().split(/\s+/);
  return names.length > 0 && names.every((name) => COLUMNS.has(name));
}

/**
 * Text with Chinese or Japanese characters as the index finds it (see core/gateway/cjk.ts): each token
 * as the phrase of its segments (`東京都` → `"東 京 都"`, which finds any run that holds 東京都), the
 * tokens ANDed: a phrase of the index's tokens cannot span two runs; each also as the whole token, which
 * is all a part indexed before migration 13 holds until the walk reaches it. A prefix is kept only where the
 * last segment is a word of other letters; a stretch of characters is found anywhere in a run already.
 * `stem` is the prefix as the index holds its last word, for weighing it; null when none is kept.
 * Null when the text has none of those characters.
 */
function cjkOperand(text: string, prefix: boolean): { operand: string; stem: string | null } | null {
  const phrases = cjkPhrases(text);
  if (phrases === null || phrases.length === 0) return null;
  const last = phrases[phrases.length - 1]!;
  const star = prefix && !hasCjk(last[last.length - 1]!) ? '*' : '';
  const operands = phrases.map((words, i) => {
    const end = i === phrases.length - 1 ? star : '';
    const spaced = `${quote(words.join(' '))}${end}`;
    // The token whole too: a part indexed before migration 13 holds only its whole runs until the walk re-indexes it.
    return words.length > 1 ? `(${spaced} OR ${quote(words.join(''))}${end})` : spaced;
  });
  return { operand: operands.length === 1 ? operands[0]! : `(${operands.join(' AND ')})`, stem: star ? last.join(' ') : null };
}

/** The input as one exact phrase: every token, in order (Chinese and Japanese as cjkOperand finds them). */
export function asPhrase(raw: string): PreparedQuery {
  const cjk = cjkOperand(raw.trim(), false);
  const expression = cjk?.operand ?? quote(raw.trim());
  return { expression, terms: [raw.trim()], prefixes: [], positive: expression, positiveTerms: [raw.trim()] };
}

/**
 * How a token sits between its neighbours: an operand (a word, a phrase, a NEAR group's `)`), a
 * group's `(` or `)`, a column filter (it binds what follows it), or syntax (operators, NEAR, its
 * comma and distance).
 */
type Role = 'operand' | 'open' | 'close' | 'column' | 'syntax';

class Scanner {
  readonly out: string[] = [];
  readonly terms: string[] = [];
  /** The index in `out` of the operand each term was written as. */
  readonly termAt: number[] = [];
  readonly prefixes: string[] = [];
  depth = 0;
  /** Depth of the NEAR( group we are in, or -1. */
  nearAt = -1;
  /** Just after NEAR's comma, where its distance goes. */
  distance = false;
  /** The last token ended an operand, and whether that operand was a (group). */
  #after: 'none' | 'operand' | 'group' = 'none';
  /** A column filter waiting for its operand: where it was written, and whether an operand preceded it. */
  #column: { at: number; afterOperand: boolean } | undefined;

  /**
   * Writes a token. FTS5 joins phrases side by side with an implicit AND, but not a (group): it refuses
   * `cat (mat OR dog)`, and `fix TS2345`, whose identifier is written `(TS2345 OR "TS 2345")`. So where
   * a group meets another operand an explicit AND goes between them (before the group's column filter,
   * if it has one). Only there: an implicit AND binds tighter than NOT, an explicit one does not.
   */
  emit(token: string, role: Role): void {
    const group = role === 'open' || (role === 'operand' && token.startsWith('('));
    const column = this.#column;
    this.#column = undefined;
    const joins = this.#after !== 'none' && role !== 'syntax' && role !== 'close' && !this.inNear();
    if (column) {
      if (group && column.afterOperand) this.out.splice(column.at, 0, 'AND');
    } else if (joins && (group || this.#after === 'group')) {
      this.out.push('AND');
    } else if (role === 'column') {
      // Whether it needs an AND before it depends on what it binds: told by the next token.
      this.#column = { at: this.out.length, afterOperand: joins };
    }
    this.out.push(token);
    this.#after = role === 'close' || (group && role === 'operand') ? 'group' : role === 'operand' ? 'operand' : 'none';
  }

  inNear(): boolean {
    return this.nearAt >= 0 && this.depth === this.nearAt;
  }

  word(word: string): void {
    const distance = this.distance;
    this.distance = false;
    if (OPERATORS.has(word)) return this.emit(word, 'syntax');
    // Inside NEAR(a b, 5) the comma and the distance are syntax; anywhere else a comma is text.
    if (this.inNear()) {
      if (distance && /^\d+$/.test(word)) return this.emit(word, 'syntax');
      if (word.endsWith(',')) {
        if (word.length > 1) this.word(word.slice(0, -1));
        this.emit(',', 'syntax');
        this.distance = true;
        return;
      }
    }
    const column = COLUMN_FILTER.exec(word);
    if (column && namesOurColumns(column[1]!)) {
      // The filter applies to what follows it, with no AND in between.
      this.emit(`${column[1]!} :`, 'column');
      if (column[2] !== '') this.word(column[2]!);
      return;
    }
    const initial = word.startsWith('^') ? '^' : '';
    const prefix = word.length > 1 && word.endsWith('*') ? '*' : '';
    const base = word.slice(initial.length, word.length - prefix.length);
    if (base === '') return;
    this.terms.push(base);
    this.#operandOf(base, initial, prefix);
    this.termAt.push(this.out.length - 1);
  }

  #operandOf(base: string, initial: string, prefix: string): void {
    const near = this.nearAt >= 0 && this.depth === this.nearAt;
    const cjk = initial || near ? null : cjkOperand(base, prefix !== '');
    if (cjk) return this.#emitCjk(base, cjk);
    if (prefix) this.prefixes.push(base);
    // An identifier is also found inside a longer one by its pieces (see identifierPieces); NEAR takes phrases only.
    const pieces = initial || near ? [] : identifierPieces(base);
    if (pieces.length > 1) {
      // The pieces' phrase is a prefix of its last piece (`configV*` looks for every word starting with v):
      // weighed like any prefix, so a broad one is matched off the owner's thread.
      if (prefix) this.prefixes.push(pieces.join(' '));
      return this.emit(`(${base}${prefix} OR ${quote(pieces.join(' '))}${prefix})`, 'operand');
    }
    this.emit(`${initial}${BAREWORD.test(base) ? base : quote(base)}${prefix}`, 'operand');
  }

  /** A word or phrase with Chinese or Japanese characters (see cjkOperand); `typed` is it as written, the term. */
  #emitCjk(typed: string, { operand, stem }: { operand: string; stem: string | null }): void {
    // The term is a prefix where the operand kept its `*`; the stem weighs it as the index holds it.
    if (stem !== null) this.prefixes.push(typed, stem);
    this.emit(operand, 'operand');
  }

  /** A "quoted phrase" (its `*` when `prefix`). */
  phrase(text: string, prefix: boolean): void {
    const cjk = this.inNear() ? null : cjkOperand(text, prefix);
    if (cjk) this.#emitCjk(text, cjk);
    else {
      this.emit(`${quote(text)}${prefix ? '*' : ''}`, 'operand');
      if (prefix) this.prefixes.push(text);
    }
    if (text.trim() === '') return;
    this.terms.push(text);
    this.termAt.push(this.out.length - 1);
  }
}

/** The expression for `raw`, or null when only the whole-phrase fallback can search it. */
export function prepareQuery(raw: string): PreparedQuery | null {
  const s = new Scanner();
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === '"') {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= raw.length) return null;
        if (raw[j] === '"' && raw[j + 1] === '"') {
          text += '"';
          j += 2;
        } else if (raw[j] === '"') break;
        else text += raw[j++];
      }
      const star = raw[j + 1] === '*';
      s.phrase(text, star);
      i = j + 1 + (star ? 1 : 0);
    } else if (ch === '(' || ch === ')') {
      // `(` is written before its depth is entered (an AND before it belongs outside), `)` inside its own.
      if (ch === '(') {
        s.emit(ch, 'open');
        s.depth += 1;
      } else {
        // A NEAR group stands beside other phrases as a phrase does; any other group needs an AND.
        s.emit(ch, s.nearAt === s.depth ? 'operand' : 'close');
        if (s.nearAt === s.depth) s.nearAt = -1;
        s.depth -= 1;
      }
      if (s.depth < 0) return null;
      i += 1;
    } else {
      let j = i;
      // A column set `{a b}:` holds spaces; it ends at its brace.
      if (ch === '{' && raw.indexOf('}', i) > i) j = raw.indexOf('}', i);
      while (j < raw.length && !/[\s()"]/.test(raw[j]!)) j += 1;
      const word = raw.slice(i, j);
      if (word === 'NEAR' && raw[j] === '(') {
        s.emit('NEAR', 'syntax');
        s.nearAt = s.depth + 1;
      } else s.word(word);
      i = j;
    }
  }
  if (s.depth !== 0 || s.out.length === 0) return null;
  // NEAR needs its "(" at once (no AND goes between them: NEAR is followed by its own group); everything else is separated by spaces.
  const written = (tokens: readonly string[]) => tokens.join(' ').replace(/NEAR \(/g, 'NEAR(');
  const kept = keptByNegations(s.out);
  const positiveTerms = s.terms.filter((_, i) => kept[s.termAt[i]!] === true);
  return { expression: written(s.out), terms: s.terms, prefixes: s.prefixes, positive: written(s.out.filter((_, i) => kept[i])), positiveTerms };
}

/**
 * Which tokens remain without each NOT and its right operand: all up to the next AND, OR or NOT, or the `)` that
 * closes its group (FTS5 binds NOT tighter than an explicit AND or OR, a run of phrases tighter than
 * NOT). A NOT with nothing on a side is left for the index to refuse as written.
 */
function keptByNegations(tokens: readonly string[]): boolean[] {
  const kept = tokens.map(() => false);
  let left: string | undefined;
  for (let i = 0; i < tokens.length; i += 1) {
    const end = tokens[i] === 'NOT' ? operandEnd(tokens, i + 1) : i;
    if (end === i || end === i + 1 || left === undefined || left === '(' || OPERATORS.has(left)) {
      kept[i] = true;
      left = tokens[i];
    } else i = end - 1;
  }
  return kept;
}

/** Where the operand starting at `from` ends: its first AND, OR, NOT or unmatched `)` outside groups. */
function operandEnd(tokens: readonly string[], from: number): number {
  let depth = 0;
  let at = from;
  for (; at < tokens.length; at += 1) {
    const token = tokens[at]!;
    if (depth === 0 && (OPERATORS.has(token) || token === ')')) break;
    if (token === '(') depth += 1;
    else if (token === ')') depth -= 1;
  }
  return at;
}

/** What withoutDangling left of the input: the words to search, and what was left out, in the order typed. */
export interface DanglingFree {
  text: string;
  leftOut: string[];
  /** A leading `NOT x` was moved after the words it excludes from. */
  moved?: true;
}

const DANGLING = new Set([...OPERATORS, 'NEAR']);

/** The input's tokens outside quotes, with where each stands; null when a quote is never closed (only the phrase fallback can search it). */
function tokensOf(raw: string): Array<{ text: string; start: number; end: number; bare: boolean }> | null {
  const tokens: Array<{ text: string; start: number; end: number; bare: boolean }> = [];
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i]!;
    let j = i + 1;
    if (/\s/.test(ch)) {
      i = j;
      continue;
    }
    if (ch === '"') {
      // A doubled quote is one quote inside the phrase.
      for (; ; j += 1) {
        if (j >= raw.length) return null;
        if (raw[j] === '"' && raw[j + 1] === '"') j += 1;
        else if (raw[j] === '"') break;
      }
      j += 1;
    } else if (ch !== '(' && ch !== ')') {
      while (j < raw.length && !/[\s()"]/.test(raw[j]!)) j += 1;
    }
    tokens.push({ text: raw.slice(i, j), start: i, end: j, bare: ch !== '"' && ch !== '(' && ch !== ')' });
    i = j;
  }
  return tokens;
}

/** How many tokens from `at` make one operand: a word or phrase, or a bracketed group to its closing bracket. */
function operandLength(tokens: ReadonlyArray<{ text: string }>, at: number): number {
  if (tokens[at] === undefined || tokens[at]!.text === ')') return 0;
  if (tokens[at]!.text !== '(') return 1;
  let depth = 0;
  for (let i = at; i < tokens.length; i += 1) {
    depth += tokens[i]!.text === '(' ? 1 : tokens[i]!.text === ')' ? -1 : 0;
    if (depth === 0) return i - at + 1;
  }
  return tokens.length - at;
}

/**
 * The input less what a person does not mean as words and the index would refuse or find nothing by:
 * an operator (AND, OR, NOT; NEAR without its brackets) with nothing before or after it, and a lone
 * `*`, which stands for no word. `kitchen AND` is searched as `kitchen`, not as the phrase "kitchen
 * AND", which is nowhere; a leading `NOT kitchen` goes with its word (there is nothing to exclude it
 * from). Operators inside the input are left to the syntax (and its phrase fallback).
 */
export function withoutDangling(raw: string): DanglingFree {
  const tokens = tokensOf(raw);
  if (tokens === null) return { text: raw, leftOut: [] };
  const kept = tokens.filter((t) => !(t.bare && /^\*+$/.test(t.text)));
  const dangling = (t: (typeof tokens)[number] | undefined) => t !== undefined && t.bare && DANGLING.has(t.text) && !(t.text === 'NEAR' && raw[t.end] === '(');
  // A leading NOT excludes from what follows it (`NOT kitchen deploy` is `deploy NOT kitchen`); with
  // nothing after it, it goes with what it would exclude: searching that would find the opposite.
  const moved: typeof tokens = [];
  while (dangling(kept[0])) {
    const excluded = kept[0]!.text === 'NOT' ? operandLength(kept, 1) : 0;
    const rest = kept.slice(1 + excluded);
    if (excluded > 0 && rest.length > 0 && !dangling(rest[0])) moved.push(...kept.splice(0, 1 + excluded));
    else kept.splice(0, 1 + excluded);
  }
  while (dangling(kept[kept.length - 1])) kept.pop();
  if (kept.length + moved.length === tokens.length && moved.length === 0) return { text: raw, leftOut: [] };
  const left = tokens.filter((t) => !kept.includes(t) && !moved.includes(t));
  const spelled = (list: typeof tokens) => list.map((t) => raw.slice(t.start, t.end)).join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  let text = raw;
  for (const t of [...left].reverse()) text = text.slice(0, t.start) + text.slice(t.end);
  if (moved.length > 0) text = `${spelled(kept)} ${spelled(moved)}`;
  return { text: text.trim(), leftOut: left.map((t) => t.text), ...(moved.length > 0 ? { moved: true } : {}) };
}

/**
 * Words a question is made of that say nothing of what it is about: an any-word search (anyWordsQuery)
 * that kept them would match nearly every part, and relevance ranks only the newest matches (RANK_CAP
 * in search.ts), so the parts the other words are about would never be among them.
 */
const COMMON_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from as into about than then so too very just ' +
    'is are was were be been being am do does did done doing have has had having ' +
    "i me my we us our you your he him his she her it its they them their this that these those there here " +
    'what which who whom whose why how when where can could should would will shall may might must ' +
    "not no any all some also let lets let's i'm i've we're we've you're it's don't didn't doesn't"
  ).split(' '),
);

/** A token as COMMON_WORDS holds it: lowercase, without the punctuation around it (`why?`, `“we`), with a straight apostrophe. */
const commonForm = (word: string) => word.toLowerCase().replace(/\u2019/g, "'").replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** A token written as a plain word: no phrase, group, operator, column filter, ^initial or prefix*, which are the person's syntax. */
function plainWord(token: { text: string; bare: boolean }): boolean {
  const { text, bare } = token;
  const column = COLUMN_FILTER.exec(text);
  return bare && !DANGLING.has(text) && !text.startsWith('^') && !text.endsWith('*') && !(column && namesOurColumns(column[1]!));
}

/**
 * The words a search for any of them looks for (`why did we pick WAL` → `pick`, `WAL`): the input's
 * plain words (see plainWord) less the common words of a question (COMMON_WORDS) and tokens that hold
 * no word the index finds. The caller may leave out more, by how common they are in its store. Null
 * unless the input is at least two plain words with one left to look for: syntax the person wrote
 * means what they wrote.
 */
export function anyWordsOf(raw: string): string[] | null {
  const tokens = tokensOf(raw);
  if (tokens === null || tokens.length < 2 || !tokens.every(plainWord)) return null;
  const kept = tokens.map((t) => t.text).filter((word) => holdsToken(word) && !COMMON_WORDS.has(commonForm(word)));
  return kept.length === 0 ? null : kept;
}

/** Words (from anyWordsOf) as a search for any of them: `pick OR WAL`. Null for none. */
export function anyWordsQuery(words: readonly string[]): PreparedQuery | null {
  return words.length === 0 ? null : prepareQuery(words.join(' OR '));
}

/** Characters a person may mean as part of a word (`C++`, `C#`, `build^2`) that the index holds no token for; not a sentence's `?` or `!`. */
const SYMBOL = /[+#^~=<>|&%]/;
/** What the index holds of a word: its runs of letters and numbers, case folded (unicode61). */
const indexTokens = (word: string) => word.split(/[^\p{L}\p{N}\p{Co}]+/u).filter(Boolean).map((t) => t.toLowerCase());

/**
 * The plain words of the input that hold a symbol the index leaves out, each with what was searched
 * for it (`C++` → `c`, `build^2` → `build 2`): a hit on `src/c.ts` for `C++` must not read as a
 * match of what was typed. A leading `^` and a trailing `*` are syntax, not symbols; so is a column filter.
 */
/**
 * Names a person types as a column that the index has no column of: a part's kinds and roles (`text:`,
 * `user:`), which are filters of their own. Only these: `build:calendar` or `https://…` is text, not a
 * column anyone meant, and says nothing.
 */
const FILTER_NAMES: ReadonlySet<string> = new Set([...SEARCH_KINDS, ...PART_ROLES, 'kind', 'role']);

/**
 * The words of the input written as a column filter (`text:backoff`) whose name is no column but a
 * filter's: each is searched as written, as anything else is, and a search says so rather than only
 * "No matches.". `name` is the name typed, `typed` the whole word.
 */
export function unknownColumnsOf(raw: string): Array<{ typed: string; name: string }> {
  return (tokensOf(raw) ?? []).flatMap((t) => {
    const name = t.bare ? COLUMN_FILTER.exec(t.text)?.[1] : undefined;
    return name !== undefined && FILTER_NAMES.has(name.replace(/^-/, '')) ? [{ typed: t.text, name: name.replace(/^-/, '') }] : [];
  });
}

export function symbolsLeftOut(raw: string): Array<{ typed: string; searched: string }> {
  return (tokensOf(raw) ?? []).flatMap((t) => {
    if (!t.bare || DANGLING.has(t.text) || COLUMN_FILTER.exec(t.text)) return [];
    const base = t.text.replace(/^\^/, '').replace(/\*$/, '');
    if (!SYMBOL.test(base)) return [];
    return [{ typed: t.text, searched: indexTokens(base).join(' ') }];
  });
}
