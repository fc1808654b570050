import { statSync, type BigIntStats } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { sqliteOptions } from '../../../store/binding/index.js';

// A store with no WAL beside it opens `immutable=1` by URI (see openReadOnly): core/store/binding turns URIs on.

/**
 * What an OpenClaw agent store holds, read from its tables and columns rather than its version: the
 * schema went from 1 to about 21 in four months, and columns are added without a version bump.
 */
export interface StoreShape {
  /** `transcript_events`: absent in the agent stores of 2026.5.30 to 2026.7.1 (sessions were JSONL). */
  events: boolean;
  /** `event_zstd` + `event_utf8_bytes`: rows of 1 KiB or more may be one zstd frame each (2026.9.6+). */
  compressed: boolean;
  /** `transcript_rewrite_watermarks`: a session's generation, which a rewrite (re-sequencing) changes. */
  generations: boolean;
  /** `session_transcript_cold_archives`: whole transcripts moved out of the hot rows. */
  cold: boolean;
  /** `session_transcript_archives`: reset or deleted generations, kept as blobs. */
  archives: boolean;
  /** Where a session's display name is: `session_windows` (schema 14+), `sessions` (4–13), or nowhere. */
  windows: 'session_windows' | 'sessions' | undefined;
}

export interface EventRow {
  seq: number;
  event_json: string | null;
  event_zstd: Buffer | null;
  event_utf8_bytes: number | null;
}

export interface ColdArchiveRow {
  session_id: string;
  generation: string;
  archive_name: string;
  archive_sha256: string;
  archive_bytes: number;
  storage: string;
}

export interface ArchiveRow {
  session_id: string;
  generation: string;
  encoding: string;
  archive_sha256: string;
}

/** OpenClaw waits at most 5 s for its own locks; a reader waits no longer. */
const BUSY_TIMEOUT_MS = 5_000;

function columns(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]));
}

/** Whether this process's SQLite reads `file:` names as URIs: a read-only open of one in memory creates nothing either way. */
let uriNames: boolean | undefined;
function urisRead(): boolean {
  if (uriNames === undefined) {
    try {
      new Database('file::memory:', sqliteOptions({ readonly: true })).close();
      uriNames = true;
    } catch {
      uriNames = false;
    }
  }
  return uriNames;
}

function statOrNull(path: string): BigIntStats | null {
  try {
    return statSync(path, { bigint: true });
  } catch {
    return null;
  }
}

/** What says the store file is as it was: its identity, size and times, and no journal of a writer beside it. */
function stillness(path: string): string | null {
  const info = statOrNull(path);
  if (!info || statOrNull(`${path}-wal`) || statOrNull(`${path}-journal`)) return null;
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** Thrown when a store read without locks changed under the read: nothing it read is kept, the next tick reads again. */
export class StoreChanged extends Error {
  readonly code = 'store_changed';
}

/** A StoreChanged when `unlocked` (the file as a lock-free open found it) no longer holds. */
function changedSince(path: string, unlocked: string | undefined): StoreChanged | undefined {
  return unlocked !== undefined && stillness(path) !== unlocked ? new StoreChanged('the store changed while it was read') : undefined;
}

interface ReadOnly {
  db: Database.Database;
  /** The file as it was when opened without locks (see stillness); undefined for an open under SQLite's locks. */
  unlocked: string | undefined;
}

/**
 * One of OpenClaw's databases, opened read-only: `query_only`, a busy timeout, untrusted schema, and
 * nothing that writes (no journal-mode change, no checkpoint).
 *
 * A database with no `-wal` (or `-journal`) beside it is one no process has open (OpenClaw removes
 * its WAL on a clean close). A read-only open would make an empty `-wal` and a `-shm` beside it and
 * leave them (only a writer removes them), so it is opened `immutable=1`: no locks, no file made.
 * Nothing then guards the read from a writer that starts meanwhile, so what was read is used only
 * once the file is known still as it was (changedSince: no WAL or journal since, the same size and
 * times). Removing the files after a read-only open instead is no safe option: between the check
 * that they are empty and unlocked and their removal, OpenClaw may open the store and commit into
 * that very WAL, and its commits would go with it.
 */
function openReadOnly(path: string): ReadOnly {
  const still = urisRead() ? stillness(path) : null;
  const name = still === null ? path : `${pathToFileURL(path).href}?mode=ro&immutable=1`;
  const db = new Database(name, sqliteOptions({ readonly: true, fileMustExist: true }));
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('query_only = ON');
    db.pragma('trusted_schema = OFF');
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, unlocked: still ?? undefined };
}

/**
 * One agent store, opened read-only (openReadOnly). Every read is one short statement in its own
 * snapshot, so the reader never pins OpenClaw's WAL between batches.
 */
export class AgentStore {
  readonly shape: StoreShape;
  readonly #db: Database.Database;
  readonly #eventColumns: string;
  readonly #path: string;
  /** See ReadOnly.unlocked. */
  readonly #unlocked: string | undefined;

  private constructor(db: Database.Database, path: string, unlocked: string | undefined) {
    this.#db = db;
    this.#path = path;
    this.#unlocked = unlocked;
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    const events = tables.has('transcript_events') ? columns(db, 'transcript_events') : new Set<string>();
    this.shape = {
      events: events.has('session_id') && events.has('seq') && events.has('event_json'),
      compressed: events.has('event_zstd') && events.has('event_utf8_bytes'),
      generations: tables.has('transcript_rewrite_watermarks'),
      cold: tables.has('session_transcript_cold_archives') && columns(db, 'session_transcript_cold_archives').has('archive_sha256'),
      archives: tables.has('session_transcript_archives') && columns(db, 'session_transcript_archives').has('archive_blob'),
      windows: tables.has('session_windows') ? 'session_windows' : tables.has('sessions') && columns(db, 'sessions').has('session_id') ? 'sessions' : undefined,
    };
    this.#eventColumns = this.shape.compressed ? 'seq, event_json, event_zstd, event_utf8_bytes' : 'seq, event_json, NULL AS event_zstd, NULL AS event_utf8_bytes';
  }

  static open(path: string): AgentStore {
    const { db, unlocked } = openReadOnly(path);
    try {
      const store = new AgentStore(db, path, unlocked);
      store.assertUnchanged();
      return store;
    } catch (error) {
      db.close();
      throw changedSince(path, unlocked) ?? error;
    }
  }

  /** Throws StoreChanged when the store was opened without locks and a writer has been at it since. */
  assertUnchanged(): void {
    const changed = changedSince(this.#path, this.#unlocked);
    if (changed) throw changed;
  }

  /**
   * What a failed read is: the store changed under a read without locks (a page read half-written may
   * look damaged, and is not), else the error itself.
   */
  failure(error: unknown): unknown {
    return changedSince(this.#path, this.#unlocked) ?? error;
  }

  close(): void {
    this.#db.close();
  }

  /** The agent the store belongs to, from its `schema_meta` primary row. */
  agentId(): string | undefined {
    try {
      const id = this.#db.prepare("SELECT agent_id FROM schema_meta WHERE meta_key = 'primary'").pluck().get();
      return typeof id === 'string' && id !== '' ? id : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every session with events. The sessions table when there is one (index seeks), else the events' own index. */
  sessions(): Array<{ sessionId: string; title: string | null }> {
    const table = this.shape.windows;
    const titled = table && columns(this.#db, table).has('display_name');
    const sql = table
      ? `SELECT session_id AS sessionId, ${titled ? 'display_name' : 'NULL'} AS title FROM ${table} ORDER BY session_id`
      : 'SELECT DISTINCT session_id AS sessionId, NULL AS title FROM transcript_events ORDER BY session_id';
    return this.#db.prepare(sql).all() as Array<{ sessionId: string; title: string | null }>;
  }

  maxSeq(sessionId: string): number | null {
    return this.#db.prepare('SELECT MAX(seq) FROM transcript_events WHERE session_id = ?').pluck().get(sessionId) as number | null;
  }

  generations(): Map<string, string> {
    if (!this.shape.generations) return new Map();
    const rows = this.#db.prepare('SELECT session_id, generation FROM transcript_rewrite_watermarks').raw().all() as Array<[string, string]>;
    return new Map(rows);
  }

  generation(sessionId: string): string | null {
    if (!this.shape.generations) return null;
    return (this.#db.prepare('SELECT generation FROM transcript_rewrite_watermarks WHERE session_id = ?').pluck().get(sessionId) as string | undefined) ?? null;
  }

  firstEvent(sessionId: string): EventRow | undefined {
    return this.#db.prepare(`SELECT ${this.#eventColumns} FROM transcript_events WHERE session_id = ? ORDER BY seq LIMIT 1`).get(sessionId) as EventRow | undefined;
  }

  /** One keyset batch: the events after `afterSeq`, in order. */
  events(sessionId: string, afterSeq: number, limit: number): EventRow[] {
    return this.#db.prepare(`SELECT ${this.#eventColumns} FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`).all(sessionId, afterSeq, limit) as EventRow[];
  }

  coldArchives(): ColdArchiveRow[] {
    if (!this.shape.cold) return [];
    return this.#db.prepare('SELECT session_id, generation, archive_name, archive_sha256, archive_bytes, storage FROM session_transcript_cold_archives ORDER BY session_id').all() as ColdArchiveRow[];
  }

  coldBlob(sessionId: string): Buffer | null {
    return (this.#db.prepare('SELECT archive_blob FROM session_transcript_cold_archives WHERE session_id = ?').pluck().get(sessionId) as Buffer | null | undefined) ?? null;
  }

  archives(): ArchiveRow[] {
    if (!this.shape.archives) return [];
    return this.#db.prepare('SELECT session_id, generation, encoding, archive_sha256 FROM session_transcript_archives ORDER BY session_id, generation').all() as ArchiveRow[];
  }

  archiveBlob(sessionId: string, generation: string): Buffer | null {
    return (this.#db.prepare('SELECT archive_blob FROM session_transcript_archives WHERE session_id = ? AND generation = ?').pluck().get(sessionId, generation) as Buffer | null | undefined) ?? null;
  }
}

/**
 * The agent stores OpenClaw's shared registry (`state/openclaw.sqlite`, table `agent_databases`) lists.
 * One written while it was read without locks is read again: under SQLite's locks, once its WAL is there.
 */
export function registeredStores(registry: string): string[] {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const listed = registryListing(registry);
    if (listed !== 'changed') return listed;
  }
  return [];
}

function registryListing(registry: string): string[] | 'changed' {
  let opened: ReadOnly | undefined;
  let paths: string[] = [];
  try {
    opened = openReadOnly(registry);
    const { db } = opened;
    if (columns(db, 'agent_databases').has('path')) {
      paths = (db.prepare('SELECT path FROM agent_databases').pluck().all() as unknown[]).filter((p): p is string => typeof p === 'string' && p !== '');
    }
  } catch {
    // No registry (or one OpenClaw is migrating): the conventional paths still hold the stores.
  } finally {
    opened?.db.close();
  }
  return opened && changedSince(registry, opened.unlocked) ? 'changed' : paths;
}
