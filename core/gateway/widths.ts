// The fixed widths of the gateway's `IN (…)` probes (the materializer's, the sink's), so each width
// is prepared once and a list of any length runs through a few statements.

/** Probe statements come in a few fixed widths; a short list is padded by repeating its last id. */
const WIDTHS = [1, 8, 64, 256] as const;

export function widthFor(n: number): number {
  return WIDTHS.find((w) => w >= n) ?? WIDTHS[WIDTHS.length - 1]!;
}

export function padded(ids: string[], width: number): string[] {
  const out = ids.slice(0, width);
  while (out.length < width) out.push(out[out.length - 1]!);
  return out;
}
