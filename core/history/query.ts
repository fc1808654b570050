/**
 * What a person types, made into a full-text expression the index accepts. Words, "phrases",
 * prefix*, ^initial, AND/OR/NOT, NEAR(…) and (groups) keep their meaning; anything else that FTS5
 * would refuse as written (`src/app.ts`, `foo-bar`, `E0308:`) is quoted as a phrase of its own.
 * Unbalanced quotes or parentheses cannot be repaired locally: the caller then searches the whole
 * input as one phrase and says so.
 */
export interface PreparedQuery {
  expression: string;
  /** What the person looked for, for highlighting: words and phrases without operators. */
  terms: string[];
  /** The text before each prefix term's `*` (`conf*`, `"load conf"*`): the index weighs what each stands for. */
  prefixes: string[];
}

import { identifierPieces } from '../gateway/index.js';

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

/** The input as one exact phrase: every token, in order. */
export function asPhrase(raw: string): PreparedQuery {
  return { expression: quote(raw.trim()), terms: [raw.trim()], prefixes: [] };
}

class Scanner {
  readonly out: string[] = [];
  readonly terms: string[] = [];
  readonly prefixes: string[] = [];
  depth = 0;
  /** Depth of the NEAR( group we are in, or -1. */
  nearAt = -1;
  /** Just after NEAR's comma, where its distance goes. */
  distance = false;

  word(word: string): void {
    const distance = this.distance;
    this.distance = false;
    if (OPERATORS.has(word)) return void this.out.push(word);
    // Inside NEAR(a b, 5) the comma and the distance are syntax; anywhere else a comma is text.
    if (this.nearAt >= 0 && this.depth === this.nearAt) {
      if (distance && /^\d+$/.test(word)) return void this.out.push(word);
      if (word.endsWith(',')) {
        if (word.length > 1) this.word(word.slice(0, -1));
        this.out.push(',');
        this.distance = true;
        return;
      }
    }
    const column = COLUMN_FILTER.exec(word);
    if (column && namesOurColumns(column[1]!)) {
      this.out.push(`${column[1]!} :`);
      if (column[2] !== '') this.word(column[2]!);
      return;
    }
    const initial = word.startsWith('^') ? '^' : '';
    const prefix = word.length > 1 && word.endsWith('*') ? '*' : '';
    const base = word.slice(initial.length, word.length - prefix.length);
    if (base === '') return;
    this.terms.push(base);
    if (prefix) this.prefixes.push(base);
    // An identifier is also found inside a longer one by its pieces (see identifierPieces); NEAR takes phrases only.
    const pieces = initial || (this.nearAt >= 0 && this.depth === this.nearAt) ? [] : identifierPieces(base);
    if (pieces.length > 1) {
      // The pieces' phrase is a prefix of its last piece (`configV*` looks for every word starting with v):
      // weighed like any prefix, so a broad one is matched off the owner's thread.
      if (prefix) this.prefixes.push(pieces.join(' '));
      return void this.out.push(`(${base}${prefix} OR ${quote(pieces.join(' '))}${prefix})`);
    }
    this.out.push(`${initial}${BAREWORD.test(base) ? base : quote(base)}${prefix}`);
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
      const star = raw[j + 1] === '*' ? '*' : '';
      s.out.push(`${quote(text)}${star}`);
      if (text.trim() !== '') s.terms.push(text);
      if (star) s.prefixes.push(text);
      i = j + 1 + star.length;
    } else if (ch === '(' || ch === ')') {
      if (ch === '(') s.depth += 1;
      else {
        if (s.nearAt === s.depth) s.nearAt = -1;
        s.depth -= 1;
      }
      if (s.depth < 0) return null;
      s.out.push(ch);
      i += 1;
    } else {
      let j = i;
      // A column set `{a b}:` holds spaces; it ends at its brace.
      if (ch === '{' && raw.indexOf('}', i) > i) j = raw.indexOf('}', i);
      while (j < raw.length && !/[\s()"]/.test(raw[j]!)) j += 1;
      const word = raw.slice(i, j);
      if (word === 'NEAR' && raw[j] === '(') {
        s.out.push('NEAR');
        s.nearAt = s.depth + 1;
      } else s.word(word);
      i = j;
    }
  }
  if (s.depth !== 0 || s.out.length === 0) return null;
  // NEAR needs its "(" at once; everything else is separated by spaces.
  return { expression: s.out.join(' ').replace(/NEAR \(/g, 'NEAR('), terms: s.terms, prefixes: s.prefixes };
}
