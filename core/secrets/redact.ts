import { performance } from 'node:perf_hooks';
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { REDACTED, redactSecrets } from './patterns.js';

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/**
 * secretlint's process-wide profiler keeps every performance mark it ever saw and scans that list on
 * each new mark, so a long-running owner would get slower with every sweep (and grow without bound).
 * The sweeper never reads the profile: drop what the previous lint left behind.
 */
async function forgetSecretlintProfile(): Promise<void> {
  // Both getters hand out the profiler's own arrays, so emptying them empties the profile.
  for (const entry of (await secretLintProfiler.getEntries()).splice(0)) performance.clearMarks(entry.name);
  for (const entry of (await secretLintProfiler.getMeasures()).splice(0)) performance.clearMeasures(entry.name);
}

async function secretlintRanges(text: string): Promise<Array<[number, number]>> {
  await forgetSecretlintProfile();
  const result = await lintSource({
    source: { filePath: '/steward-digest.txt', content: text, contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, maskSecrets: false },
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
