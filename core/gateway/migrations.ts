import type { Migration } from '../store/index.js';

/**
 * gateway.db's schema, in order. Steps are appended, never edited: a user's file may already be at
 * any of them.
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
];
