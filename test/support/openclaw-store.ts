import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

/**
 * OpenClaw agent stores built the way OpenClaw builds them (DDL from reference/openclaw-sqlite-store.md,
 * WAL, a writer connection that stays open like a running gateway), in the three shapes an importer
 * meets: schema 1 (no sessions), the early session tables (4–13), and session nodes/windows with
 * compressed payloads and cold storage (19–21).
 */
export type StoreShape = 'schema1' | 'early' | 'current';

export const STORE_FIXTURES = fileURLToPath(new URL('../fixtures/transcripts/openclaw-store/', import.meta.url));

const COMMON = `
CREATE TABLE schema_meta (meta_key TEXT NOT NULL PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL, agent_id TEXT, app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
CREATE TABLE cache_entries (scope TEXT NOT NULL, key TEXT NOT NULL, value_json TEXT NOT NULL, expires_at INTEGER, updated_at INTEGER NOT NULL, PRIMARY KEY (scope, key)) STRICT;
`;

const EARLY = `
CREATE TABLE sessions (session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER, status TEXT, chat_type TEXT, channel TEXT, model_provider TEXT, model TEXT, agent_harness_id TEXT, parent_session_key TEXT, spawned_by TEXT, display_name TEXT);
CREATE TABLE session_entries (session_key TEXT NOT NULL PRIMARY KEY, session_id TEXT NOT NULL, entry_json TEXT NOT NULL, updated_at INTEGER NOT NULL, FOREIGN KEY (session_id) REFERENCES sessions(session_id) ON DELETE CASCADE);
CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq), FOREIGN KEY (session_id) REFERENCES sessions(session_id) ON DELETE CASCADE);
CREATE TABLE transcript_event_identities (session_id TEXT NOT NULL, event_id TEXT NOT NULL, seq INTEGER NOT NULL, event_type TEXT, has_parent INTEGER NOT NULL DEFAULT 0, parent_id TEXT, message_idempotency_key TEXT, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, event_id), FOREIGN KEY (session_id, seq) REFERENCES transcript_events(session_id, seq) ON DELETE CASCADE);
`;

const CURRENT = `
CREATE TABLE session_nodes (session_key TEXT NOT NULL PRIMARY KEY, current_session_id TEXT NOT NULL, entry_json TEXT NOT NULL, entry_valid INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL, label TEXT, display_name TEXT, last_activity_at INTEGER) STRICT;
CREATE TABLE session_windows (session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL, previous_session_id TEXT, reason TEXT, session_scope TEXT NOT NULL DEFAULT 'conversation', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, transcript_updated_at INTEGER DEFAULT NULL, display_name TEXT, FOREIGN KEY (session_key) REFERENCES session_nodes(session_key) ON DELETE CASCADE) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, created_at INTEGER NOT NULL, event_zstd BLOB,
  event_utf8_bytes INTEGER CHECK (event_utf8_bytes IS NULL OR event_utf8_bytes >= 0), navigation_json TEXT,
  PRIMARY KEY (session_id, seq), FOREIGN KEY (session_id) REFERENCES "session_windows"(session_id) ON DELETE CASCADE,
  CHECK ((event_json IS NOT NULL AND event_zstd IS NULL) OR (event_json IS NULL AND event_zstd IS NOT NULL AND event_utf8_bytes IS NOT NULL AND event_utf8_bytes BETWEEN 1 AND 4194304 AND length(event_zstd) BETWEEN 1 AND 4194304 AND navigation_json IS NOT NULL))
) STRICT;
CREATE TABLE transcript_event_identities (session_id TEXT NOT NULL, event_id TEXT NOT NULL, seq INTEGER NOT NULL, event_type TEXT, parent_id TEXT, message_idempotency_key TEXT, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, event_id), FOREIGN KEY (session_id, seq) REFERENCES transcript_events(session_id, seq) ON DELETE CASCADE) STRICT;
CREATE TABLE transcript_rewrite_watermarks (session_id TEXT NOT NULL PRIMARY KEY, generation TEXT NOT NULL, updated_at INTEGER NOT NULL, FOREIGN KEY (session_id) REFERENCES "session_windows"(session_id) ON DELETE CASCADE) STRICT;
CREATE TABLE session_transcript_archives (session_id TEXT NOT NULL, generation TEXT NOT NULL, session_key TEXT NOT NULL, reason TEXT NOT NULL CHECK (reason IN ('deleted', 'reset')), encoding TEXT NOT NULL CHECK (encoding IN ('identity', 'zstd')), archive_blob BLOB NOT NULL, archive_sha256 TEXT NOT NULL CHECK (length(archive_sha256) = 64), archive_name TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL, published_at INTEGER, publish_attempts INTEGER NOT NULL DEFAULT 0, last_publish_attempt_at INTEGER, last_publish_error TEXT, PRIMARY KEY (session_id, generation)) STRICT;
CREATE TABLE session_transcript_cold_archives (session_id TEXT NOT NULL PRIMARY KEY, generation TEXT NOT NULL, archive_name TEXT NOT NULL UNIQUE, archive_sha256 TEXT NOT NULL CHECK (length(archive_sha256) = 64), event_count INTEGER NOT NULL CHECK (event_count >= 1), raw_bytes INTEGER NOT NULL CHECK (raw_bytes >= 0), archive_bytes INTEGER NOT NULL CHECK (archive_bytes >= 0), last_seq INTEGER NOT NULL, archived_at INTEGER NOT NULL, storage TEXT NOT NULL CHECK (storage IN ('file', 'sqlite')), archive_blob BLOB, CHECK ((storage = 'file' AND archive_blob IS NULL) OR (storage = 'sqlite' AND archive_blob IS NOT NULL))) STRICT;
`;

const VERSION: Record<StoreShape, number> = { schema1: 1, early: 9, current: 21 };
const NAVIGATION = JSON.stringify({ version: 1, report: { kind: 'canonical' } });

/** The zstd frames OpenClaw would have written for the fixture events of 1 KiB or more (made with `zstd -1 --check`). */
export function fixtureFrames(): Map<string, Buffer> {
  const json = readFileSync(join(STORE_FIXTURES, 'event-a9c47d10.json'), 'utf8');
  return new Map([[json, readFileSync(join(STORE_FIXTURES, 'event-a9c47d10.json.zst'))]]);
}

export function fixtureEvents(): string[] {
  return readFileSync(join(STORE_FIXTURES, 'session-7f3c.events.jsonl'), 'utf8').split('\n').filter(Boolean);
}

export class AgentStoreFixture {
  readonly db: Database.Database;
  readonly path: string;
  readonly shape: StoreShape;
  readonly #frames: Map<string, Buffer>;

  constructor(path: string, shape: StoreShape, agentId: string, frames = fixtureFrames()) {
    mkdirSync(dirname(path), { recursive: true });
    this.path = path;
    this.shape = shape;
    this.#frames = frames;
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(COMMON + (shape === 'early' ? EARLY : shape === 'current' ? CURRENT : ''));
    this.db.pragma(`user_version = ${VERSION[shape]}`);
    this.db.prepare("INSERT INTO schema_meta VALUES ('primary', 'agent', ?, ?, '2026.9.7', 1756700000000, 1758300000000)").run(VERSION[shape], agentId);
  }

  /** Appends events to a session (created on first use), the way OpenClaw does: seq = MAX + 1, large rows compressed. */
  append(sessionId: string, events: readonly string[], displayName: string | null = null): void {
    this.db.transaction(() => {
      this.#ensureSession(sessionId, displayName);
      let seq = (this.db.prepare('SELECT MAX(seq) FROM transcript_events WHERE session_id = ?').pluck().get(sessionId) as number | null) ?? -1;
      for (const json of events) this.#insert(sessionId, ++seq, json);
    })();
  }

  /** What Doctor, rewind and repair do: delete the rows, reinsert them re-sequenced, and change the generation. */
  rewrite(sessionId: string, events: readonly string[], firstSeq = 1): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM transcript_events WHERE session_id = ?').run(sessionId);
      events.forEach((json, i) => this.#insert(sessionId, firstSeq + i, json));
      this.db.prepare('UPDATE transcript_rewrite_watermarks SET generation = ?, updated_at = ? WHERE session_id = ?').run(randomBytes(16).toString('hex'), Date.now(), sessionId);
    })();
  }

  /** What OpenClaw's session delete leaves: no rows, window or node of the session; the database file stays. */
  deleteSession(sessionId: string): void {
    this.db.transaction(() => {
      const table = this.shape === 'early' ? 'sessions' : 'session_windows';
      const key = this.db.prepare(`SELECT session_key FROM ${table} WHERE session_id = ?`).pluck().get(sessionId);
      const owned = this.shape === 'early' ? ['transcript_event_identities', 'transcript_events', 'sessions'] : ['transcript_event_identities', 'transcript_events', 'transcript_rewrite_watermarks', 'session_windows'];
      for (const name of owned) this.db.prepare(`DELETE FROM ${name} WHERE session_id = ?`).run(sessionId);
      this.db.prepare(`DELETE FROM ${this.shape === 'early' ? 'session_entries' : 'session_nodes'} WHERE session_key = ?`).run(key);
    })();
  }

  close(): void {
    this.db.close();
  }

  #ensureSession(sessionId: string, displayName: string | null): void {
    const key = `agent:main:${sessionId.slice(0, 8)}`;
    if (this.shape === 'early') {
      this.db.prepare('INSERT OR IGNORE INTO sessions (session_id, session_key, created_at, updated_at, display_name) VALUES (?, ?, 1, 1, ?)').run(sessionId, key, displayName);
      return;
    }
    this.db.prepare("INSERT OR IGNORE INTO session_nodes (session_key, current_session_id, entry_json, updated_at) VALUES (?, ?, '{}', 1)").run(key, sessionId);
    this.db.prepare("INSERT OR IGNORE INTO session_windows (session_id, session_key, reason, created_at, updated_at, display_name) VALUES (?, ?, 'initial', 1, 1, ?)").run(sessionId, key, displayName);
    this.db.prepare('INSERT OR IGNORE INTO transcript_rewrite_watermarks VALUES (?, ?, 1)').run(sessionId, randomBytes(16).toString('hex'));
  }

  #insert(sessionId: string, seq: number, json: string): void {
    const frame = this.shape === 'current' ? this.#frames.get(json) : undefined;
    if (frame) {
      this.db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) VALUES (?, ?, NULL, 1, ?, ?, ?)').run(sessionId, seq, frame, Buffer.byteLength(json), NAVIGATION);
    } else {
      this.db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, 1)').run(sessionId, seq, json);
    }
    const event = JSON.parse(json) as { id?: string; type?: string; parentId?: string | null };
    if (event.id) this.db.prepare('INSERT OR REPLACE INTO transcript_event_identities (session_id, event_id, seq, event_type, parent_id, created_at) VALUES (?, ?, ?, ?, ?, 1)').run(sessionId, event.id, seq, event.type ?? null, event.parentId ?? null);
  }
}

/** `<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite`. */
export function agentStorePath(stateDir: string, agentId = 'main'): string {
  return join(stateDir, 'agents', agentId, 'agent', 'openclaw-agent.sqlite');
}
