import { randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StewardError } from '../api/index.js';
import { sqliteOptions } from '../store/index.js';
import { pathFingerprinter, type PathFingerprinter } from './hashing.js';
import { COLLECTIONS, FORGE_KINDS, type ForgeKind } from '../api/index.js';

/**
 * The spec's identity rules arrive at schema 17; 18 adds what people and retrieval need (items,
 * comments, the forge binding, richer frontiers). A 17 cache is migrated forward by its first sync
 * writer; a newer one is refused.
 */
export const CACHE_SCHEMA_VERSION = 18;
export const IDENTITY_SCHEMA_VERSION = 17;

const SCHEMA_17 = `
CREATE TABLE cache_identity (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  cache_uuid TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE repositories (
  repo_id TEXT PRIMARY KEY,
  content_generation INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE repository_bindings (
  alias TEXT PRIMARY KEY COLLATE NOCASE,
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE
);
CREATE TABLE sources (
  source_id INTEGER PRIMARY KEY,
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  external_id TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (repo_id, kind, external_id)
);
CREATE TABLE chunks (
  chunk_id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(source_id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  text TEXT NOT NULL,
  UNIQUE (source_id, ordinal)
);
CREATE TABLE sync_frontiers (
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  collection TEXT NOT NULL,
  lane TEXT NOT NULL CHECK (lane IN ('head', 'tail')),
  next_page INTEGER,
  watermark INTEGER,
  complete INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (repo_id, collection, lane)
);
CREATE TABLE rag_namespaces (
  namespace_id TEXT PRIMARY KEY,
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  covered_generation INTEGER NOT NULL DEFAULT 0
);
-- content_generation moves only when content does: timestamp-only rewrites keep embeddings valid.
CREATE TRIGGER sources_insert_generation AFTER INSERT ON sources BEGIN
  UPDATE repositories SET content_generation = content_generation + 1 WHERE repo_id = NEW.repo_id;
END;
CREATE TRIGGER sources_delete_generation AFTER DELETE ON sources BEGIN
  UPDATE repositories SET content_generation = content_generation + 1 WHERE repo_id = OLD.repo_id;
END;
CREATE TRIGGER sources_hash_generation AFTER UPDATE OF content_hash ON sources
  WHEN OLD.content_hash IS NOT NEW.content_hash BEGIN
  UPDATE repositories SET content_generation = content_generation + 1 WHERE repo_id = NEW.repo_id;
END;
CREATE TRIGGER chunks_insert_generation AFTER INSERT ON chunks BEGIN
  UPDATE repositories SET content_generation = content_generation + 1
   WHERE repo_id = (SELECT repo_id FROM sources WHERE source_id = NEW.source_id);
END;
CREATE TRIGGER chunks_delete_generation AFTER DELETE ON chunks BEGIN
  UPDATE repositories SET content_generation = content_generation + 1
   WHERE repo_id = (SELECT repo_id FROM sources WHERE source_id = OLD.source_id);
END;
CREATE TRIGGER chunks_hash_generation AFTER UPDATE OF content_hash ON chunks
  WHEN OLD.content_hash IS NOT NEW.content_hash BEGIN
  UPDATE repositories SET content_generation = content_generation + 1
   WHERE repo_id = (SELECT repo_id FROM sources WHERE source_id = NEW.source_id);
END;
`;

// Items and comments keep their forge text; `sources` stays the content-generation surface (one
// source per item or comment), so generations move through the existing triggers. `revision` makes
// overlap replay idempotent; `last_seen_sweep` and `tombstoned_at` carry deletion evidence.
const SCHEMA_18 = `
CREATE TABLE repository_forges (
  repo_id TEXT PRIMARY KEY REFERENCES repositories(repo_id) ON DELETE CASCADE,
  forge TEXT NOT NULL,
  api_base TEXT NOT NULL
);
CREATE TABLE items (
  item_id INTEGER PRIMARY KEY,
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  collection TEXT NOT NULL,
  external_id TEXT NOT NULL,
  number INTEGER,
  title TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL DEFAULT '',
  state TEXT,
  author TEXT,
  labels TEXT NOT NULL DEFAULT '[]',
  url TEXT,
  created_at INTEGER,
  updated_at INTEGER,
  closed_at INTEGER,
  comment_count INTEGER,
  revision TEXT NOT NULL,
  children_revision TEXT,
  stream TEXT NOT NULL,
  last_seen_sweep INTEGER NOT NULL DEFAULT 0,
  tombstoned_at INTEGER,
  tombstone_reason TEXT,
  UNIQUE (repo_id, collection, external_id)
);
CREATE INDEX items_by_number ON items (repo_id, collection, number);
CREATE INDEX items_by_sweep ON items (repo_id, stream, last_seen_sweep);
CREATE TABLE comments (
  comment_id INTEGER PRIMARY KEY,
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  collection TEXT NOT NULL,
  external_id TEXT NOT NULL,
  item_number INTEGER NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  author TEXT,
  url TEXT,
  created_at INTEGER,
  updated_at INTEGER,
  path TEXT,
  line INTEGER,
  review_id TEXT,
  in_reply_to TEXT,
  revision TEXT NOT NULL,
  stream TEXT NOT NULL,
  last_seen_sweep INTEGER NOT NULL DEFAULT 0,
  tombstoned_at INTEGER,
  tombstone_reason TEXT,
  UNIQUE (repo_id, collection, external_id)
);
CREATE INDEX comments_by_item ON comments (repo_id, collection, item_number);
CREATE INDEX comments_by_sweep ON comments (repo_id, stream, last_seen_sweep);
CREATE TABLE pending_children (
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  collection TEXT NOT NULL,
  item_number INTEGER NOT NULL,
  enqueued_at INTEGER NOT NULL,
  PRIMARY KEY (repo_id, collection, item_number)
);
ALTER TABLE sync_frontiers ADD COLUMN etag TEXT;
ALTER TABLE sync_frontiers ADD COLUMN fresh_at INTEGER;
ALTER TABLE sync_frontiers ADD COLUMN pending_watermark INTEGER;
ALTER TABLE sync_frontiers ADD COLUMN pending_fresh_at INTEGER;
ALTER TABLE sync_frontiers ADD COLUMN pages_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_frontiers ADD COLUMN pages_known INTEGER;
ALTER TABLE sync_frontiers ADD COLUMN sweep INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sync_frontiers ADD COLUMN verify_sweep INTEGER;
ALTER TABLE sync_frontiers ADD COLUMN verified_at INTEGER;
ALTER TABLE sync_frontiers ADD COLUMN cursor TEXT;
ALTER TABLE sync_frontiers ADD COLUMN position TEXT;
ALTER TABLE sync_frontiers ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
`;

/** Forward-only migrations of the cache file, by the version they produce. */
const MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [{ version: 18, sql: SCHEMA_18 }];

export interface ForgeSeed {
  forge: ForgeKind;
  apiBase: string;
}

export interface RepositorySeed {
  repoId: string;
  aliases?: string[];
  forge?: ForgeSeed;
}

/** Creates a repository cache at schema 17 with a fresh random cache_uuid and its bindings. */
export function createRepositoryCache(file: string, repositories: readonly RepositorySeed[]): string {
  const db = new Database(file, sqliteOptions());
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('foreign_keys = ON');
    if ((db.pragma('user_version', { simple: true }) as number) !== 0) {
      throw new StewardError('cache_invalid', 'That file already holds a database; a repository cache is created only in a new file.');
    }
    const cacheUuid = randomUUID();
    db.transaction(() => {
      db.exec(SCHEMA_17);
      for (const m of MIGRATIONS) db.exec(m.sql);
      const now = Date.now();
      db.prepare('INSERT INTO cache_identity (singleton, cache_uuid, created_at) VALUES (1, ?, ?)').run(cacheUuid, now);
      for (const repo of repositories) addRepositoryBinding(db, repo, now);
      db.pragma(`user_version = ${CACHE_SCHEMA_VERSION}`);
    })();
    return cacheUuid;
  } finally {
    db.close();
  }
}

function addRepositoryBinding(db: Database.Database, repo: RepositorySeed, now: number): void {
  db.prepare('INSERT OR IGNORE INTO repositories (repo_id, created_at) VALUES (?, ?)').run(repo.repoId, now);
  const bind = db.prepare('INSERT OR REPLACE INTO repository_bindings (alias, repo_id) VALUES (?, ?)');
  bind.run(repo.repoId, repo.repoId);
  for (const alias of repo.aliases ?? []) bind.run(alias, repo.repoId);
  if (repo.forge) db.prepare('INSERT OR REPLACE INTO repository_forges (repo_id, forge, api_base) VALUES (?, ?, ?)').run(repo.repoId, repo.forge.forge, repo.forge.apiBase);
}

/**
 * Opens a cache for a sync writer (the caller holds the cache-UUID writer admission): a 17 cache is
 * migrated forward in one transaction first; a newer or foreign one is refused without naming the path.
 */
export function openCacheForWrite(realPath: string, pathFingerprint: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(realPath, sqliteOptions({ fileMustExist: true }));
  } catch (error) {
    throw new StewardError('cache_invalid', 'The cache file cannot be opened for writing.', { pathFingerprint, ...systemCode(error) });
  }
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    const version = readVersion(db, pathFingerprint);
    assertSupported(version, pathFingerprint);
    const pending = MIGRATIONS.filter((m) => m.version > version);
    if (pending.length > 0) {
      db.transaction(() => {
        for (const m of pending) db.exec(m.sql);
        db.pragma(`user_version = ${CACHE_SCHEMA_VERSION}`);
      })();
    }
    return db;
  } catch (error) {
    db.close();
    if (error instanceof StewardError) throw error;
    throw new StewardError('cache_invalid', 'The cache file is not a writable repository cache.', { pathFingerprint, ...systemCode(error) });
  }
}

/** 17 and 18 are maintained (17 migrates on first write); anything newer is refused, never downgraded. */
function assertSupported(version: number, pathFingerprint: string): void {
  if (version > CACHE_SCHEMA_VERSION) {
    throw new StewardError('schema_too_new', `The cache has schema version ${version}, newer than this Steward understands (${CACHE_SCHEMA_VERSION}); update Steward.`, {
      pathFingerprint,
      schemaVersion: version,
    });
  }
  if (version < IDENTITY_SCHEMA_VERSION) {
    throw new StewardError('cache_invalid', `The cache has schema version ${version}; Steward maintains versions ${IDENTITY_SCHEMA_VERSION} and ${CACHE_SCHEMA_VERSION}.`, {
      pathFingerprint,
      schemaVersion: version,
    });
  }
}

export interface CacheFrontier {
  repoId: string;
  collection: string;
  lane: 'head' | 'tail';
  nextPage: number | null;
  watermark: number | null;
  complete: boolean;
}

/** What validation learns from a cache file: its durable identity and what it binds. Never its path. */
export interface CacheInspection {
  realPath: string;
  pathFingerprint: string;
  cacheUuid: string;
  /** Resolves an alias or repo id through the cache's own bindings. */
  resolveRepository(alias: string): string | null;
  repositories: Array<{ repoId: string; contentGeneration: number; forge: ForgeSeed | null }>;
  frontiers: CacheFrontier[];
  schemaVersion: number;
}

const FORGES = new Set<string>(FORGE_KINDS);

/** The forge each repository syncs from; a 17 cache has none recorded (the sync room derives one). */
function forgeBindings(db: Database.Database, version: number): Map<string, ForgeSeed> {
  const out = new Map<string, ForgeSeed>();
  if (version < 18) return out;
  for (const row of db.prepare('SELECT repo_id AS repoId, forge, api_base AS apiBase FROM repository_forges').all() as Array<{ repoId: string; forge: string; apiBase: string }>) {
    if (FORGES.has(row.forge) && typeof row.apiBase === 'string') out.set(row.repoId, { forge: row.forge as ForgeSeed['forge'], apiBase: row.apiBase });
  }
  return out;
}

/** Frontiers this code understands: the policy collections and one documents frontier per source. */
function knownCollection(collection: string): boolean {
  return (COLLECTIONS as readonly string[]).includes(collection) || /^documents:src_[0-9a-f]{16}$/.test(collection);
}

const FRONTIER_LIMIT = 64;

/**
 * Opens a cache read-only, checks its schema and reads its identity. Every failure becomes
 * `cache_invalid` with the path fingerprint only: driver messages can hold the path.
 */
export function inspectCache(path: string, fingerprint: PathFingerprinter): CacheInspection {
  let realPath: string;
  try {
    realPath = realpathSync(path);
  } catch (error) {
    throw new StewardError('cache_invalid', 'The cache file cannot be found or read.', systemCode(error));
  }
  const pathFingerprint = fingerprint(realPath);
  let db: Database.Database;
  try {
    db = new Database(realPath, sqliteOptions({ readonly: true, fileMustExist: true }));
  } catch (error) {
    throw new StewardError('cache_invalid', 'The cache file cannot be opened.', { pathFingerprint, ...systemCode(error) });
  }
  try {
    const version = readVersion(db, pathFingerprint);
    assertSupported(version, pathFingerprint);
    const identity = db.prepare('SELECT cache_uuid AS cacheUuid FROM cache_identity WHERE singleton = 1').get() as { cacheUuid: string } | undefined;
    if (!identity || !/^[0-9a-f-]{36}$/i.test(identity.cacheUuid)) {
      throw new StewardError('cache_invalid', 'The cache carries no durable cache identity.', { pathFingerprint });
    }
    const bindings = new Map<string, string>();
    for (const row of db.prepare('SELECT alias, repo_id AS repoId FROM repository_bindings').all() as Array<{ alias: string; repoId: string }>) {
      bindings.set(row.alias.toLowerCase(), row.repoId);
    }
    const forges = forgeBindings(db, version);
    const repositories = (
      db
        .prepare(
          `SELECT r.repo_id AS repoId, r.content_generation AS contentGeneration
             FROM repositories r ORDER BY r.repo_id`,
        )
        .all() as Array<{ repoId: string; contentGeneration: number }>
    )
      .slice(0, 256)
      .map((r) => ({ ...r, forge: forges.get(r.repoId) ?? null }));
    const frontiers = (
      db
        .prepare(
          `SELECT repo_id AS repoId, collection, lane, next_page AS nextPage, watermark, complete
             FROM sync_frontiers ORDER BY repo_id, collection, lane LIMIT ${FRONTIER_LIMIT}`,
        )
        .all() as Array<Omit<CacheFrontier, 'complete'> & { complete: number }>
    )
      // Only frontiers this code understands are carried into status; the rest of the file is not ours to echo.
      .filter((f) => knownCollection(f.collection) && (f.lane === 'head' || f.lane === 'tail'))
      .map((f) => ({ ...f, nextPage: intOrNull(f.nextPage), watermark: intOrNull(f.watermark), complete: f.complete === 1 }));
    return {
      realPath,
      pathFingerprint,
      cacheUuid: identity.cacheUuid.toLowerCase(),
      resolveRepository: (alias) => bindings.get(alias.toLowerCase()) ?? null,
      repositories,
      frontiers,
      schemaVersion: version,
    };
  } catch (error) {
    if (error instanceof StewardError) throw error;
    throw new StewardError('cache_invalid', 'The cache file is not a readable repository cache.', { pathFingerprint, ...systemCode(error) });
  } finally {
    db.close();
  }
}

function intOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function readVersion(db: Database.Database, pathFingerprint: string): number {
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } catch {
    throw new StewardError('cache_invalid', 'The cache file is not a SQLite database.', { pathFingerprint });
  }
}

function systemCode(error: unknown): { systemCode?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? { systemCode: code } : {};
}

/**
 * What a cache file holds, for a person telling copies apart: live items and comments (schema 18),
 * or content sources (17), plus its size and last change on disk. Null where it cannot be read.
 */
export function cacheHoldings(path: string): { items: number | null; sizeBytes: number | null; lastModifiedAt: number | null } {
  let stat: { size: number; mtimeMs: number };
  try {
    stat = statSync(path);
  } catch {
    return { items: null, sizeBytes: null, lastModifiedAt: null };
  }
  let items: number | null = null;
  try {
    const db = new Database(path, sqliteOptions({ readonly: true, fileMustExist: true }));
    try {
      const version = db.pragma('user_version', { simple: true }) as number;
      const sql =
        version >= 18
          ? 'SELECT (SELECT count(*) FROM items WHERE tombstoned_at IS NULL) + (SELECT count(*) FROM comments WHERE tombstoned_at IS NULL)'
          : 'SELECT count(*) FROM sources';
      items = db.prepare(sql).pluck().get() as number;
    } finally {
      db.close();
    }
  } catch {
    // A copy that cannot be opened still has a size and a date.
  }
  return { items, sizeBytes: stat.size, lastModifiedAt: Math.floor(stat.mtimeMs) };
}

/**
 * How a registry reads caches under an install secret: path fingerprints, a cache's inspection, and
 * the inspection a migration may try (null where a file cannot be read). Without its secret no
 * fingerprint can match, which is how a registry is then held degraded.
 */
export function cacheInspector(secret: Buffer | null): { fingerprint: PathFingerprinter; inspect: (path: string) => CacheInspection; tryInspect: (path: string) => CacheInspection | null } {
  const fingerprint = pathFingerprinter(secret ?? Buffer.alloc(0));
  const inspect = (path: string): CacheInspection => inspectCache(path, fingerprint);
  const tryInspect = (path: string): CacheInspection | null => {
    try {
      return inspect(path);
    } catch {
      return null;
    }
  };
  return { fingerprint, inspect, tryInspect };
}
