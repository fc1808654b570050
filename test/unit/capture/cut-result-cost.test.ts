import { describe, expect, it } from 'vitest';
import { bound, boundResult, TOOL_RESULT_CAP } from '../../../core/transcripts/bounds.js';

/** The best of `runs` timings of `cut`, in ms: the least a loaded machine let it take. */
function bestOf(runs: number, cut: () => unknown): number {
  cut();
  let best = Infinity;
  for (let r = 0; r < runs; r += 1) {
    const t0 = performance.now();
    cut();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

// Timed (vitest.config.ts TIMED: a process of its own): a cold import cuts every long tool result, and
// the cut at both ends must cost what the prefix cut did, slices and one bounded indexOf beside the hash.
describe('a tool result cut at both ends', () => {
  it('costs a 5 MB output what the prefix cut it replaces did (both hash the whole)', () => {
    const big = `${'progress line of a long build\n'.repeat(170_000)}error TS2345: at the very end\n`;
    const prefixCut = bestOf(7, () => bound(big, TOOL_RESULT_CAP));
    const bothEnds = bestOf(7, () => boundResult(big));
    expect(boundResult(big).text.endsWith('error TS2345: at the very end\n')).toBe(true);
    expect(bothEnds).toBeLessThan(prefixCut * 1.5 + 1);
  });
});
