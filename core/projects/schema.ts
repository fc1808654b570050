import type { Migration } from '../store/index.js';

/**
 * The projects table lives in gateway.db but belongs to this room: its steps are recorded under the
 * room's own name (`migrateRoom`). Files made before the room owned it already hold the table, which
 * is why the first step is `IF NOT EXISTS`.
 */
export const PROJECTS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'projects',
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS projects (
          project_key TEXT PRIMARY KEY,
          cwd TEXT NOT NULL,
          slug TEXT NOT NULL,
          name TEXT NOT NULL,
          repo_id TEXT,
          repo_backed INTEGER NOT NULL DEFAULT 0,
          last_activity_at INTEGER,
          updated_at INTEGER NOT NULL
        );
      `);
    },
  },
];
