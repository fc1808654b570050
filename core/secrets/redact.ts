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

async function redactWithSecretlint(text: string): Promise<string> {
  await forgetSecretlintProfile();
  const result = await lintSource({
    source: { filePath: '/steward-digest.txt', content: text, contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, maskSecrets: false },
  });
  const ranges = result.messages.map((m) => m.range).sort((a, b) => b[0] - a[0]);
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const [start, end] of ranges) {
    // Ranges are applied from the end so earlier offsets stay valid; overlaps collapse into one.
    const stop = Math.min(end, floor);
    if (stop <= start) continue;
    out = `${out.slice(0, start)}${REDACTED}${out.slice(stop)}`;
    floor = start;
  }
  return out;
}

export interface Redactor {
  redact(text: string): Promise<string>;
  redactSync(text: string): string;
}

/** Exact known values and the shape table first, then secretlint's precise rules, then the table again. */
export function createRedactor(knownSecrets: readonly string[] = []): Redactor {
  const known = [...new Set(knownSecrets)].sort((a, b) => b.length - a.length);
  return {
    async redact(text) {
      if (text === '') return text;
      const first = redactSecrets(text, known);
      return redactSecrets(await redactWithSecretlint(first), known);
    },
    redactSync: (text) => redactSecrets(text, known),
  };
}
