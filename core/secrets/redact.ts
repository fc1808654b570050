import { readingOf } from './json-reading.js';
import { inStored, knownPatterns, LONGEST_QUOTE_ESCAPE, Redaction, redactKnown, redactTable, type Span } from './patterns.js';

/**
 * secretlint loads at the first asynchronous redaction, not when the Core opens: many runs never
 * redact, and the synchronous path (redactSync) is the shape table alone.
 */
async function loadSecretlint() {
  const [{ lintSource }, { secretLintProfiler }, { creator: recommended }] = await Promise.all([
    import('@secretlint/core'),
    import('@secretlint/profiler'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ]);
  /*
   * secretlint marks the start and end of every rule of every lint in a process-wide profiler whose
   * observer keeps each mark and searches them all on the next: linting grew slower with every sweep
   * of a long-running owner, and made up half of a 149k-part export's 110 s. Steward never reads the
   * profile, so the profiler is given no marks (the observer then has nothing to keep).
   */
  secretLintProfiler.mark = () => undefined;
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };
  return { lintSource, config };
}

let secretlint: ReturnType<typeof loadSecretlint> | undefined;

/**
 * Starts loading secretlint without waiting for it: an owner redacts soon and often (sweeps, the
 * panel's lists), so its first redaction should not pay the load. A failure surfaces at that redaction.
 */
export function preloadRedaction(): void {
  (secretlint ??= loadSecretlint()).catch(() => undefined);
}

async function secretlintRanges(text: string): Promise<Array<[number, number]>> {
  const { lintSource, config } = await (secretlint ??= loadSecretlint());
  const result = await lintSource({
    source: { filePath: '/steward-digest.txt', content: text, contentType: 'text' },
    options: { config, maskSecrets: false },
  });
  return result.messages.map((m) => [m.range[0], m.range[1]]);
}

/**
 * The quote just before `start` in `text`, with the whole run of backslashes that escapes it (`\\"` in a JSON
 * string; 13 before a quote four levels deep, as the reading spells it), if any. The run is read back no
 * further than the shapes read one (LONGEST_QUOTE_ESCAPE): a quote after a longer run is cut at by none.
 */
function quoteBefore(text: string, start: number): string | undefined {
  if (start < 1 || !'"\'`'.includes(text[start - 1]!)) return undefined;
  let from = start - 1;
  while (from > 0 && text[from - 1] === '\\' && start - from <= LONGEST_QUOTE_ESCAPE) from -= 1;
  return from > 0 && text[from - 1] === '\\' ? undefined : text.slice(from, start);
}

/**
 * A secretlint range cut at the closing quote of the quoted value it starts in (`psql 'postgresql://ana:pw@db/prod'`
 * showed `psql '[REDACTED]`, and in a JSON string the range ran on over `\\"` and the string's end): where the
 * range starts after a quote, it ends before the first same quote, escaped by as many backslashes, inside it.
 * So the text's quotes stay paired, and no span ends on half an escape.
 */
function withoutClosingQuote(text: string, [start, end]: [number, number]): [number, number] {
  const quote = quoteBefore(text, start);
  if (quote === undefined) return [start, end];
  for (let at = text.indexOf(quote, start + 1); at >= 0 && at + quote.length <= end; at = text.indexOf(quote, at + 1)) {
    if (text[at - 1] !== '\\') return [start, at];
  }
  return [start, end];
}

/**
 * secretlint's ranges as the spans they replace: from the end, so earlier offsets stay valid, each cut
 * where the one after it starts (overlaps collapse into one).
 */
function rangeSpans(ranges: Array<[number, number]>): Span[] {
  const spans: Span[] = [];
  let floor = Number.POSITIVE_INFINITY;
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) {
    const stop = Math.min(end, floor);
    if (stop <= start) continue;
    spans.push([start, stop]);
    floor = start;
  }
  return spans.reverse();
}

/**
 * secretlint's ranges over texts joined by SEPARATOR (of `lengths`), each text's own in its offsets, in the
 * order secretlint gave them: a range over two texts is cut into each. Each range goes to the texts it
 * overlaps, found by halving (asking each text of every range was most of a long export's own time in redact.ts).
 */
function rangesByText(lengths: readonly number[], ranges: ReadonlyArray<[number, number]>): Array<Array<[number, number]>> {
  const starts: number[] = [];
  let offset = 0;
  for (const length of lengths) {
    starts.push(offset);
    offset += length + SEPARATOR.length;
  }
  const mine = lengths.map((): Array<[number, number]> => []);
  for (const [a, b] of ranges) {
    // The last text starting at or before `a` (the first when `a` is before all).
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= a) low = middle;
      else high = middle - 1;
    }
    for (let i = low; i < starts.length && starts[i]! < b; i += 1) {
      const start = starts[i]!;
      const end = start + lengths[i]!;
      if (a < end && b > start) mine[i]!.push([Math.max(a, start) - start, Math.min(b, end) - start]);
    }
  }
  return mine;
}

/** How a call's texts are read. */
export interface RedactOptions {
  /**
   * The texts are pieces cut from texts that are JSON (true) or are not (false), asked of each whole
   * text (isJsonText): a piece is read as the text it came from, whatever it begins with. One flag for
   * all the texts, or one per text (a page of search hits cut from both kinds, in one secretlint pass).
   * Absent (or a text's flag absent): each text is whole, and says so itself.
   */
  json?: boolean | readonly boolean[];
}

export interface Redactor {
  redact(text: string): Promise<string>;
  /** Many texts at once: one secretlint pass over all of them, each text redacted on its own by the table. */
  redactMany(texts: readonly string[], options?: RedactOptions): Promise<string[]>;
  redactSync(text: string): string;
  /**
   * Where redaction finds the secrets in each text, by the same rule and passes as redactMany: the
   * sorted [start, end) spans of the text it replaces, so a text shown as written marks them.
   */
  secretsMany(texts: readonly string[]): Promise<Span[][]>;
}

/** Between texts in one secretlint pass: blank lines, so no rule's match runs from one text into the next. */
const SEPARATOR = '\n\n\n';

/** Exact known values and the shape table first, then secretlint's precise rules, then the table again. */
export function createRedactor(knownSecrets: readonly string[] = []): Redactor {
  // Built once: every text this redactor is given is searched for the same values.
  const known = knownPatterns(knownSecrets);
  // A JSON text is redacted as its strings read (jsonReading), and its spans then said in the text as stored.
  const redactions = async (texts: readonly string[], { json }: RedactOptions = {}): Promise<Redaction[]> => {
    const readings = texts.map((text, i) => readingOf(text, typeof json === 'object' ? json[i] : json));
    const stored = (done: Redaction[]) => done.map((r, i) => inStored(texts[i]!, readings[i]!, r));
    const first = readings.map(({ text: t, json: isJson }) => (t === '' ? new Redaction(t) : redactTable(new Redaction(t, isJson), known)));
    const joined = first.map((r) => r.text).join(SEPARATOR);
    if (joined.trim() === '') return stored(first);
    const ranges = (await secretlintRanges(joined)).map((range) => withoutClosingQuote(joined, range));
    const mine = rangesByText(
      first.map((r) => r.text.length),
      ranges,
    );
    const linted = first.map((redaction, i) => {
      if (mine[i]!.length === 0) return redaction;
      redaction.replace(rangeSpans(mine[i]!));
      return redactTable(redaction, known);
    });
    return stored(linted);
  };
  const redactMany = async (texts: readonly string[], options?: RedactOptions): Promise<string[]> => (await redactions(texts, options)).map((r) => r.text);
  return {
    async redact(text) {
      if (text === '') return text;
      return (await redactMany([text]))[0] ?? '';
    },
    redactMany,
    redactSync: (text) => redactKnown(text, known),
    secretsMany: async (texts) => (await redactions(texts)).map((r) => r.secrets()),
  };
}
