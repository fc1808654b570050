import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { StewardError } from '../../api/index.js';
import { migrateRoom, sqliteOptions, type Migration } from '../../store/index.js';
import type { Chunk } from './chunking.js';
import type { NamespaceKey } from './profiles.js';

/** The rag room's schema version in the cache's `room_schema` (the file's user_version is the cache schema's). */
export const RAG_ROOM = 'rag';

/**
 * Tables retrieval owns inside a repository cache. `rag_namespaces` (spec 004's coverage per
 * namespace) and `sources`/`chunks` belong to the cache schema; these hang off them:
 * - `rag_namespace_keys`: what a namespace's vectors depend on, and its vec0 table;
 * - `rag_selection`: the namespace a repository's searches use, and the profile that chose it;
 * - `rag_source_state`: the content hash and chunk policy a source's chunks were cut from;
 * - `rag_embeddings`: one vector per chunk and namespace, removed with its chunk by foreign-key
 *   cascade; vec0 cannot carry triggers or foreign keys, so a trigger here queues the vec0 row in
 *   `rag_vec_orphans` and the rag writer deletes it in its next transaction (search joins through
 *   `rag_embeddings`, so a queued row is never a hit);
 * - `rag_chunks_fts`: FTS5 over chunk text, kept in step with `chunks` by triggers, so every writer
 *   of chunks (sync included) keeps it right.
 */
export const RAG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'namespaces, selection, source state, embeddings, full-text index',
    up: (db) =>
      db.exec(`
CREATE TABLE rag_namespace_keys (
  namespace_id TEXT PRIMARY KEY REFERENCES rag_namespaces(namespace_id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  revision TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  normalize INTEGER NOT NULL,
  chunk_policy TEXT NOT NULL,
  boundary TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE rag_selection (
  repo_id TEXT PRIMARY KEY REFERENCES repositories(repo_id) ON DELETE CASCADE,
  profile TEXT NOT NULL,
  namespace_id TEXT REFERENCES rag_namespaces(namespace_id) ON DELETE SET NULL,
  selected_at INTEGER NOT NULL,
  cleared_reason TEXT
);
CREATE TABLE rag_source_state (
  source_id INTEGER PRIMARY KEY REFERENCES sources(source_id) ON DELETE CASCADE,
  content_hash TEXT NOT NULL,
  chunk_policy TEXT NOT NULL,
  chunks INTEGER NOT NULL
);
CREATE TABLE rag_embeddings (
  embedding_id INTEGER PRIMARY KEY AUTOINCREMENT,
  namespace_id TEXT NOT NULL REFERENCES rag_namespaces(namespace_id) ON DELETE CASCADE,
  chunk_id INTEGER NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
  vector BLOB NOT NULL,
  UNIQUE (namespace_id, chunk_id)
);
CREATE INDEX rag_embeddings_by_chunk ON rag_embeddings (chunk_id);
CREATE TABLE rag_vec_orphans (namespace_id TEXT NOT NULL, embedding_id INTEGER NOT NULL);
CREATE TRIGGER rag_embeddings_orphan AFTER DELETE ON rag_embeddings BEGIN
  INSERT INTO rag_vec_orphans (namespace_id, embedding_id) VALUES (OLD.namespace_id, OLD.embedding_id);
END;
CREATE VIRTUAL TABLE rag_chunks_fts USING fts5(text, content = 'chunks', content_rowid = 'chunk_id', tokenize = 'porter unicode61 remove_diacritics 2');
CREATE TRIGGER rag_chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO rag_chunks_fts (rowid, text) VALUES (NEW.chunk_id, NEW.text);
END;
CREATE TRIGGER rag_chunks_fts_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO rag_chunks_fts (rag_chunks_fts, rowid, text) VALUES ('delete', OLD.chunk_id, OLD.text);
END;
CREATE TRIGGER rag_chunks_fts_update AFTER UPDATE OF text ON chunks BEGIN
  INSERT INTO rag_chunks_fts (rag_chunks_fts, rowid, text) VALUES ('delete', OLD.chunk_id, OLD.text);
  INSERT INTO rag_chunks_fts (rowid, text) VALUES (NEW.chunk_id, NEW.text);
END;
INSERT INTO rag_chunks_fts (rag_chunks_fts) VALUES ('rebuild');
`),
  },
  {
    version: 2,
    name: 'document frequencies of the full-text index, and the number of chunks',
    // Search reads how many chunks hold each query term (of how many), to leave out terms so common
    // that scoring them would cost more than they can change the ranking.
    up: (db) =>
      db.exec(`
CREATE VIRTUAL TABLE rag_chunks_vocab USING fts5vocab('rag_chunks_fts', 'row');
CREATE TABLE rag_counts (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), chunks INTEGER NOT NULL);
INSERT INTO rag_counts (singleton, chunks) SELECT 1, COUNT(*) FROM chunks;
CREATE TRIGGER rag_counts_insert AFTER INSERT ON chunks BEGIN UPDATE rag_counts SET chunks = chunks + 1; END;
CREATE TRIGGER rag_counts_delete AFTER DELETE ON chunks BEGIN UPDATE rag_counts SET chunks = chunks - 1; END;
`),
  },
];

/** Loads sqlite-vec into a cache connection; a writer's connection also brings the rag tables forward. */
export function attachRag(db: Database.Database, write: boolean): Database.Database {
  try {
    sqliteVec.load(db);
    if (write) migrateRoom(db, RAG_ROOM, RAG_MIGRATIONS);
    return db;
  } catch (error) {
    if (error instanceof StewardError) throw error;
    // Driver messages can hold the path.
    throw new StewardError('cache_invalid', 'The cache file cannot be prepared for indexing.');
  }
}

/** Opens a cache with sqlite-vec loaded (searches read-only; tests and tools may write). */
export function openRagCache(path: string, readonly: boolean): Database.Database {
  const db = new Database(path, sqliteOptions({ readonly, fileMustExist: true }));
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    return attachRag(db, !readonly);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The rag tables' version in a cache opened read-only: 0 when no index run has created them yet. */
export function ragVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room_schema'").get();
  if (!table) return 0;
  const version = (db.prepare('SELECT version FROM room_schema WHERE room = ?').pluck().get(RAG_ROOM) as number | undefined) ?? 0;
  const known = RAG_MIGRATIONS.length;
  if (version > known) throw new StewardError('schema_too_new', `The cache's retrieval tables have version ${version}, newer than this Steward understands (${known}).`);
  return version;
}

export interface Selection {
  profile: string;
  namespaceId: string | null;
  selectedAt: number;
  clearedReason: string | null;
}

export interface NamespaceRow extends NamespaceKey {
  namespaceId: string;
  repoId: string;
  coveredGeneration: number;
}

export interface PendingSource {
  sourceId: number;
  kind: string;
  externalId: string;
  contentHash: string;
}

export interface PendingChunk {
  chunkId: number;
  contentHash: string;
  text: string;
}

/** vec0 holds sign bits (binary quantization); bit columns need a multiple of eight dimensions. */
export const bitDimensions = (dimensions: number): number => Math.ceil(dimensions / 8) * 8;

export function vecTableOf(namespaceId: string): string {
  const table = `rag_vec_${namespaceId.replace(/^ns_/, '')}`;
  if (!/^rag_vec_[0-9a-f]{8,40}$/.test(table)) throw new StewardError('internal', 'A namespace id is not shaped as Steward makes them.');
  return table;
}

/** A vector for the exact re-rank, stored as int8 scaled by its largest component (cosine ignores scale). */
export function toInt8(vector: Float32Array): Buffer {
  let max = 0;
  for (const v of vector) max = Math.max(max, Math.abs(v));
  const out = new Int8Array(vector.length);
  if (max > 0) for (let i = 0; i < vector.length; i += 1) out[i] = Math.round((vector[i]! / max) * 127);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

export function padded(vector: Float32Array): Float32Array {
  const size = bitDimensions(vector.length);
  if (size === vector.length) return vector;
  const out = new Float32Array(size);
  out.set(vector);
  return out;
}

const rowOf = (r: Record<string, unknown>): NamespaceRow => ({
  namespaceId: r['namespace_id'] as string,
  repoId: r['repo_id'] as string,
  coveredGeneration: r['covered_generation'] as number,
  provider: r['provider'] as NamespaceRow['provider'],
  model: r['model'] as string,
  revision: r['revision'] as string,
  dimensions: r['dimensions'] as number,
  normalize: r['normalize'] === 1,
  chunkPolicy: r['chunk_policy'] as string,
  boundary: r['boundary'] as NamespaceRow['boundary'],
});

/** Every statement of the rag room over one cache connection. Reads work on a read-only connection. */
export class RagStore {
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.db = db;
  }

  /** Prepared once per connection: an index run repeats the same few statements per chunk. */
  #st(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  generation(repoId: string): number {
    return (this.#st('SELECT content_generation FROM repositories WHERE repo_id = ?').pluck().get(repoId) as number | undefined) ?? 0;
  }

  selection(repoId: string): Selection | null {
    const row = this.#st('SELECT profile, namespace_id, selected_at, cleared_reason FROM rag_selection WHERE repo_id = ?').get(repoId) as Record<string, unknown> | undefined;
    if (!row) return null;
    return { profile: row['profile'] as string, namespaceId: (row['namespace_id'] as string | null) ?? null, selectedAt: row['selected_at'] as number, clearedReason: (row['cleared_reason'] as string | null) ?? null };
  }

  /** Records the profile with no namespace selected: searches use words only until a namespace is selected again. */
  clearSelection(repoId: string, profile: string, reason: string, now: number): void {
    this.#st(
        `INSERT INTO rag_selection (repo_id, profile, namespace_id, selected_at, cleared_reason) VALUES (?, ?, NULL, ?, ?)
         ON CONFLICT (repo_id) DO UPDATE SET profile = excluded.profile, namespace_id = NULL, selected_at = excluded.selected_at, cleared_reason = excluded.cleared_reason`,
      )
      .run(repoId, profile, now, reason);
  }

  select(repoId: string, profile: string, namespaceId: string, now: number): void {
    this.#st(
        `INSERT INTO rag_selection (repo_id, profile, namespace_id, selected_at, cleared_reason) VALUES (?, ?, ?, ?, NULL)
         ON CONFLICT (repo_id) DO UPDATE SET profile = excluded.profile, namespace_id = excluded.namespace_id, selected_at = excluded.selected_at, cleared_reason = NULL`,
      )
      .run(repoId, profile, namespaceId, now);
  }

  namespace(namespaceId: string): NamespaceRow | null {
    const row = this.#st(
        `SELECT n.namespace_id, n.repo_id, n.covered_generation, k.provider, k.model, k.revision, k.dimensions, k.normalize, k.chunk_policy, k.boundary
           FROM rag_namespaces n JOIN rag_namespace_keys k ON k.namespace_id = n.namespace_id WHERE n.namespace_id = ?`,
      )
      .get(namespaceId) as Record<string, unknown> | undefined;
    return row ? rowOf(row) : null;
  }

  /** Creates the namespace (its coverage row, its key and its vec0 table) if it is new. */
  ensureNamespace(repoId: string, namespaceId: string, key: NamespaceKey, now: number): void {
    this.#st('INSERT OR IGNORE INTO rag_namespaces (namespace_id, repo_id, covered_generation) VALUES (?, ?, 0)').run(namespaceId, repoId);
    this.#st(
        `INSERT OR IGNORE INTO rag_namespace_keys (namespace_id, provider, model, revision, dimensions, normalize, chunk_policy, boundary, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(namespaceId, key.provider, key.model, key.revision, key.dimensions, key.normalize ? 1 : 0, key.chunkPolicy, key.boundary, now);
    if (key.dimensions > 0) this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vecTableOf(namespaceId)} USING vec0(embedding bit[${bitDimensions(key.dimensions)}])`);
  }

  /** Namespaces of a repository other than `keep`: the ones a new selection leaves behind. */
  otherNamespaces(repoId: string, keep: string): string[] {
    return this.#st('SELECT namespace_id FROM rag_namespaces WHERE repo_id = ? AND namespace_id <> ?').pluck().all(repoId, keep) as string[];
  }

  /**
   * Deletes up to `limit` of a namespace's embeddings (their vec0 table goes whole at the end);
   * returns how many remain, so a large namespace is dropped in bounded transactions.
   */
  shrinkNamespace(namespaceId: string, limit: number): number {
    this.#st('DELETE FROM rag_embeddings WHERE embedding_id IN (SELECT embedding_id FROM rag_embeddings WHERE namespace_id = ? LIMIT ?)').run(namespaceId, limit);
    this.#st('DELETE FROM rag_vec_orphans WHERE namespace_id = ?').run(namespaceId);
    return this.#st('SELECT COUNT(*) FROM (SELECT 1 FROM rag_embeddings WHERE namespace_id = ? LIMIT 1)').pluck().get(namespaceId) as number;
  }

  dropNamespace(namespaceId: string): void {
    this.db.exec(`DROP TABLE IF EXISTS ${vecTableOf(namespaceId)}`);
    this.#st('DELETE FROM rag_namespaces WHERE namespace_id = ?').run(namespaceId);
    this.#st('DELETE FROM rag_vec_orphans WHERE namespace_id = ?').run(namespaceId);
  }

  setCovered(namespaceId: string, generation: number): void {
    this.#st('UPDATE rag_namespaces SET covered_generation = ? WHERE namespace_id = ?').run(generation, namespaceId);
  }

  /**
   * True when the namespace holds a vector for every chunk in the cache: with one repository in the
   * file the whole-file chunk count is the repository's, so the check costs two counts, not a scan.
   */
  completeFor(namespaceId: string): boolean {
    const repositories = this.#st('SELECT COUNT(*) FROM repositories').pluck().get() as number;
    if (repositories !== 1) return false;
    const chunks = (this.#st('SELECT chunks FROM rag_counts').pluck().get() as number | undefined) ?? -1;
    return chunks === (this.#st('SELECT COUNT(*) FROM rag_embeddings WHERE namespace_id = ?').pluck().get(namespaceId) as number);
  }

  maxSourceId(): number {
    return (this.#st('SELECT MAX(source_id) FROM sources').pluck().get() as number | null) ?? 0;
  }

  maxChunkId(): number {
    return (this.#st('SELECT MAX(chunk_id) FROM chunks').pluck().get() as number | null) ?? 0;
  }

  /**
   * Sources in (after, upTo] whose chunks were not cut from their current content under this chunk
   * policy. The id window bounds each scan, so a cache with nothing to do is walked in short steps.
   */
  pendingSources(repoId: string, chunkPolicy: string, after: number, upTo: number, limit: number): PendingSource[] {
    return this.#st(
        `SELECT s.source_id AS sourceId, s.kind, s.external_id AS externalId, s.content_hash AS contentHash
           FROM sources s LEFT JOIN rag_source_state st ON st.source_id = s.source_id
          WHERE s.source_id > ? AND s.source_id <= ? AND s.repo_id = ? AND (st.source_id IS NULL OR st.content_hash <> s.content_hash OR st.chunk_policy <> ?)
          ORDER BY s.source_id LIMIT ?`,
      )
      .all(after, upTo, repoId, chunkPolicy, limit) as PendingSource[];
  }

  /** Chunks in (after, upTo] of a repository with no vector in the namespace yet. */
  pendingChunks(repoId: string, namespaceId: string, after: number, upTo: number, limit: number): PendingChunk[] {
    return this.#st(
        `SELECT c.chunk_id AS chunkId, c.content_hash AS contentHash, c.text
           FROM chunks c JOIN sources s ON s.source_id = c.source_id
           LEFT JOIN rag_embeddings e ON e.chunk_id = c.chunk_id AND e.namespace_id = ?
          WHERE c.chunk_id > ? AND c.chunk_id <= ? AND s.repo_id = ? AND e.embedding_id IS NULL
          ORDER BY c.chunk_id LIMIT ?`,
      )
      .all(namespaceId, after, upTo, repoId, limit) as PendingChunk[];
  }

  sourceHash(sourceId: number): string | null {
    return (this.#st('SELECT content_hash FROM sources WHERE source_id = ?').pluck().get(sourceId) as string | undefined) ?? null;
  }

  chunkHash(chunkId: number): string | null {
    return (this.#st('SELECT content_hash FROM chunks WHERE chunk_id = ?').pluck().get(chunkId) as string | undefined) ?? null;
  }

  /**
   * Replaces a source's chunks with new ones (and their vectors in `namespaceId`), inside the
   * caller's transaction: old chunks go, their embeddings follow by cascade and their vec0 rows
   * by the orphan queue, which the same transaction drains.
   */
  replaceChunks(sourceId: number, contentHash: string, chunkPolicy: string, chunks: readonly Chunk[], namespaceId: string | null, vectors: readonly Float32Array[] | null): void {
    this.#st('DELETE FROM chunks WHERE source_id = ?').run(sourceId);
    const insert = this.#st('INSERT INTO chunks (source_id, ordinal, content_hash, text) VALUES (?, ?, ?, ?)');
    chunks.forEach((chunk, i) => {
      const chunkId = Number(insert.run(sourceId, chunk.ordinal, chunk.contentHash, chunk.text).lastInsertRowid);
      if (namespaceId && vectors) this.addEmbedding(namespaceId, chunkId, vectors[i]!);
    });
    this.#st(
        `INSERT INTO rag_source_state (source_id, content_hash, chunk_policy, chunks) VALUES (?, ?, ?, ?)
         ON CONFLICT (source_id) DO UPDATE SET content_hash = excluded.content_hash, chunk_policy = excluded.chunk_policy, chunks = excluded.chunks`,
      )
      .run(sourceId, contentHash, chunkPolicy, chunks.length);
  }

  addEmbedding(namespaceId: string, chunkId: number, vector: Float32Array): void {
    const inserted = this.#st('INSERT INTO rag_embeddings (namespace_id, chunk_id, vector) VALUES (?, ?, ?) ON CONFLICT (namespace_id, chunk_id) DO NOTHING').run(
      namespaceId,
      chunkId,
      toInt8(vector),
    );
    // lastInsertRowid is the connection's previous insert when nothing was inserted: only `changes` says.
    if (inserted.changes === 0) return;
    this.#st(`INSERT INTO ${vecTableOf(namespaceId)} (rowid, embedding) VALUES (?, vec_quantize_binary(?))`).run(BigInt(inserted.lastInsertRowid), padded(vector));
  }

  /** Deletes the vec0 rows whose embeddings are gone (cascades from any writer); returns how many. */
  drainOrphans(): number {
    const orphans = this.#st('SELECT o.namespace_id AS ns, o.embedding_id AS id, k.dimensions FROM rag_vec_orphans o LEFT JOIN rag_namespace_keys k USING (namespace_id)').all() as Array<{
      ns: string;
      id: number;
      dimensions: number | null;
    }>;
    for (const o of orphans) if (o.dimensions) this.#st(`DELETE FROM ${vecTableOf(o.ns)} WHERE rowid = ?`).run(BigInt(o.id));
    this.#st('DELETE FROM rag_vec_orphans').run();
    return orphans.length;
  }
}
