/**
 * A JSON text as its strings read: a tool's input, or Codex's shell output in the wrapper it sent the
 * model (`{"output":"…\nbuild …"}`), holds its line breaks as the two characters `\` `n`. A rule that
 * ends a secret at white space ran on over such a break into the next line's first word, and a vendor
 * prefix glued to the `n` before it was no token's start (the key was left). Redaction reads each escape
 * a letter spells (`\n`, `\r`, `\t`, `\b`, `\f`) and each `\uXXXX` as the character it stands for, and
 * a line break or tab escaped twice (`\\n`: a JSON file inside a tool's input) as one, so it hides what
 * it would hide in the text the agent saw, and says each span in the stored text.
 * `\"`, `\\`, `\/`, `\u0022` and `\u005c` stay as written: the shapes read an escaped quote as a value's
 * own (`"it\"s-a-s3cret"`), which a decoded one is not, so a quoted password would be cut at it. A span
 * that ends or starts inside such an escape takes it whole, so the stored text stays JSON.
 * This file imports nothing, as patterns.ts, which uses it, must not.
 */

/**
 * A text as redaction reads it; `at`: where each of its characters stands in the stored text (one more:
 * the end), for a JSON text with a backslash; null for any other, read as it is. `json`: whether the
 * text is JSON (or a piece of one), whose secrets each lie inside one of its strings.
 */
export interface JsonReading {
  text: string;
  at: Int32Array | null;
  json: boolean;
  /**
   * Terminal escape sequences dropped (readingOf): where each character of `text` stands in the text
   * they were dropped from (jsonReading's), one more the end; absent when there were none.
   */
  kept?: Int32Array;
}

/**
 * A text that begins as JSON does (looksLikeJson's rule in the search index, exactly): an object whose
 * first key or end follows its `{`, or an array (of arrays) whose first value is a string, an object or
 * its end, with JSON's white space only (space, tab, CR, LF; not a form feed, a no-break space or a BOM)
 * between. A person's `C:\new folder` is not, and keeps its backslashes: a password holding `\n` stays
 * whole. A piece cut from inside a JSON text does not begin so: it is read as the text it came from
 * (isJsonText of that).
 */
const JSON_START = /^[ \t\r\n]*(?:\[[ \t\r\n[]*["\]]|(?:\[[ \t\r\n[]*)?\{[ \t\r\n]*["}])/;

/**
 * Whether `raw` is a JSON text, read as its strings' line breaks read: the one rule, asked of a whole
 * part's text; a piece cut from inside it is read as that text is (jsonReading's `json`).
 */
export function isJsonText(raw: string): boolean {
  return JSON_START.test(raw);
}

/** The escapes a letter spells: control characters, read as the line break or tab they stand for. */
const LETTER: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
/**
 * The line breaks and tab a text escaped twice spells (`\\n`); `\\b` is as often a Windows path's `\bin`.
 * Risk: a literal `\n` inside a password in a JSON string (`PGPASSWORD=Xk9q\\nZ7mQ2pLw`) is read as a line break
 * too, so the value is cut there and its rest shown, which is kept because reading `\\n` as written left tokens
 * after a shell's `printf 'a\\nghp_…'` glued to the `n` and unfound (hundreds of corpus samples).
 */
const TWICE: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };
/** The characters whose `\uXXXX` stays as written, as their short escapes do: a quote and a backslash. */
const KEPT_CODES = new Set([0x22, 0x5c]);

/** The length of the escape at `from` (a backslash): 6 for `\uXXXX`, else 2, cut short where the text ends. */
function escapeLength(raw: string, from: number): number {
  return Math.min(raw[from + 1] === 'u' ? 6 : 2, raw.length - from);
}

/**
 * The escape at `from` (a backslash), the first of `run` backslashes left of its run (keptOfRun): what it
 * is read as (undefined: kept as written) and how many stored characters it takes. Backslashes before a
 * line break's letter (`\\n`, `\\\\n`, keptOfRun's power of two) are that line break one or more levels
 * down, and an escaped backslash before an escaped quote (`\\\"`) that quote's backslash (read `\"`): a JSON
 * text held in a JSON string (a file an agent writes) reads as that text, with its quotes as stored (`\"`).
 * So a nested value's own escaped quote reads as the quotes around it do, and the shapes tell it by what
 * follows it (patterns.ts NESTED_OWN_QUOTE): a password's `ab\\\"cd` is hidden whole. A surrogate pair's
 * two escapes are read one by one, each half standing for its own six characters.
 */
function readEscape(raw: string, from: number, run: number): [read: string | undefined, size: number] {
  const next = raw[from + 1];
  if (next === 'u') {
    const hex = raw.slice(from + 2, from + 6);
    const code = /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : Number.NaN;
    return [Number.isNaN(code) || KEPT_CODES.has(code) ? undefined : String.fromCharCode(code), escapeLength(raw, from)];
  }
  if (run >= 2 && TWICE[raw[from + run] ?? ''] !== undefined) return [TWICE[raw[from + run]!], run + 1];
  // A quote's own backslash and quote, read as the nested text's quotes are stored (`\"`); what follows tells a value's own.
  if (next === '\\' && raw.startsWith('\\"', from + 2)) return ['\\"', 4];
  return [next === undefined ? undefined : LETTER[next], escapeLength(raw, from)];
}

/**
 * How many of the `run` backslashes at `from` stay as written before the escape that ends the run: a line
 * break escaped at any depth (`\\n` one level down, `\\\\n` two, `\\\\\\\\n` three: the run's lowest power
 * of two, after escaped backslashes of its own level) takes that tail whole, so no escaped backslash of the
 * levels above is left to read as a value's own (a bare password three levels deep took them, and its span
 * left no JSON). Else the pairs from the first stay, and the last one or three (`\\\"`) are read by readEscape.
 */
function keptOfRun(raw: string, from: number, run: number): number {
  const after = raw[from + run] ?? '';
  const lowest = run & -run;
  if (TWICE[after] !== undefined && lowest >= 2) return run - lowest;
  if (run % 2 === 0) return run;
  return after === '"' && run >= 3 ? run - 3 : run - 1;
}

/** The first `length` of `units` as a string, made in chunks (a call takes a bounded number of arguments). */
function unitsText(units: Uint16Array, length: number): string {
  const chunks: string[] = [];
  for (let from = 0; from < length; from += 8192) chunks.push(String.fromCharCode(...units.subarray(from, Math.min(length, from + 8192))));
  return chunks.join('');
}

/**
 * `raw` read with its escapes decoded (readEscape) when it is JSON and holds any; else as it is. Escapes
 * are read in pairs from the first backslash of a run (keptOfRun): `\\\\\\n` is two escaped backslashes, then `\\n`.
 * `json`: whether the text `raw` was cut from is JSON (isJsonText of it), for a piece that need not begin as one.
 */
export function jsonReading(raw: string, json = isJsonText(raw)): JsonReading {
  if (!json || !raw.includes('\\')) return { text: raw, at: null, json };
  const at = new Int32Array(raw.length + 1);
  // The text's code units, made a string once (unitsText): a string added to per escape was a chain of hundreds
  // of thousands of pieces, which took up to 0.1 s per MB to build and flatten (1 MB of escaped line breaks took
  // 25 times as long as 250 KB).
  const units = new Uint16Array(raw.length);
  let n = 0;
  let from = 0;
  for (let i = raw.indexOf('\\'); i >= 0; i = raw.indexOf('\\', i)) {
    // A run is read once from its first backslash: its pairs kept as written are passed over whole.
    let run = 1;
    while (raw[i + run] === '\\') run += 1;
    const kept = run > 1 ? keptOfRun(raw, i, run) : 0;
    i += kept;
    if (kept === run) continue;
    const [read, size] = readEscape(raw, i, run - kept);
    if (read !== undefined) {
      for (let k = from; k < i; k += 1) {
        units[n] = raw.charCodeAt(k);
        at[n++] = k;
      }
      // Each character read stands where its escape starts (`\\\"` reads `\"`: `\\`, then `\"`).
      for (let c = 0; c < read.length; c += 1) {
        units[n] = read.charCodeAt(c);
        at[n++] = i + 2 * c;
      }
      from = i + size;
    }
    i += size;
  }
  const decoded = n;
  for (let k = from; k < raw.length; k += 1) at[n++] = k;
  at[n] = raw.length;
  return { text: unitsText(units, decoded) + raw.slice(from), at: at.subarray(0, n + 1), json };
}

/**
 * A terminal's escape sequences: CSI (colours `\x1b[1;31m`, `\x1b[K`) and OSC (a title, a hyperlink),
 * as a test runner, `grep --color` or a CLI writes them around the very values it highlights.
 */
const TERMINAL_CODE = new RegExp(String.raw`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)`, 'g');

/**
 * `raw` as redaction reads it: its JSON escapes decoded (jsonReading), then its terminal escape
 * sequences read as nothing. `Token: \x1b[1mghp_…` is a token after a colour code, which no rule's
 * start or end can be told from (the code's last letter was glued to the token, ESC ended a password).
 */
export function readingOf(raw: string, json = isJsonText(raw)): JsonReading {
  const decoded = jsonReading(raw, json);
  const { text } = decoded;
  if (!text.includes('\x1b')) return decoded;
  const kept = new Int32Array(text.length + 1);
  let out = '';
  let n = 0;
  let from = 0;
  for (const code of text.matchAll(TERMINAL_CODE)) {
    for (let k = from; k < code.index; k += 1) kept[n++] = k;
    out += text.slice(from, code.index);
    from = code.index + code[0].length;
  }
  for (let k = from; k < text.length; k += 1) kept[n++] = k;
  kept[n] = text.length;
  return { ...decoded, text: out + text.slice(from), kept: kept.subarray(0, n + 1) };
}

/**
 * How far back from an offset the escape holding it may start: 5, inside `\uXXXX` (6 characters, the longest
 * escapeLength gives). A line break escaped levels down (`\\\\n`, a run of any length) is read as one character,
 * which stands at its start and the next at its end, so no offset falls inside it; `\\\"` reads two, the second 2 in.
 */
const ESCAPE_REACH = 5;

/** Where the escape holding offset `at` of `raw` starts, and where it ends (`at` itself when no escape holds it inside). */
function escapeAround(raw: string, at: number): [number, number] {
  // The last backslash at most ESCAPE_REACH back (inside `\uXXXX`, the longest escape kept as written), looked for
  // there only: `lastIndexOf` read back to the string's start for each value where its only backslashes were
  // there (two levels deep: 240 KB of `pwd=x ` took 3 s). A backslash further back ends no escape holding `at`.
  let i = at - 1;
  while (i >= Math.max(0, at - ESCAPE_REACH) && raw[i] !== '\\') i -= 1;
  if (i < Math.max(0, at - ESCAPE_REACH)) return [at, at];
  // The run of backslashes before `at`, read in pairs from its first.
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
export function storedSpans(raw: string, { at, kept }: JsonReading, given: ReadonlyArray<[number, number]>): Array<[number, number]> {
  // Through the dropped terminal codes first: a span ends after its last character, so a colour's reset after it stays.
  const spans = kept === undefined ? given : given.map(([start, end]): [number, number] => [kept[start]!, end > start ? kept[end - 1]! + 1 : kept[start]!]);
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

/** Characters of a JSON text's structure: a span that starts at one was given a whole value or object (secretlint's service-account key file). */
const STRUCTURE = new Set(['{', '}', '[', ']', ',', ':', '"']);

/**
 * What a JSON text holds between its strings: structure, white space, numbers, literals, and a REDACTED
 * that replaced a whole value (a span given at the structure is kept whole).
 */
const BETWEEN_STRINGS = /(?:\[REDACTED\]|\s+|[{}[\],:]|-?\d[\d.eE+-]*|true|false|null)*/y;

/** How far `text` reads as JSON from its start, read from outside a string (or, `inside`, from within one). */
function jsonRun(text: string, inside: boolean): number {
  let i = 0;
  for (let inString = inside; i < text.length; inString = !inString) {
    if (inString) {
      for (; i < text.length && text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
    } else {
      BETWEEN_STRINGS.lastIndex = i;
      BETWEEN_STRINGS.exec(text);
      i = BETWEEN_STRINGS.lastIndex;
      if (i < text.length && text[i] !== '"') return i;
    }
    i += 1;
  }
  return text.length;
}

/**
 * How far a JSON text (or its reading) is JSON: a tool's output often starts with a JSON line (a
 * status, `cat package.json`) and goes on as plain text, where a quote closes no string. A piece cut
 * from a JSON text may start inside a string: the longer of the two readings.
 */
export function jsonExtent(text: string): number {
  return Math.max(jsonRun(text, false), jsonRun(text, true));
}

/**
 * A span of a JSON text (or of its reading) cut before the first quote after its start that no backslash
 * escapes: a secret lies inside one string, and a rule that ran on past its end (a PEM body's `|$`, a
 * netrc `\S+`, a database URL) took the string's end and the values after it, and left no JSON. A span
 * that starts at the text's structure is kept whole: it was given a value or the whole text. So is one
 * that starts where the text is JSON no more (`extent`, jsonExtent's, asked only when a cut is due):
 * there a quote is a password's own (`{"status":"ok"}\npassword is og"avwm95%ZYl5`).
 */
export function withinString(text: string, [start, end]: readonly [number, number], extent: () => number = () => text.length): [number, number] {
  if (STRUCTURE.has(text[start] ?? '')) return [start, end];
  // Looked for inside the span only: `indexOf` from each span read on to the text's next quote, which in a
  // string of thousands of secrets is its end (1 MB of escaped `password: |` blocks took seconds at 4 MB).
  for (let q = start + 1; q < end; q += 1) {
    if (text.charCodeAt(q) !== 0x22) continue;
    let backslashes = 0;
    while (text[q - 1 - backslashes] === '\\') backslashes += 1;
    if (backslashes % 2 === 0) return start < extent() ? [start, q] : [start, end];
  }
  return [start, beforeEscapedQuote(text, start, end)];
}

/**
 * Where a span that ends just before an escaped quote, or inside the run of backslashes that escapes it,
 * ends without that run: a bare value two or more levels deep ends at the `\"` that closes its string
 * (`\\\\\"` four levels deep, as the reading spells it), and a span that took some of its backslashes and
 * not the quote was widened over them in the stored text, which ended the string early or left an escape half.
 */
function beforeEscapedQuote(text: string, start: number, end: number): number {
  let to = end;
  while (text[to] === '\\') to += 1;
  if (text[to] !== '"') return end;
  let from = end;
  while (from > start && text[from - 1] === '\\') from -= 1;
  return (to - from) % 2 === 1 ? from : end;
}
