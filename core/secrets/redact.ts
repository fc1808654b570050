import { REDACTED, redactSecrets } from './patterns.js';

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

/** Replaces the ranges (applied from the end so earlier offsets stay valid; overlaps collapse into one). */
function applyRanges(text: string, ranges: Array<[number, number]>): string {
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) {
    const stop = Math.min(end, floor);
    if (stop <= start) continue;
    out = `${out.slice(0, start)}${REDACTED}${out.slice(stop)}`;
    floor = start;
  }
  return out;
}

export interface Redactor {
  redact(text: string): Promise<string>;
  /** Many texts at once: one secretlint pass over all of them, each text redacted on its own by the table. */
  redactMany(texts: readonly string[]): Promise<string[]>;
  redactSync(text: string): string;
}

/** Between texts in one secretlint pass: blank lines, so no rule's match runs from one text into the next. */
const SEPARATOR = '\n\n\n';

/** Exact known values and the shape table first, then secretlint's precise rules, then the table again. */
export function createRedactor(knownSecrets: readonly string[] = []): Redactor {
  const known = [...new Set(knownSecrets)].sort((a, b) => b.length - a.length);
  const redactMany = async (texts: readonly string[]): Promise<string[]> => {
    const first = texts.map((t) => (t === '' ? t : redactSecrets(t, known)));
    const joined = first.join(SEPARATOR);
    if (joined.trim() === '') return first;
    const ranges = await secretlintRanges(joined);
    let offset = 0;
    return first.map((text) => {
      const start = offset;
      const end = start + text.length;
      offset = end + SEPARATOR.length;
      const mine = ranges.filter(([a, b]) => a < end && b > start).map(([a, b]): [number, number] => [Math.max(a, start) - start, Math.min(b, end) - start]);
      return mine.length === 0 ? text : redactSecrets(applyRanges(text, mine), known);
    });
  };
  return {
    async redact(text) {
      if (text === '') return text;
      return (await redactMany([text]))[0] ?? '';
    },
    redactMany,
    redactSync: (text) => redactSecrets(text, known),
  };
}
