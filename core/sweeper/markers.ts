/**
 * The marker contract of spec 001: the curator answers with exactly three sections and END, each
 * marker alone on its line and in this order. Anything else is a failed sweep, never a partial write.
 */
export const MARKERS = {
  overview: '<<<OVERVIEW>>>',
  changelog: '<<<CHANGELOG>>>',
  claude: '<<<CLAUDE>>>',
  end: '<<<END>>>',
} as const;

export interface MarkerSections {
  overview: string;
  changelog: string;
  /** null when the curator answered NOCHANGE or left the section empty. */
  claude: string | null;
}

export class MarkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarkerError';
  }
}

const ORDER = [MARKERS.overview, MARKERS.changelog, MARKERS.claude, MARKERS.end] as const;

function stripWrappingFence(text: string): string {
  const match = /^\s*```[a-zA-Z]*\n([\s\S]*?)\n```\s*$/.exec(text);
  return match?.[1] ?? text;
}

function markerLines(lines: string[]): Map<string, number[]> {
  const found = new Map<string, number[]>();
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if ((ORDER as readonly string[]).includes(trimmed)) found.set(trimmed, [...(found.get(trimmed) ?? []), index]);
  });
  return found;
}

/**
 * Parses a curator reply. `endOptional` is set when the model stopped on the END stop sequence,
 * which the API leaves out of the text.
 */
export function parseMarkers(reply: string, options: { endOptional?: boolean } = {}): MarkerSections {
  const lines = stripWrappingFence(reply.replace(/\r\n?/g, '\n')).split('\n');
  const found = markerLines(lines);
  for (const marker of ORDER) {
    const at = found.get(marker) ?? [];
    if (at.length > 1) throw new MarkerError(`marker ${marker} appears more than once`);
    if (at.length === 0 && !(marker === MARKERS.end && options.endOptional)) throw new MarkerError(`marker ${marker} is missing`);
  }
  const index = (marker: string): number => found.get(marker)?.[0] ?? lines.length;
  const positions = ORDER.map(index);
  for (let i = 1; i < positions.length; i += 1) {
    if ((positions[i] ?? 0) <= (positions[i - 1] ?? 0)) throw new MarkerError('markers are out of order');
  }
  const section = (from: number, to: number): string => lines.slice(from + 1, to).join('\n').trim();
  const [o, c, k, e] = positions as [number, number, number, number];
  // Prose before OVERVIEW or after END is ignored: only the sections are ever written.
  const claude = section(k, e);
  return {
    overview: section(o, c),
    changelog: section(c, k),
    claude: claude === '' || /^nochange\.?$/i.test(claude) ? null : claude,
  };
}

/**
 * Neutralizes anything in untrusted text that could fake the reply format or close the data fence:
 * the triple angle brackets of markers and our own fence tags.
 */
export function escapeMarkers(text: string): string {
  return text
    .replace(/<<</g, '‹<<')
    .replace(/>>>/g, '>>›')
    .replace(/<(\/?)(transcript|msg|notes|file|session|task)\b/gi, '&lt;$1$2');
}

/** True when a text still carries something that reads as one of our markers. */
export function containsMarker(text: string): boolean {
  return /<<<\s*(OVERVIEW|CHANGELOG|CLAUDE|END)\s*>>>/i.test(text);
}
