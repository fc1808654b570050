/** A [start, end) span of a text; the spans a function here returns are sorted and never overlap. */
export type Range = readonly [number, number];

/** Sorted, with touching or overlapping spans made one. */
export function mergedRanges(ranges: readonly Range[]): Range[] {
  const out: Array<[number, number]> = [];
  for (const [start, end] of [...ranges].filter(([a, b]) => b > a).sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** A line of a secret this long or longer is looked for on its own (a private key's first line is all a fold's line shows). */
const LINE_PIECE = 4;

/** How a piece of a JSON string's source reads decoded (a tool call's input, a Codex output); itself when it is not one. */
function decoded(piece: string): string {
  if (!piece.includes('\\')) return piece;
  try {
    const value: unknown = JSON.parse(`"${piece}"`);
    return typeof value === 'string' ? value : piece;
  } catch {
    return piece;
  }
}

/** The secrets of `text` as a text derived from it may hold them: whole, decoded from JSON, and line by line. */
function secretPieces(text: string, secrets: readonly Range[]): string[] {
  const pieces = new Set<string>();
  for (const [start, end] of secrets) {
    for (const value of [text.slice(start, end), decoded(text.slice(start, end))]) {
      if (value !== '') pieces.add(value);
      for (const line of value.split('\n').map((l) => l.trim())) if (line.length >= LINE_PIECE) pieces.add(line);
    }
  }
  return [...pieces];
}

/** A line cut inside a secret ends with the secret's start before its ellipsis ("…=sk-proj-AbC…"). */
function cutSecret(shown: string, pieces: readonly string[]): Range | undefined {
  if (!shown.endsWith('…')) return undefined;
  const kept = shown.slice(0, -1);
  let longest = 0;
  for (const piece of pieces) {
    for (let n = Math.min(piece.length - 1, kept.length); n > longest; n--) {
      if (kept.endsWith(piece.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest > 0 ? [kept.length - longest, kept.length] : undefined;
}

/**
 * Where the secrets of `text` (at `secrets`, as Sessions.Get placed them) are in `shown`, a text the
 * viewer shows of it: the same places when it is the text itself; in a text derived from it (a fold's
 * line, a result's output), wherever one of them stands in it, and a line cut inside one from its start.
 */
export function secretsIn(shown: string, text: string, secrets: readonly Range[]): Range[] {
  if (shown === text) return mergedRanges(secrets);
  if (secrets.length === 0 || shown === '') return [];
  const pieces = secretPieces(text, secrets);
  const found: Range[] = [];
  for (const piece of pieces) for (let at = shown.indexOf(piece); at !== -1; at = shown.indexOf(piece, at + 1)) found.push([at, at + piece.length]);
  const cut = cutSecret(shown, pieces);
  return mergedRanges(cut ? [...found, cut] : found);
}
