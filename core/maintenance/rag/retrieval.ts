import Database from 'better-sqlite3';
import { StewardError, type RepositoryHit, type SearchDegraded } from '../../api/index.js';
import { sqliteOptions } from '../../store/index.js';
import type { ConfigSnapshot, Policy } from '../schema.js';
import { Corpus, type DocumentMeta } from './corpus.js';
import { contentWords, words } from './embedders/hash.js';
import { checkBoundary, embedderFor, type ProfileDeps } from './profiles.js';
import { padded, ragVersion, RagStore, vecTableOf, type NamespaceRow } from './store.js';

export interface SearchRequest {
  repoId: string;
  query: string;
  collection?: string | undefined;
  state?: string | undefined;
  author?: string | undefined;
  label?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  /** `hybrid` (the default) fuses both lists; `words` is BM25 alone, `meaning` vectors alone. */
  mode?: 'hybrid' | 'words' | 'meaning';
  /** `quantized` forces the sign-bit scan even where the index is small enough to re-rank whole (to measure what quantization costs). */
  vectorScan?: 'auto' | 'quantized';
}

export interface SearchProfile {
  snapshot: ConfigSnapshot;
  /** `rag` off: no index run will come, so a missing or stale index is reported as `rag_off`. */
  policy: Pick<Policy, 'embeddingBoundary'> & Partial<Pick<Policy, 'rag'>>;
  deps: ProfileDeps;
  /** How long a query embedding may take before the search answers with words only. */
  queryTimeoutMs?: number;
}

export interface SearchResult {
  hits: RepositoryHit[];
  /** How many of the hits contain the query's words; 0 with hits means they are only the closest in meaning. */
  wordMatches: number;
  degraded?: SearchDegraded;
}

/**
 * Weighted reciprocal rank fusion. k = 10 lets each list's first hits count more than the classic
 * 60 does; the `hash` embedder is lexical like BM25 and noisier, so its list counts half as much
 * as a model's. Both were chosen on the labelled fixture after its queries were fixed.
 */
export const RRF_K = 10;
export function listWeights(provider: string): { words: number; meaning: number } {
  return { words: 1, meaning: provider === 'hash' ? 0.5 : 1 };
}
/** Candidates taken from each list before fusion, per requested hit. */
const DEPTH = 5;
/** Nearest sign-bit neighbours fetched from vec0 before the exact re-rank. */
const COARSE_K = 64;
/** Up to this many chunks every vector is re-ranked exactly. */
const EXACT_LIMIT = 2_048;
const SNIPPET_CHARS = 240;
const SNIPPET_LEAD = 60;

interface Candidate {
  chunkId: number;
  sourceId: number;
}

/** The query's words for FTS: its content words, or all its words when it has none. */
export function queryTerms(query: string): string[] {
  const content = contentWords(query);
  return [...new Set(content.length > 0 ? content : words(query))];
}

/** The FTS5 query: each term quoted (punctuation never reaches FTS syntax), OR-ed. */
export function ftsQuery(query: string, terms: readonly string[] = queryTerms(query)): string | null {
  return terms.length > 0 ? terms.map((t) => `"${t}"`).join(' OR ') : null;
}

/** Postings BM25 may score per query, and the document frequency under which a term is always kept. */
const POSTINGS_BUDGET = 8_000;
const CHEAP_TERM = 1_000;
const SMALL_INDEX = 5_000;

function ragCount(db: Database.Database): number {
  if (ragVersion(db) < 2) return 0;
  return (db.prepare('SELECT chunks FROM rag_counts').pluck().get() as number | undefined) ?? 0;
}

let tokenizer: { db: Database.Database; insert: Database.Statement; read: Database.Statement } | null = null;

/** Each word's index term under the cache's own tokenizer (porter), read from a scratch in-memory FTS5 table. */
function indexTerms(terms: readonly string[]): Map<string, string> {
  if (!tokenizer) {
    const db = new Database(':memory:', sqliteOptions());
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');");
    tokenizer = { db, insert: db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)'), read: db.prepare('SELECT doc, term FROM v') };
  }
  const { db, insert, read } = tokenizer;
  return db.transaction(() => {
    db.exec('DELETE FROM t');
    terms.forEach((term, i) => insert.run(i + 1, term));
    const out = new Map<string, string>();
    for (const row of read.all() as Array<{ doc: number; term: string }>) if (!out.has(terms[row.doc - 1]!)) out.set(terms[row.doc - 1]!, row.term);
    return out;
  })();
}

/**
 * The terms worth scoring, rarest first. A term in more than half of all chunks has no BM25 weight
 * (FTS5 floors its IDF) yet costs the most to score — in a large index, more than a quarter already
 * weighs little against the cost — and a term absent from the index matches nothing: all are left out. Of the rest every cheap term is kept, and common ones while the
 * postings budget lasts. No term left means words cannot rank this query.
 */
function affordableTerms(db: Database.Database, terms: readonly string[]): string[] {
  if (ragVersion(db) < 2 || terms.length === 0) return [...terms];
  const stems = indexTerms(terms);
  // One equality lookup per term: fts5vocab seeks on `term = ?` but scans the whole vocabulary for IN.
  const lookup = db.prepare('SELECT doc FROM rag_chunks_vocab WHERE term = ?').pluck();
  const df = new Map([...new Set(stems.values())].map((stem) => [stem, (lookup.get(stem) as number | undefined) ?? 0]));
  const total = (db.prepare('SELECT chunks FROM rag_counts').pluck().get() as number | undefined) ?? 0;
  const ranked = terms
    .map((t) => ({ t, df: df.get(stems.get(t) ?? '') ?? 0 }))
    .filter((x) => x.df > 0 && x.df <= total / (total > SMALL_INDEX ? 4 : 2))
    .sort((a, b) => a.df - b.df);
  const kept: string[] = [];
  let postings = 0;
  for (const { t, df: n } of ranked) {
    if (kept.length > 0 && n > CHEAP_TERM && postings + n > POSTINGS_BUDGET) continue;
    kept.push(t);
    postings += n;
  }
  return kept;
}

function filtered(request: SearchRequest): boolean {
  return [request.collection, request.state, request.author, request.label, request.from, request.to].some((v) => v !== undefined);
}

function wordsList(db: Database.Database, request: SearchRequest, depth: number): Candidate[] {
  const terms = queryTerms(request.query);
  const affordable = affordableTerms(db, terms);
  // When every word is in most chunks, BM25 cannot tell chunks apart: score them all anyway only in a small index.
  const match = ftsQuery(request.query, affordable.length > 0 || ragCount(db) > SMALL_INDEX ? affordable : terms);
  if (match === null) return [];
  // FTS5 ranks inside its own query; the repository and collection filters apply to what it returns.
  const rows = db
    .prepare(
      `SELECT f.rowid AS chunkId, c.source_id AS sourceId, s.kind
         FROM (SELECT rowid, rank FROM rag_chunks_fts WHERE rag_chunks_fts MATCH ? ORDER BY rank LIMIT ?) f
         JOIN chunks c ON c.chunk_id = f.rowid JOIN sources s ON s.source_id = c.source_id
        WHERE +s.repo_id = ? ORDER BY f.rank`,
    )
    .all(match, depth * 4, request.repoId) as Array<Candidate & { kind: string }>;
  return rows.filter((r) => request.collection === undefined || r.kind === request.collection).slice(0, depth);
}

function cosine(query: Float32Array, stored: Buffer): number {
  const v = new Int8Array(stored.buffer, stored.byteOffset, stored.byteLength);
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < v.length; i += 1) {
    dot += query[i]! * v[i]!;
    norm += v[i]! * v[i]!;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}

interface MeaningCandidate extends Candidate {
  score: number;
}

interface MeaningList {
  list: MeaningCandidate[];
  /** The score a chunk must reach to be shown on meaning alone (see `chanceFloor`). */
  floor: number;
}

/** Stored vectors sampled to estimate how close the query is to an ordinary chunk, when the index is too large to score whole. */
const BASELINE_SAMPLE = 256;

/**
 * The best score an unrelated chunk is expected to reach by chance. An embedder's scale is its own
 * (the `hash` embedder puts unrelated text near 0, a model often near 0.3–0.5, and an unnormalized
 * query scales everything), so the floor is measured per query against the index itself: the mean
 * and spread of the query's similarity to all chunks (or a sample of them), plus the expected
 * maximum of N draws of that spread, √(2 ln N). A meaning-only hit below it is indistinguishable
 * from the best of the noise. Words keep every hit they find; this only stops vectors from filling
 * a list with the least-unrelated items when nothing relates.
 */
export function chanceFloor(scores: readonly number[], population: number): number {
  if (scores.length < 2) return Number.NEGATIVE_INFINITY;
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const spread = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1));
  return mean + Math.sqrt(2 * Math.log(Math.max(2, population))) * spread;
}

/**
 * The query's similarity to the vectors of up to BASELINE_SAMPLE chunks spread evenly over the
 * cache's chunk ids: rowid bounds and index lookups only, so the cost does not grow with the index.
 */
function sampledScores(db: Database.Database, ns: NamespaceRow, vector: Float32Array): number[] {
  const range = db.prepare('SELECT min(chunk_id) AS lo, max(chunk_id) AS hi FROM chunks').get() as { lo: number | null; hi: number | null };
  if (range.lo === null || range.hi === null) return [];
  const span = range.hi - range.lo + 1;
  const ids = Array.from({ length: Math.min(BASELINE_SAMPLE, span) }, (_, i) => range.lo! + Math.floor((i * span) / Math.min(BASELINE_SAMPLE, span)));
  const rows = db.prepare('SELECT vector FROM rag_embeddings WHERE chunk_id IN (SELECT value FROM json_each(?)) AND namespace_id = ?').pluck().all(JSON.stringify(ids), ns.namespaceId) as Buffer[];
  return rows.map((v) => cosine(vector, v));
}

/**
 * Vector candidates: the nearest sign-bit neighbours from vec0 (binary quantization keeps a
 * 100k-chunk scan within budget), re-ranked by exact cosine against the stored int8 vectors.
 */
function meaningList(db: Database.Database, request: SearchRequest, ns: NamespaceRow, vector: Float32Array, depth: number): MeaningList {
  // A small index is re-ranked whole: the sign-bit scan only narrows what is too large to score exactly.
  const chunks = ragCount(db);
  const total = request.vectorScan === 'quantized' ? Number.POSITIVE_INFINITY : chunks;
  const coarse = db
    .prepare(`SELECT rowid FROM ${vecTableOf(ns.namespaceId)} WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`)
    .pluck()
    .all(padded(vector), Math.max(COARSE_K, depth, total <= EXACT_LIMIT ? total : 0)) as number[];
  if (coarse.length === 0) return { list: [], floor: Number.NEGATIVE_INFINITY };
  // Primary-key reads only; where each chunk belongs is looked up for the survivors of the re-rank.
  const rows = db
    // The unary plus keeps the planner on the primary key instead of walking the namespace's index.
    .prepare('SELECT chunk_id AS chunkId, vector FROM rag_embeddings WHERE embedding_id IN (SELECT value FROM json_each(?)) AND +namespace_id = ?')
    .all(JSON.stringify(coarse), ns.namespaceId) as Array<{ chunkId: number; vector: Buffer }>;
  const ranked = rows.map((r) => ({ chunkId: r.chunkId, score: cosine(vector, r.vector) })).sort((a, b) => b.score - a.score);
  // The nearest neighbours are no sample of ordinary chunks; all of them are, when all were scored.
  const whole = rows.length >= chunks;
  const floor = chanceFloor(whole ? ranked.map((r) => r.score) : sampledScores(db, ns, vector), Math.max(rows.length, chunks));
  const where = new Map(
    (
      db
        .prepare('SELECT c.chunk_id AS chunkId, c.source_id AS sourceId, s.kind FROM chunks c JOIN sources s ON s.source_id = c.source_id WHERE c.chunk_id IN (SELECT value FROM json_each(?)) AND +s.repo_id = ?')
        .all(JSON.stringify(ranked.map((r) => r.chunkId)), request.repoId) as Array<{ chunkId: number; sourceId: number; kind: string }>
    ).map((r) => [r.chunkId, r]),
  );
  const list: MeaningCandidate[] = [];
  for (const r of ranked) {
    const at = where.get(r.chunkId);
    if (at && (request.collection === undefined || at.kind === request.collection)) list.push({ chunkId: r.chunkId, sourceId: at.sourceId, score: r.score });
    if (list.length >= depth) break;
  }
  return { list, floor };
}

/** Per list, a source's rank is that of its best chunk. */
function sourceRanks(list: readonly Candidate[]): Map<number, { rank: number; chunkId: number }> {
  const ranks = new Map<number, { rank: number; chunkId: number }>();
  for (const c of list) if (!ranks.has(c.sourceId)) ranks.set(c.sourceId, { rank: ranks.size + 1, chunkId: c.chunkId });
  return ranks;
}

function matchesFilters(meta: DocumentMeta, request: SearchRequest): boolean {
  if (request.state !== undefined && meta.state !== request.state) return false;
  if (request.author !== undefined && meta.author?.toLowerCase() !== request.author.toLowerCase()) return false;
  if (request.label !== undefined && !meta.labels.some((l) => l.toLowerCase() === request.label!.toLowerCase())) return false;
  if (request.from !== undefined && (meta.updatedAt === null || meta.updatedAt < request.from)) return false;
  if (request.to !== undefined && (meta.updatedAt === null || meta.updatedAt >= request.to)) return false;
  return true;
}

/** Why vectors cannot serve this query, or the namespace that can. */
function vectorState(store: RagStore, request: SearchRequest, profile: SearchProfile): { ns: NamespaceRow } | { degraded: SearchDegraded } {
  const { snapshot } = profile;
  if (snapshot.embedding.provider === 'none') return { degraded: 'no_embedder' };
  const selection = store.selection(request.repoId);
  if (!selection) return { degraded: 'not_indexed' };
  // The registration's profile is the truth: a selection made under another profile is void at once.
  if (selection.profile !== snapshot.profile || selection.clearedReason === 'profile_changed') return { degraded: 'profile_changed' };
  if (selection.clearedReason === 'boundary_refused') return { degraded: 'boundary_refused' };
  const ns = selection.namespaceId ? store.namespace(selection.namespaceId) : null;
  if (!ns || ns.dimensions === 0) return { degraded: 'not_indexed' };
  try {
    checkBoundary(snapshot, profile.policy);
  } catch (error) {
    if (error instanceof StewardError && error.code === 'boundary_refused') return { degraded: 'boundary_refused' };
    throw error;
  }
  // A configuration edited since the last index run is not what the namespace's vectors were made with.
  const sameModel = ns.provider === snapshot.embedding.provider && (ns.provider === 'hash' || ns.model === snapshot.embedding.model);
  if (!sameModel || ns.coveredGeneration < store.generation(request.repoId)) return { degraded: 'not_covered' };
  return { ns };
}

async function queryVector(profile: SearchProfile, ns: NamespaceRow, query: string): Promise<Float32Array | null> {
  try {
    const embedder = await embedderFor(profile.snapshot, ns.dimensions, profile.deps);
    if (!embedder) return null;
    const [vector] = await embedder.embed([query], AbortSignal.timeout(profile.queryTimeoutMs ?? 10_000));
    return vector && vector.length === ns.dimensions ? vector : null;
  } catch {
    return null;
  }
}

/**
 * A window of the chunk's body (after its context line) around the first word that shares a stem
 * with the query, cut at word boundaries. Made here rather than by FTS5's snippet(), which would
 * run the full-text query again for every hit.
 */
export function snippetOf(text: string, query: string): string {
  const body = text.includes('\n\n') ? text.slice(text.indexOf('\n\n') + 2) : text;
  const flat = body.replace(/\s+/g, ' ').trim();
  const stems = contentWords(query).map((w) => w.slice(0, Math.max(3, Math.min(5, w.length))));
  let at = 0;
  for (const match of flat.matchAll(/[\p{L}\p{N}]+/gu)) {
    const folded = match[0].normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
    if (stems.some((stem) => folded.startsWith(stem))) {
      at = match.index;
      break;
    }
  }
  let start = Math.max(0, at - SNIPPET_LEAD);
  if (start > 0) start = flat.indexOf(' ', start) + 1 || start;
  const end = Math.min(flat.length, start + SNIPPET_CHARS);
  const cutEnd = end < flat.length ? flat.lastIndexOf(' ', end) : end;
  const window = flat.slice(start, cutEnd > start ? cutEnd : end);
  return `${start > 0 ? '…' : ''}${window}${end < flat.length ? '…' : ''}`;
}

/**
 * Hybrid retrieval over one repository of a cache: BM25 (FTS5) and vectors (the selected
 * namespace) fused by reciprocal rank, one hit per item or comment. When vectors cannot serve the
 * query the result is words only and `degraded` says why.
 */
export async function searchCache(db: Database.Database, request: SearchRequest, profile: SearchProfile): Promise<SearchResult> {
  const result = await searchIndexed(db, request, profile);
  return result.degraded && WAITS_FOR_A_RUN.has(result.degraded) && profile.policy.rag === 'off' ? { ...result, degraded: 'rag_off' } : result;
}

/** Reasons that promise an index run; with search indexing off, none will come. */
const WAITS_FOR_A_RUN = new Set<SearchDegraded>(['not_indexed', 'profile_changed', 'not_covered']);

async function searchIndexed(db: Database.Database, request: SearchRequest, profile: SearchProfile): Promise<SearchResult> {
  if (ragVersion(db) === 0) return { hits: [], wordMatches: 0, degraded: 'not_indexed' };
  const store = new RagStore(db);
  const mode = request.mode ?? 'hybrid';
  const depth = Math.max(request.limit * DEPTH, 50) * (filtered(request) ? 4 : 1);
  const state = mode === 'words' ? null : vectorState(store, request, profile);
  let degraded = state && 'degraded' in state ? state.degraded : undefined;
  let meaning: MeaningList = { list: [], floor: Number.NEGATIVE_INFINITY };
  if (state && 'ns' in state) {
    const vector = await queryVector(profile, state.ns, request.query);
    if (vector) meaning = meaningList(db, request, state.ns, vector, depth);
    else degraded = 'embedder_unavailable';
  }
  const wordsHits = mode === 'meaning' ? [] : wordsList(db, request, depth);
  const lists = { words: sourceRanks(wordsHits), meaning: sourceRanks(meaning.list) };
  const scoreOf = new Map(meaning.list.map((c) => [c.chunkId, c.score]));
  // `meaning` mode is the vectors' own list (to measure them); a person's search shows a hit on meaning alone only above chance.
  const floor = mode === 'meaning' ? Number.NEGATIVE_INFINITY : meaning.floor;
  const corpus = new Corpus(db);
  const sourceOf = db.prepare('SELECT kind, external_id AS externalId FROM sources WHERE source_id = ?');
  const chunkText = db.prepare('SELECT text FROM chunks WHERE chunk_id = ?').pluck();
  const weights = listWeights(profile.snapshot.embedding.provider);
  const fused = new Map<number, number>();
  for (const [name, ranks] of Object.entries(lists) as Array<[keyof typeof lists, (typeof lists)['words']]>) {
    for (const [sourceId, { rank }] of ranks) fused.set(sourceId, (fused.get(sourceId) ?? 0) + weights[name] / (RRF_K + rank));
  }
  const hits: RepositoryHit[] = [];
  for (const [sourceId, score] of [...fused].sort((a, b) => b[1] - a[1])) {
    if (hits.length >= request.limit) break;
    const ref = sourceOf.get(sourceId) as { kind: string; externalId: string } | undefined;
    if (!ref) continue;
    const doc = corpus.document(request.repoId, { sourceId, ...ref });
    const meta: DocumentMeta = doc?.meta ?? { collection: ref.kind, number: null, title: ref.externalId, url: null, state: null, author: null, labels: [], updatedAt: null };
    if (!matchesFilters(meta, request)) continue;
    const viaWords = lists.words.get(sourceId);
    const best = viaWords ?? lists.meaning.get(sourceId)!;
    // At the floor is not above it: a query without content words embeds to zero and scores every chunk 0.
    if (!viaWords && (scoreOf.get(best.chunkId) ?? Number.NEGATIVE_INFINITY) <= floor) continue;
    hits.push({
      collection: meta.collection,
      number: meta.number,
      title: meta.title,
      snippet: snippetOf((chunkText.get(best.chunkId) as string | undefined) ?? '', request.query),
      score: Number(score.toFixed(6)),
      url: meta.url,
      state: meta.state,
      author: meta.author,
      updatedAt: meta.updatedAt,
      path: meta.path ?? null,
      matchedBy: [...(viaWords ? (['words'] as const) : []), ...(lists.meaning.has(sourceId) ? (['meaning'] as const) : [])],
    });
  }
  const wordMatches = hits.filter((h) => h.matchedBy.includes('words')).length;
  return degraded && mode !== 'words' ? { hits, wordMatches, degraded } : { hits, wordMatches };
}
