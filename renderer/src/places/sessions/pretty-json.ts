import { mergedRanges, type Range } from './secret-marks.js';

/** A JSON value as written: where it stands in the source, and what it holds. */
type Node =
  | { kind: 'object'; members: Array<{ key: Node & { kind: 'string' }; value: Node }> }
  | { kind: 'array'; items: Node[] }
  | { kind: 'string'; start: number; end: number }
  | { kind: 'literal'; start: number; end: number };

/** Reads JSON already known to parse: each value with where it stands. */
function parseNode(source: string): Node {
  let at = 0;
  const space = () => {
    while (/\s/.test(source[at] ?? '')) at++;
  };
  const value = (): Node => {
    space();
    const ch = source[at];
    if (ch === '{' || ch === '[') {
      at++;
      const members: Array<{ key: Node & { kind: 'string' }; value: Node }> = [];
      const items: Node[] = [];
      space();
      while (source[at] !== '}' && source[at] !== ']') {
        if (ch === '{') {
          const key = value() as Node & { kind: 'string' };
          space();
          at++; // the colon
          members.push({ key, value: value() });
        } else items.push(value());
        space();
        if (source[at] === ',') at++;
        space();
      }
      at++;
      return ch === '{' ? { kind: 'object', members } : { kind: 'array', items };
    }
    const start = at;
    if (ch === '"') {
      for (at++; source[at] !== '"'; at++) if (source[at] === '\\') at++;
      return { kind: 'string', start, end: ++at };
    }
    while (at < source.length && !/[\s,\]}]/.test(source[at] ?? '')) at++;
    return { kind: 'literal', start, end: at };
  };
  return value();
}

/** A code unit JSON.stringify may write escaped: a quote, a backslash, a control character, a surrogate. */
const mayEscape = (unit: string): boolean => unit < ' ' || unit === '"' || unit === '\\' || /[\uD800-\uDFFF]/.test(unit);

/**
 * Prints JSON as JSON.stringify(JSON.parse(source), null, 2) does, keeping for each character of the
 * source where it went in the print: its keys in the order an object keeps them, its strings and
 * numbers as JSON writes them. `at[i]`: the print's span of source character i, if it is printed.
 */
class Printer {
  out = '';
  readonly at: Array<Range | undefined>;

  constructor(readonly source: string) {
    this.at = new Array<Range | undefined>(source.length);
  }

  #write(text: string, from?: number, to?: number): void {
    if (from !== undefined && to !== undefined) for (let i = from; i < to; i++) this.at[i] = [this.out.length, this.out.length + text.length];
    this.out += text;
  }

  /** A string as JSON writes it, code unit by code unit (an escape in the source is one unit). */
  #string(node: { start: number; end: number }): void {
    const units: Array<{ unit: string; from: number; to: number }> = [];
    for (let i = node.start + 1; i < node.end - 1; ) {
      const escape = this.source[i] === '\\';
      const length = escape ? (this.source[i + 1] === 'u' ? 6 : 2) : 1;
      units.push({ unit: escape ? (JSON.parse(`"${this.source.slice(i, i + length)}"`) as string) : (this.source[i] ?? ''), from: i, to: i + length });
      i += length;
    }
    this.#write('"');
    units.forEach(({ unit, from, to }, i) => {
      // A surrogate pair is written as it is; one alone is escaped, as JSON.stringify does.
      const paired = /[\uD800-\uDBFF]/.test(unit) ? /[\uDC00-\uDFFF]/.test(units[i + 1]?.unit ?? '') : /[\uDC00-\uDFFF]/.test(unit) && /[\uD800-\uDBFF]/.test(units[i - 1]?.unit ?? '');
      this.#write(paired || !mayEscape(unit) ? unit : JSON.stringify(unit).slice(1, -1), from, to);
    });
    this.#write('"');
  }

  print(node: Node, value: unknown, indent: string): void {
    if (node.kind === 'string') return this.#string(node);
    if (node.kind === 'literal') return this.#write(JSON.stringify(value), node.start, node.end);
    const inner = `${indent}  `;
    if (node.kind === 'array') {
      const items = value as unknown[];
      if (items.length === 0) return this.#write('[]');
      this.#write('[\n');
      node.items.forEach((item, i) => {
        this.#write(inner);
        this.print(item, items[i], inner);
        this.#write(i < items.length - 1 ? ',\n' : '\n');
      });
      return this.#write(`${indent}]`);
    }
    const object = value as Record<string, unknown>;
    // JSON.parse keeps a key where it first stands, with its last value, array indices first.
    const last = new Map(node.members.map((m) => [JSON.parse(this.source.slice(m.key.start, m.key.end)) as string, m]));
    const keys = Object.keys(object);
    if (keys.length === 0) return this.#write('{}');
    this.#write('{\n');
    keys.forEach((key, i) => {
      const member = last.get(key)!;
      this.#write(inner);
      this.#string(member.key);
      this.#write(': ');
      this.print(member.value, object[key], inner);
      this.#write(i < keys.length - 1 ? ',\n' : '\n');
    });
    this.#write(`${indent}}`);
  }
}

/**
 * A tool call's input pretty-printed (its text when it is no JSON), with `secrets`, [start, end) spans
 * of the text, carried to where the print shows them; a print not as JSON.stringify writes it marks all.
 */
export function prettyJson(text: string | null, secrets: readonly Range[] = []): { text: string; secrets: Range[] } {
  if (text === null) return { text: '', secrets: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { text, secrets: [...secrets] };
  }
  const pretty = JSON.stringify(value, null, 2);
  if (secrets.length === 0) return { text: pretty, secrets: [] };
  const printer = new Printer(text);
  printer.print(parseNode(text), value, '');
  // Never a secret unmarked: a print that differs (a case this printer missed) is marked whole.
  if (printer.out !== pretty) return { text: pretty, secrets: [[0, pretty.length]] };
  const marks: Array<[number, number]> = [];
  for (const [start, end] of secrets) {
    const spans = printer.at.slice(start, end).filter((span) => span !== undefined);
    if (spans.length > 0) marks.push([Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1]))]);
  }
  return { text: pretty, secrets: mergedRanges(marks) };
}
