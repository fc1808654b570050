import type Database from 'better-sqlite3';
import { StewardError } from '../../api/index.js';
import type { ConfigSnapshot, Policy } from '../schema.js';
import { chunkDocument, type Chunk } from './chunking.js';
import { Corpus } from './corpus.js';
import { embedAll } from './embedders/types.js';
import { namespaceIdOf, type ProfileResolver, type ResolvedProfile } from './profiles.js';
import { RagStore, type PendingSource } from './store.js';

export interface IndexJob {
  repoId: string;
  snapshot: ConfigSnapshot;
  policy: Pick<Policy, 'embeddingBoundary'>;
}

export interface IndexTally {
  /** Sources whose chunks were cut again (new or changed content, or a new chunk policy). */
  sourcesChunked: number;
  chunksWritten: number;
  /** Vectors computed by the embedder in this run (the work a re-index costs). */
  chunksEmbedded: number;
  truncated: number;
  /** Skips by reason: `no_text` (no live record holds the source's text), `changed` (content moved during the run). */
  skipped: { no_text: number; changed: number };
}

export interface IndexReport extends IndexTally {
  namespaceId: string;
  contentGeneration: number;
  coveredGeneration: number;
  /** The cache changed under the run: its coverage was not advanced, so the next reconciliation repairs it. */
  changedDuringRun: boolean;
}

export interface IndexOptions {
  resolver: ProfileResolver;
  clock: () => number;
  signal?: AbortSignal;
  onProgress?: (tally: IndexTally) => void;
  /** Sources read, chunked and embedded per write transaction. */
  sourceBatch?: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Prepared {
  ref: PendingSource;
  chunks: Chunk[];
}

/**
 * One index run of one repository in one cache, inside the cache's writer admission:
 * 1. capture the repository's content generation (the lock is held, so this is the run's baseline);
 * 2. an explicit profile change clears the previous selection at once;
 * 3. resolve the profile (a refused boundary clears the selection and fails the run);
 * 4. create and select its namespace;
 * 5. chunk changed sources and embed their chunks, then embed chunks the namespace lacks — each
 *    batch in one transaction with its vec0 rows;
 * 6. record `covered_generation` for this namespace — only if no other writer moved the generation
 *    during the run; otherwise the new content stays uncovered and the next pass repairs it.
 */
export async function runIndex(db: Database.Database, job: IndexJob, options: IndexOptions): Promise<IndexReport> {
  const store = new RagStore(db);
  const { repoId, snapshot } = job;
  const now = options.clock;
  const tally: IndexTally = { sourcesChunked: 0, chunksWritten: 0, chunksEmbedded: 0, truncated: 0, skipped: { no_text: 0, changed: 0 } };
  let expected = store.generation(repoId);
  let changedDuringRun = false;
  // Every write checks that the generation is where this run left it: anything else is another writer's change.
  const write = <T>(work: () => T): T =>
    db
      .transaction(() => {
        if (store.generation(repoId) !== expected) changedDuringRun = true;
        const out = work();
        expected = store.generation(repoId);
        return out;
      })
      .immediate();

  const selection = store.selection(repoId);
  if (selection && selection.profile !== snapshot.profile) write(() => store.clearSelection(repoId, snapshot.profile, 'profile_changed', now()));

  let resolved: ResolvedProfile;
  try {
    resolved = await options.resolver.resolve(snapshot, job.policy, options.signal);
  } catch (error) {
    if (error instanceof StewardError && error.code === 'boundary_refused') write(() => store.clearSelection(repoId, snapshot.profile, 'boundary_refused', now()));
    throw error;
  }
  const namespaceId = namespaceIdOf(repoId, resolved.key);
  write(() => {
    store.ensureNamespace(repoId, namespaceId, resolved.key, now());
    if (store.selection(repoId)?.namespaceId !== namespaceId) store.select(repoId, snapshot.profile, namespaceId, now());
  });

  await chunkChangedSources(db, store, job, resolved, namespaceId, tally, write, options);
  await embedMissingChunks(store, repoId, resolved, namespaceId, tally, write, options);

  const covered = write(() => {
    store.drainOrphans();
    if (changedDuringRun) return false;
    store.setCovered(namespaceId, expected);
    return true;
  });
  // The namespaces this selection replaced are useless once it is covered: their vectors go, in steps.
  if (covered) for (const old of store.otherNamespaces(repoId, namespaceId)) await dropInSteps(store, old, write);
  return {
    ...tally,
    namespaceId,
    contentGeneration: store.generation(repoId),
    coveredGeneration: store.namespace(namespaceId)?.coveredGeneration ?? 0,
    changedDuringRun,
  };
}

type Write = <T>(work: () => T) => T;

/** Rows a scan or a delete touches per step: each step is one short transaction or query. */
const WINDOW = 4_096;

async function dropInSteps(store: RagStore, namespaceId: string, write: Write): Promise<void> {
  while (write(() => store.shrinkNamespace(namespaceId, WINDOW)) > 0) await yieldToLoop();
  write(() => store.dropNamespace(namespaceId));
}

async function chunkChangedSources(
  db: Database.Database,
  store: RagStore,
  job: IndexJob,
  resolved: ResolvedProfile,
  namespaceId: string,
  tally: IndexTally,
  write: Write,
  options: IndexOptions,
): Promise<void> {
  const corpus = new Corpus(db);
  const batchSize = options.sourceBatch ?? 16;
  const last = store.maxSourceId();
  let after = 0;
  while (after < last) {
    options.signal?.throwIfAborted();
    const upTo = Math.min(after + WINDOW, last);
    // One read transaction: a source's hash and its text are read from the same state of the file.
    const batch = db.transaction(() =>
      store.pendingSources(job.repoId, resolved.chunkPolicy.id, after, upTo, batchSize).map((ref) => ({ ref, doc: corpus.document(job.repoId, ref) })),
    )();
    after = batch.length < batchSize ? upTo : batch.at(-1)!.ref.sourceId;
    if (batch.length === 0) {
      await yieldToLoop();
      continue;
    }
    const prepared: Prepared[] = [];
    for (const { ref, doc } of batch) {
      if (doc) prepared.push({ ref, chunks: chunkDocument(doc, resolved.chunkPolicy) });
      else tally.skipped.no_text += 1;
    }
    const texts = prepared.flatMap((p) => p.chunks.map((c) => c.text));
    const embedded = resolved.embedder && texts.length > 0 ? await embedAll(resolved.embedder, texts, options.signal) : null;
    if (embedded) {
      tally.chunksEmbedded += embedded.vectors.length;
      tally.truncated += embedded.truncated;
    }
    write(() => {
      let offset = 0;
      for (const p of prepared) {
        const vectors = embedded ? embedded.vectors.slice(offset, offset + p.chunks.length) : null;
        offset += p.chunks.length;
        if (store.sourceHash(p.ref.sourceId) !== p.ref.contentHash) {
          tally.skipped.changed += 1;
          continue;
        }
        store.replaceChunks(p.ref.sourceId, p.ref.contentHash, resolved.chunkPolicy.id, p.chunks, embedded ? namespaceId : null, vectors);
        tally.sourcesChunked += 1;
        tally.chunksWritten += p.chunks.length;
      }
      store.drainOrphans();
    });
    options.onProgress?.(tally);
    await yieldToLoop();
  }
}

async function embedMissingChunks(store: RagStore, repoId: string, resolved: ResolvedProfile, namespaceId: string, tally: IndexTally, write: Write, options: IndexOptions): Promise<void> {
  if (!resolved.embedder || store.completeFor(namespaceId)) return;
  const limit = Math.max(64, resolved.embedder.batchSize);
  const last = store.maxChunkId();
  let after = 0;
  while (after < last) {
    options.signal?.throwIfAborted();
    const upTo = Math.min(after + WINDOW, last);
    const pending = store.pendingChunks(repoId, namespaceId, after, upTo, limit);
    after = pending.length < limit ? upTo : pending.at(-1)!.chunkId;
    if (pending.length === 0) {
      await yieldToLoop();
      continue;
    }
    const { vectors, truncated } = await embedAll(
      resolved.embedder,
      pending.map((c) => c.text),
      options.signal,
    );
    tally.chunksEmbedded += vectors.length;
    tally.truncated += truncated;
    write(() => {
      pending.forEach((chunk, i) => {
        if (store.chunkHash(chunk.chunkId) !== chunk.contentHash) tally.skipped.changed += 1;
        else store.addEmbedding(namespaceId, chunk.chunkId, vectors[i]!);
      });
    });
    options.onProgress?.(tally);
    await yieldToLoop();
  }
}
