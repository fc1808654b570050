/** A [start, end) span of a text; the spans a function here returns are sorted and never overlap. */
export type Range = readonly [number, number];

/** What the secrets module puts in a secret's place (core/secrets/patterns.ts's REDACTED; the renderer may not import it). */
export const REDACTED = '[REDACTED]';

/** Sorted, with touching or overlapping spans made one. */
function merged(ranges: readonly Range[]): Range[] {
  const out: Array<[number, number]> = [];
  for (const [start, end] of [...ranges].filter(([a, b]) => b > a).sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/**
 * The secrets placed as early as they can be: each shared piece found at its first place after the
 * secret before it. A piece not found (a line cut inside a secret, or after it) leaves the rest marked.
 */
function fromTheStart(raw: string, pieces: readonly string[]): Range[] {
  const ranges: Range[] = [];
  let at = pieces[0]?.length ?? 0;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] ?? '';
    const last = i === pieces.length - 1;
    const found = last ? (raw.endsWith(piece) && raw.length - piece.length > at ? raw.length - piece.length : -1) : raw.indexOf(piece, at + 1);
    if (found === -1) return [...ranges, [at, raw.length]];
    ranges.push([at, found]);
    at = found + piece.length;
  }
  return ranges;
}

/** The secrets placed as late as they can be, from the end; empty when the end is not shared (a cut line). */
function fromTheEnd(raw: string, pieces: readonly string[]): Range[] {
  const lastPiece = pieces[pieces.length - 1] ?? '';
  if (!raw.endsWith(lastPiece)) return [];
  const ranges: Range[] = [];
  let end = raw.length - lastPiece.length;
  for (let i = pieces.length - 2; i >= 1; i--) {
    const piece = pieces[i] ?? '';
    const found = raw.lastIndexOf(piece, end - 1 - piece.length);
    if (found <= (pieces[0]?.length ?? 0)) return [];
    ranges.push([found + piece.length, end]);
    end = found;
  }
  return [...ranges, [pieces[0]?.length ?? 0, end]];
}

/**
 * Where the secrets are in `raw`, a text shown as written, told by the same text as the secrets module
 * redacted it: the words between the REDACTEDs are the raw text's, in order. Where those words could
 * also fall inside a secret, both readings are marked, so more is marked rather than less; texts that
 * do not match at all are marked whole, so a secret is never shown unmarked.
 */
export function secretRanges(raw: string, redacted: string): Range[] {
  // Two secrets side by side are one span: the empty words between them say nothing of where one ends.
  const pieces = redacted.split(REDACTED).filter((piece, i, all) => piece !== '' || i === 0 || i === all.length - 1);
  if (pieces.length === 1) return raw === redacted ? [] : [[0, raw.length]];
  if (!raw.startsWith(pieces[0] ?? '')) return raw === '' ? [] : [[0, raw.length]];
  return merged([...fromTheStart(raw, pieces), ...fromTheEnd(raw, pieces)]);
}
