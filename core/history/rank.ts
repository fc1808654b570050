import { pacer, toolNameOf, type MatchedPart } from '../gateway/index.js';
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
  /** Who said it, for ties (see voiceTier). */
  tier: number;
}

/** Where a ranking stands: what the order compares (a cursor keeps the last one shown). */
export interface RankPlace {
  score: number;
  tier: number;
  key: number;
}

/**
 * Of equal scores, who said it: the person's own words (0), then what was said in the conversation
 * (the agent's text, a summary, the app's notes: 1), then what tools did and thinking (2). Only a tie:
 * relevance comes first; a weight would bury a call the words are really about under chat that
 * mentions them once. A tool call's input is short, so it ties a short message as often as it beats it.
 */
function voiceTier(part: MatchedPart): number {
  if (part.genuineUserTurn) return 0;
  return part.kind === 'text' ? 1 : 2;
}

export function placeOf(r: Ranked): RankPlace {
  return { score: r.score, tier: r.tier, key: r.part.key };
}

function lengthOf(part: MatchedPart): number {
  return Math.max(1, (part.text?.length ?? 0) / 6);
}

function basisOf(parts: readonly MatchedPart[], counts: readonly number[][], terms: number): RankBasis {
  const m = parts.reduce((sum, part) => sum + lengthOf(part), 0) / Math.max(1, parts.length);
  const h = Array.from({ length: terms }, (_, t) => counts.filter((c) => c[t]! > 0).length);
  return { n: parts.length, m, h };
}

function idfOf(t: number, basis: RankBasis): number {
  const holding = basis.h[t]!;
  return Math.log(1 + (basis.n - holding + 0.5) / (holding + 0.5));
}

function scoreOf(part: MatchedPart, tfs: readonly number[], basis: RankBasis): number {
  const length = lengthOf(part);
  let score = 0;
  tfs.forEach((tf, t) => {
    if (tf === 0) return;
    score += (idfOf(t, basis) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / basis.m));
  });
  return score * (FIELD_WEIGHT[part.kind] ?? 1);
}

/**
 * An any-word search's score (see anyWordsQuery): first how many of the words a part holds, then BM25
 * (where the rarer words weigh more). A step per word held is more than any BM25 score can be (each
 * term adds under its IDF × (K1 + 1)), so a short part holding one common word never ranks above one
 * holding two: "Fix the typo" below a message about flaky tests, for `fix flaky tests`.
 */
function coveredScoreOf(part: MatchedPart, tfs: readonly number[], basis: RankBasis): number {
  const step = 1 + tfs.reduce((sum, _, t) => sum + idfOf(t, basis) * (K1 + 1), 0);
  const held = tfs.filter((tf) => tf > 0).length;
  return held * step + scoreOf(part, tfs, basis);
}

/** The order a ranking lists parts in: higher scores first; of equal ones, by voiceTier, then the newer part. */
export function rankedBefore(a: RankPlace, b: RankPlace): boolean {
  if (a.score !== b.score) return a.score > b.score;
  return a.tier !== b.tier ? a.tier < b.tier : a.key > b.key;
}

/**
 * BM25 over the candidates themselves: each term's frequency in a part against the part's length,
 * its IDF from how many candidates hold it, a field's weight. A term counts where the index matched it
 * (whole words, accents folded, an identifier's pieces; see term-match.ts); `prefixes` are the terms
 * typed with a `*` (PreparedQuery.prefixes). Deterministic, so a later page given its first page's
 * basis scores every part as that page did; ties go by rankedBefore. A basis of another query's
 * terms (a cursor not made for this one) is ignored. `anyWords`: the terms are an any-word search's,
 * so parts rank first by how many of them they hold (coveredScoreOf).
 */
export async function rankByRelevance(
  parts: readonly MatchedPart[],
  terms: readonly string[],
  given?: RankBasis,
  prefixes: readonly string[] = [],
  anyWords = false,
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
  const score = anyWords ? coveredScoreOf : scoreOf;
  const ranked = parts.map((part, i) => ({ part, score: score(part, counts[i]!, basis), tier: voiceTier(part) }));
  ranked.sort((a, b) => (rankedBefore(placeOf(a), placeOf(b)) ? -1 : 1));
  return { ranked, basis };
}

/** A ranked part standing for the parts like it (foldRepeats): `alike` of them, ranked after it, are not listed. */
export interface Folded extends Ranked {
  alike: number;
}

/**
 * Parts longer than this are never folded: candidates hold only a head of their text (that long or
 * shorter), so telling two apart reads them whole, and 500 long ones would cost a page its time.
 */
const FOLD_MAX_CHARS = 2_000;

/**
 * The ranking with repeats folded: within one conversation, parts of the same role, kind and text (a
 * tool call: the same tool and input; its one-line summary leaves out arguments, so calls that looked
 * elsewhere stay apart) are one, listed where the best-ranked of them is, with how many more. An agent
 * running the same Grep 25 times is one hit, and a page of 20 shows 20 different things. Heads that
 * look alike are compared whole (`whole` reads them), so a head cut short never joins two parts.
 * Deterministic over the same candidates, so every page folds as the first did. With `redacted` (a
 * search whose results are redacted), text a secret was redacted from never folds: a count of parts
 * alike would tell the reader that the secrets it cannot see are the same.
 */
export async function foldRepeats(
  ranked: readonly Ranked[],
  whole: (keys: readonly number[]) => MatchedPart[],
  redacted?: (texts: ReadonlyArray<string | null>) => Promise<Array<string | null>>,
): Promise<Folded[]> {
  const byHead = groupBy(ranked, (r) => (r.part.text !== null && r.part.text.length < FOLD_MAX_CHARS ? sameness(r.part, r.part.text) : null));
  const repeated = [...byHead.values()].filter((g) => g.length > 1).flat();
  const read = new Map(whole(repeated.map((r) => r.part.key)).map((p) => [p.key, p]));
  const byWhole = groupBy(repeated, (r) => {
    const part = read.get(r.part.key);
    return part === undefined ? null : sameness(part, part.text, part.kind === 'tool_use' ? toolNameOf(part.meta) : null);
  });
  // Each group's first is its best-ranked, listed for all; a part not read whole (forgotten meanwhile) stands alone.
  const groups = [...byWhole.values()].filter((g) => g.length > 1);
  const texts = groups.map((g) => read.get(g[0]!.part.key)!.text);
  const seen = redacted ? await redacted(texts) : texts;
  const alike = new Map<number, number>();
  const folded = new Set<number>();
  for (const [i, group] of groups.entries()) {
    if (seen[i] !== texts[i]) continue;
    alike.set(group[0]!.part.key, group.length - 1);
    for (const r of group.slice(1)) folded.add(r.part.key);
  }
  return ranked.filter((r) => !folded.has(r.part.key)).map((r) => ({ ...r, alike: alike.get(r.part.key) ?? 0 }));
}

/** What parts alike share: conversation, who and what they are, their text (and a call's tool). */
function sameness(part: MatchedPart, text: string | null, tool: string | null = null): string {
  return JSON.stringify([part.sessionId, part.role, part.kind, part.genuineUserTurn, part.isCompactSummary, tool, text]);
}

/** The items by key, each key's in the order given; an item of no key (null) is a group of its own. */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  items.forEach((item, i) => {
    // A sameness is a JSON array; an index never collides with one.
    const key = keyOf(item) ?? String(i);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  });
  return groups;
}
