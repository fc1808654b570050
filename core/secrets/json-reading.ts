/**
 * A JSON text as its strings' line breaks read: a tool's input, or Codex's shell output in the wrapper it
 * sent the model (`{"output":"…\nbuild …"}`), holds its line breaks as the two characters `\` `n`. A rule
 * that ends a secret at white space ran on over such a break into the next line's first word, and a
 * vendor prefix glued to the `n` before it was no token's start (the key was left). Redaction reads
 * each escape a letter spells (`\n`, `\r`, `\t`, `\b`, `\f`) as the character it stands for, so it
 * hides what it would hide in the output the agent saw, and says each span in the stored text.
 * `\"`, `\\`, `\/` and `\uXXXX` stay as written: the shapes read an escaped quote as a value's own
 * (`"it\"s-a-s3cret"`), which a decoded one is not, so a quoted password would be cut at it. A span
 * that ends or starts inside such an escape takes it whole, so the stored text stays JSON.
 * This file imports nothing, as patterns.ts, which uses it, must not.
 */

/**
 * A text as redaction reads it; `at`: where each of its characters stands in the stored text (one more:
 * the end), for a JSON text with a backslash; null for any other, read as it is.
 */
export interface JsonReading {
  text: string;
  at: Int32Array | null;
}

/**
 * A text that begins as JSON does (looksLikeJson's rule in the search index): an object whose first
 * key or end follows its `{`, or an array (of arrays) whose first value is a string, an object or its
 * end. A person's `C:\new folder` is not, and keeps its backslashes: a password holding `\n` stays whole.
 * A piece cut from inside a JSON text does not begin so: it is read as the text it came from (isJsonText of that).
 */
const JSON_START = /^\s*(?:\[[\s[]*["\]]|(?:\[[\s[]*)?\{\s*["}])/;

/**
 * Whether `raw` is a JSON text, read as its strings' line breaks read: the one rule, asked of a whole
 * part's text; a piece cut from inside it is read as that text is (jsonReading's `json`).
 */
export function isJsonText(raw: string): boolean {
  return JSON_START.test(raw);
}

/** The escapes a letter spells: control characters, read as the line break or tab they stand for. */
const LETTER: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

/** The length of the escape at `from` (a backslash): 6 for `\uXXXX`, else 2, cut short where the text ends. */
function escapeLength(raw: string, from: number): number {
  return Math.min(raw[from + 1] === 'u' ? 6 : 2, raw.length - from);
}

/**
 * `raw` read with its letter escapes decoded when it is JSON and holds any; else as it is. Escapes are
 * read in pairs from the first backslash of a run: `\\n` is an escaped backslash, then a letter n.
 * `json`: whether the text `raw` was cut from is JSON (isJsonText of it), for a piece that need not begin as one.
 */
export function jsonReading(raw: string, json = isJsonText(raw)): JsonReading {
  if (!json || !raw.includes('\\')) return { text: raw, at: null };
  const at = new Int32Array(raw.length + 1);
  let text = '';
  let n = 0;
  let from = 0;
  for (let i = raw.indexOf('\\'); i >= 0; i = raw.indexOf('\\', i)) {
    const size = escapeLength(raw, i);
    const letter = size === 2 ? LETTER[raw[i + 1]!] : undefined;
    if (letter !== undefined) {
      for (let k = from; k < i; k += 1) at[n++] = k;
      text += raw.slice(from, i) + letter;
      at[n++] = i;
      from = i + 2;
    }
    i += size;
  }
  for (let k = from; k < raw.length; k += 1) at[n++] = k;
  at[n] = raw.length;
  return { text: text + raw.slice(from), at: at.subarray(0, n + 1) };
}

/** Where the escape holding offset `at` of `raw` starts, and where it ends (`at` itself when no escape holds it inside). */
function escapeAround(raw: string, at: number): [number, number] {
  let i = raw.lastIndexOf('\\', at - 1);
  // The run of backslashes before `at` (at most 5 back: `\uXXXX`), read in pairs from its first.
  if (i < 0 || at - i > 5) return [at, at];
  while (i > 0 && raw[i - 1] === '\\') i -= 1;
  for (; i < at; ) {
    const size = escapeLength(raw, i);
    if (i + size > at) return [i, i + size];
    i += size;
    if (raw[i] !== '\\') break;
  }
  return [at, at];
}

/**
 * Spans of a reading's text as spans of the stored text: a character read stands for its whole escape,
 * and a span that starts or ends inside an escape kept as written takes it whole (an over-cut of one
 * character, never a lone backslash that would end the JSON string early or eat its quote).
 */
export function storedSpans(raw: string, { at }: JsonReading, spans: ReadonlyArray<[number, number]>): Array<[number, number]> {
  if (at === null) return [...spans];
  const out: Array<[number, number]> = [];
  for (const [start, end] of spans) {
    const span: [number, number] = [escapeAround(raw, at[start]!)[0], escapeAround(raw, at[end]!)[1]];
    // Two spans widened into the escape between them are one.
    const last = out[out.length - 1];
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push(span);
  }
  return out;
}
