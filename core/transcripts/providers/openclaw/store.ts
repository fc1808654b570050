import Database from 'better-sqlite3';
import { sqliteOptions } from '../../../store/binding/index.js';

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

/**
 * One agent store, opened read-only: `query_only`, a busy timeout, untrusted schema, and nothing
 * that writes (no journal-mode change, no checkpoint, no `immutable`). Every read is one short
 * statement in its own snapshot, so the reader never pins OpenClaw's WAL between batches.
 */
export class AgentStore {
  readonly shape: StoreShape;
  readonly #db: Database.Database;
  readonly #eventColumns: string;

  private constructor(db: Database.Database) {
    this.#db = db;
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
    const db = new Database(path, sqliteOptions({ readonly: true, fileMustExist: true }));
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('query_only = ON');
      db.pragma('trusted_schema = OFF');
      return new AgentStore(db);
    } catch (error) {
      db.close();
      throw error;
    }
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

/** The agent stores OpenClaw's shared registry (`state/openclaw.sqlite`, table `agent_databases`) lists. */
export function registeredStores(registry: string): string[] {
  let db: Database.Database | undefined;
  try {
    db = new Database(registry, sqliteOptions({ readonly: true, fileMustExist: true }));
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('query_only = ON');
    if (!columns(db, 'agent_databases').has('path')) return [];
    return (db.prepare('SELECT path FROM agent_databases').pluck().all() as unknown[]).filter((p): p is string => typeof p === 'string' && p !== '');
  } catch {
    // No registry (or one OpenClaw is migrating): the conventional paths still hold the stores.
    return [];
  } finally {
    db?.close();
  }
}
