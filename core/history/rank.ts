import type { MatchedPart } from '../gateway/index.js';

/** What counts less when it matches: thinking, and tool output beside what was said and run. */
const FIELD_WEIGHT: Record<string, number> = { thinking: 0.5, tool_result: 0.6 };
const K1 = 1.2;
const B = 0.75;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One pattern per term (a word, or a phrase as its words in order), case-insensitive. */
function termPatterns(terms: readonly string[]): RegExp[] {
  const patterns: RegExp[] = [];
  for (const term of terms) {
    const words = term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length === 0) continue;
    patterns.push(new RegExp(words.map(escape).join('[^\\p{L}\\p{N}]+'), 'giu'));
  }
  return patterns;
}

function occurrences(text: string, pattern: RegExp): number {
  let n = 0;
  for (const _ of text.matchAll(pattern)) n += 1;
  return n;
}

/**
 * BM25 over the candidates themselves: each term's frequency in a part against the part's length,
 * its IDF from how many candidates hold it, a field's weight. Deterministic, so a cursor's later
 * pages see the same order; ties go to the newer part.
 */
export function rankByRelevance(parts: readonly MatchedPart[], terms: readonly string[]): MatchedPart[] {
  const patterns = termPatterns(terms);
  const lengths = parts.map((p) => Math.max(1, (p.text?.length ?? 0) / 6));
  const average = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const counts = parts.map((p) => patterns.map((pattern) => (p.text === null ? 0 : occurrences(p.text, pattern))));
  const holding = patterns.map((_, t) => counts.filter((c) => c[t]! > 0).length);
  const n = parts.length;
  const scores = parts.map((part, i) => {
    let score = 0;
    patterns.forEach((_, t) => {
      const tf = counts[i]![t]!;
      if (tf === 0) return;
      const idf = Math.log(1 + (n - holding[t]! + 0.5) / (holding[t]! + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[i]!) / average));
    });
    return score * (FIELD_WEIGHT[part.kind] ?? 1);
  });
  return parts.map((part, i) => ({ part, score: scores[i]! })).sort((a, b) => b.score - a.score || b.part.key - a.part.key).map((r) => r.part);
}
