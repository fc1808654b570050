import { pacer, type MatchedPart } from '../gateway/index.js';
import { compileTerms, TermPattern } from './term-match.js';

/** What counts less when it matches: thinking, and tool output beside what was said and run. */
const FIELD_WEIGHT: Record<string, number> = { thinking: 0.5, tool_result: 0.6 };
const K1 = 1.2;
const B = 0.75;
/**
 * How long counting the terms in the candidates may hold the event loop before it gives a turn: 500
 * candidates of 2,000 characters of camelCase (minified code, base64) took 120 ms in one go.
 */
const HOLD_MS = 20;

/**
 * What a part's score depends on besides the part: how many candidates there were, their average
 * length, and how many of them hold each term. A result's later pages score with its first page's
 * basis, so a part forgotten meanwhile moves no other part's score.
 */
export interface RankBasis {
  /** Candidates ranked (short names: a basis travels in a cursor). */
  n: number;
  /** Their mean length, in words of about six characters. */
  m: number;
  /** How many of them hold each term, in the terms' order. */
  h: number[];
}

export interface Ranked {
  part: MatchedPart;
  score: number;
}

function lengthOf(part: MatchedPart): number {
  return Math.max(1, (part.text?.length ?? 0) / 6);
}

function basisOf(parts: readonly MatchedPart[], counts: readonly number[][], terms: number): RankBasis {
  const m = parts.reduce((sum, part) => sum + lengthOf(part), 0) / Math.max(1, parts.length);
  const h = Array.from({ length: terms }, (_, t) => counts.filter((c) => c[t]! > 0).length);
  return { n: parts.length, m, h };
}

function scoreOf(part: MatchedPart, tfs: readonly number[], basis: RankBasis): number {
  const length = lengthOf(part);
  let score = 0;
  tfs.forEach((tf, t) => {
    if (tf === 0) return;
    const holding = basis.h[t]!;
    const idf = Math.log(1 + (basis.n - holding + 0.5) / (holding + 0.5));
    score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / basis.m));
  });
  return score * (FIELD_WEIGHT[part.kind] ?? 1);
}

/** The order a ranking lists parts in: higher scores first, ties to the newer part. */
export function rankedBefore(a: { score: number; key: number }, b: { score: number; key: number }): boolean {
  return a.score > b.score || (a.score === b.score && a.key > b.key);
}

/**
 * BM25 over the candidates themselves: each term's frequency in a part against the part's length,
 * its IDF from how many candidates hold it, a field's weight. A term counts where the index matched it
 * (whole words, accents folded, an identifier's pieces; see term-match.ts); `prefixes` are the terms
 * typed with a `*` (PreparedQuery.prefixes). Deterministic, so a later page given its first page's
 * basis scores every part as that page did; ties go to the newer part. A basis of another query's
 * terms (a cursor not made for this one) is ignored.
 */
export async function rankByRelevance(
  parts: readonly MatchedPart[],
  terms: readonly string[],
  given?: RankBasis,
  prefixes: readonly string[] = [],
): Promise<{ ranked: Ranked[]; basis: RankBasis }> {
  const compiled = compileTerms(terms, prefixes);
  const pattern = compiled.length === 0 ? null : new TermPattern(compiled);
  const hold = pacer(HOLD_MS);
  const counts: number[][] = [];
  for (const p of parts) {
    counts.push(p.text === null || pattern === null ? compiled.map(() => 0) : pattern.countsIn(p.text));
    await hold();
  }
  const basis = given && given.h.length === compiled.length ? given : basisOf(parts, counts, compiled.length);
  const ranked = parts.map((part, i) => ({ part, score: scoreOf(part, counts[i]!, basis) }));
  ranked.sort((a, b) => b.score - a.score || b.part.key - a.part.key);
  return { ranked, basis };
}
