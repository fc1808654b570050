import type { Migration } from '../store/index.js';

/**
 * gateway.db's schema, in order. Steps are appended, never edited in effect: a user's file may
 * already be at any of them. (Rooms that keep tables in this file migrate them under their own name.)
 */
export const GATEWAY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'telemetry',
    up(db) {
      db.exec(`
        CREATE TABLE telemetry (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          at INTEGER NOT NULL,
          kind TEXT NOT NULL,
          data TEXT NOT NULL
        );
        CREATE INDEX telemetry_kind_at ON telemetry(kind, at);
      `);
    },
  },
  {
    version: 2,
    name: 'transcript capture: parts, sessions, spool',
    up(db) {
      // Step 2 once created the projects table too; core/projects/ owns it now and creates it if absent.
      // parts(session_id, part_id) is the session-id sort bound candidate probes use; nothing scans parts whole.
      db.exec(`
        CREATE TABLE parts (
          part_id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL,
          provider TEXT NOT NULL,
          role TEXT,
          kind TEXT NOT NULL,
          ts INTEGER,
          text TEXT,
          meta TEXT
        );
        CREATE INDEX parts_session ON parts(session_id, part_id);
        CREATE INDEX parts_ts ON parts(ts);
        CREATE TABLE sessions (
          session_id TEXT PRIMARY KEY,
          provider TEXT NOT NULL,
          source TEXT,
          project_key TEXT,
          cwd TEXT,
          parent_session_id TEXT,
          agent_type TEXT,
          title TEXT,
          first_ts INTEGER,
          last_ts INTEGER,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX sessions_project ON sessions(project_key, last_ts);
        CREATE INDEX sessions_parent ON sessions(parent_session_id);
        CREATE TABLE spool (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL CHECK (kind IN ('part', 'session')),
          id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          provider TEXT NOT NULL,
          role TEXT,
          part_kind TEXT,
          ts INTEGER,
          text TEXT,
          meta TEXT
        );
      `);
    },
  },
];
