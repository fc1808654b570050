import type Database from 'better-sqlite3';
import { StewardError, type RepositoryHit, type SearchDegraded } from '../../api/index.js';
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
}

export interface SearchProfile {
  snapshot: ConfigSnapshot;
  policy: Pick<Policy, 'embeddingBoundary'>;
  deps: ProfileDeps;
  /** How long a query embedding may take before the search answers with words only. */
  queryTimeoutMs?: number;
}

export interface SearchResult {
  hits: RepositoryHit[];
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
const COARSE_K = 96;
const SNIPPET_CHARS = 240;

interface Candidate {
  chunkId: number;
  sourceId: number;
}

/** The FTS5 query: the query's content words, each quoted (punctuation never reaches FTS syntax), OR-ed. */
export function ftsQuery(query: string): string | null {
  const content = contentWords(query);
  const terms = [...new Set(content.length > 0 ? content : words(query))];
  return terms.length > 0 ? terms.map((t) => `"${t}"`).join(' OR ') : null;
}

function filtered(request: SearchRequest): boolean {
  return [request.collection, request.state, request.author, request.label, request.from, request.to].some((v) => v !== undefined);
}

function wordsList(db: Database.Database, request: SearchRequest, depth: number): Candidate[] {
  const match = ftsQuery(request.query);
  if (match === null) return [];
  // FTS5 ranks inside its own query; the repository and collection filters apply to what it returns.
  const rows = db
    .prepare(
      `SELECT f.rowid AS chunkId, c.source_id AS sourceId, s.kind
         FROM (SELECT rowid, rank FROM rag_chunks_fts WHERE rag_chunks_fts MATCH ? ORDER BY rank LIMIT ?) f
         JOIN chunks c ON c.chunk_id = f.rowid JOIN sources s ON s.source_id = c.source_id
        WHERE s.repo_id = ? ORDER BY f.rank`,
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

/**
 * Vector candidates: the nearest sign-bit neighbours from vec0 (binary quantization keeps a
 * 100k-chunk scan within budget), re-ranked by exact cosine against the stored int8 vectors.
 */
function meaningList(db: Database.Database, request: SearchRequest, ns: NamespaceRow, vector: Float32Array, depth: number): Candidate[] {
  const coarse = db
    .prepare(`SELECT rowid FROM ${vecTableOf(ns.namespaceId)} WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`)
    .pluck()
    .all(padded(vector), Math.max(COARSE_K, depth)) as number[];
  if (coarse.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT e.chunk_id AS chunkId, c.source_id AS sourceId, s.kind, e.vector
         FROM rag_embeddings e JOIN chunks c ON c.chunk_id = e.chunk_id JOIN sources s ON s.source_id = c.source_id
        WHERE e.embedding_id IN (SELECT value FROM json_each(?)) AND e.namespace_id = ? AND s.repo_id = ?`,
    )
    .all(JSON.stringify(coarse), ns.namespaceId, request.repoId) as Array<Candidate & { kind: string; vector: Buffer }>;
  return rows
    .filter((r) => request.collection === undefined || r.kind === request.collection)
    .map((r) => ({ chunkId: r.chunkId, sourceId: r.sourceId, score: cosine(vector, r.vector) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, depth);
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

function snippetOf(db: Database.Database, request: SearchRequest, chunkId: number, viaWords: boolean): string {
  const match = viaWords ? ftsQuery(request.query) : null;
  const snippet = match
    ? (db.prepare("SELECT snippet(rag_chunks_fts, 0, '', '', '…', 32) FROM rag_chunks_fts WHERE rag_chunks_fts MATCH ? AND rowid = ?").pluck().get(match, chunkId) as string | undefined)
    : undefined;
  // A chunk opens with its context line (title › section); the snippet is the body after it.
  const text = snippet ?? ((db.prepare('SELECT text FROM chunks WHERE chunk_id = ?').pluck().get(chunkId) as string | undefined) ?? '').split('\n\n').slice(1).join(' ');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat;
}

/**
 * Hybrid retrieval over one repository of a cache: BM25 (FTS5) and vectors (the selected
 * namespace) fused by reciprocal rank, one hit per item or comment. When vectors cannot serve the
 * query the result is words only and `degraded` says why.
 */
export async function searchCache(db: Database.Database, request: SearchRequest, profile: SearchProfile): Promise<SearchResult> {
  if (ragVersion(db) === 0) return { hits: [], degraded: 'not_indexed' };
  const store = new RagStore(db);
  const mode = request.mode ?? 'hybrid';
  const depth = Math.max(request.limit * DEPTH, 50) * (filtered(request) ? 4 : 1);
  const state = mode === 'words' ? null : vectorState(store, request, profile);
  let degraded = state && 'degraded' in state ? state.degraded : undefined;
  let meaning: Candidate[] = [];
  if (state && 'ns' in state) {
    const vector = await queryVector(profile, state.ns, request.query);
    if (vector) meaning = meaningList(db, request, state.ns, vector, depth);
    else degraded = 'embedder_unavailable';
  }
  const wordsHits = mode === 'meaning' ? [] : wordsList(db, request, depth);
  const lists = { words: sourceRanks(wordsHits), meaning: sourceRanks(meaning) };
  const corpus = new Corpus(db);
  const sourceOf = db.prepare('SELECT kind, external_id AS externalId FROM sources WHERE source_id = ?');
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
    hits.push({
      collection: meta.collection,
      number: meta.number,
      title: meta.title,
      snippet: snippetOf(db, request, best.chunkId, viaWords !== undefined),
      score: Number(score.toFixed(6)),
      url: meta.url,
      state: meta.state,
      author: meta.author,
      updatedAt: meta.updatedAt,
      matchedBy: [...(viaWords ? (['words'] as const) : []), ...(lists.meaning.has(sourceId) ? (['meaning'] as const) : [])],
    });
  }
  return degraded && mode !== 'words' ? { hits, degraded } : { hits };
}
