import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StewardError } from '../api/index.js';
import { tightenMode } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { sqliteOptions } from './binding/index.js';

export type Db = Database.Database;

export interface Migration {
  /** 1-based, contiguous, never reused: the schema's `user_version` after this step. */
  version: number;
  name: string;
  up(db: Db): void;
}

export interface OpenOptions {
  /** A label for messages (never a path: messages may reach logs and the panel). */
  label: string;
  migrations: readonly Migration[];
  readonly?: boolean;
  busyTimeoutMs?: number;
  /** The size the WAL file is cut back to once a checkpoint lets it restart (default 64 MiB). */
  walSizeLimitBytes?: number;
  /** Page size of a file created by this open; an existing file keeps its own (SQLite's rule). */
  pageSizeBytes?: number;
  /** The connection's page cache, in KiB (SQLite's default is 2,000). */
  cacheKiB?: number;
  /**
   * For a store that is Steward's own: the file is created with this mode, and SQLite gives its -wal
   * and -shm the mode of the database file. An existing file (an older version's) is tightened to it.
   */
  fileMode?: number;
  /** Where a mode that could not be tightened is reported. */
  logger?: Logger;
  /**
   * SQLite's `secure_delete = FAST`: a deleted row's bytes are zeroed on the pages its delete writes
   * anyway (no extra write), instead of staying in the page's free space. Per connection, set before
   * the migrations run. Pages freed whole keep their bytes (see the gateway's DiskScrub).
   */
  secureDelete?: 'fast';
}

const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** Opens a SQLite file with the pragmas every store relies on, then brings its schema forward. */
export function openDatabase(file: string, options: OpenOptions): Db {
  if (options.fileMode !== undefined && !options.readonly) claimMode(file, options.fileMode, options);
  const db = new Database(file, sqliteOptions({ readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false }));
  try {
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    // Refuse a newer schema before any pragma that rewrites the file header (journal_mode does).
    assertKnownSchema(db, options.migrations, options.label);
    if (!options.readonly) {
      // Only a file with no pages yet takes a page size; it must precede journal_mode, which writes one.
      if (options.pageSizeBytes !== undefined) db.pragma(`page_size = ${Math.trunc(options.pageSizeBytes)}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // A cold import grows the WAL by hundreds of megabytes; without a limit SQLite keeps that file
      // at its largest size for as long as the store is open.
      db.pragma(`journal_size_limit = ${Math.trunc(options.walSizeLimitBytes ?? WAL_SIZE_LIMIT_BYTES)}`);
    }
    if (options.secureDelete === 'fast') db.pragma('secure_delete = FAST');
    if (options.cacheKiB !== undefined) db.pragma(`cache_size = ${-Math.trunc(options.cacheKiB)}`);
    db.pragma('foreign_keys = ON');
    if (!options.readonly) migrate(db, options.migrations, options.label);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Creates `file` empty with `mode` (SQLite takes an empty file as a new database), or tightens it and its WAL and SHM. */
function claimMode(file: string, mode: number, options: OpenOptions): void {
  try {
    closeSync(openSync(file, 'wx', mode));
    return;
  } catch (error) {
    // Anything but an existing file (a missing folder, a refusal) is SQLite's to report, as it would.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    const code = tightenMode(path, mode);
    if (code) options.logger?.warn('a store file could not be made private', { store: options.label, code });
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function latest(migrations: readonly Migration[]): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

function assertKnownSchema(db: Db, migrations: readonly Migration[], label: string): void {
  const current = schemaVersion(db);
  const known = latest(migrations);
  if (current > known) {
    throw new StewardError(
      'schema_too_new',
      `The ${label} database has schema version ${current}, newer than this Steward understands (${known}). Upgrade Steward; the file was left untouched.`,
      { current, known },
    );
  }
}

/**
 * Forward-only: each pending step runs in its own transaction together with the `user_version`
 * bump, so a crash leaves the file at a whole step, never between two.
 */
export function migrate(db: Db, migrations: readonly Migration[], label: string): number {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  ordered.forEach((m, index) => {
    if (m.version !== index + 1) throw new Error(`Migrations of ${label} must be numbered 1..n without gaps (found ${m.version} at ${index + 1})`);
  });
  assertKnownSchema(db, ordered, label);
  let current = schemaVersion(db);
  for (const step of ordered) {
    if (step.version <= current) continue;
    db.transaction(() => {
      step.up(db);
      db.pragma(`user_version = ${step.version}`);
    })();
    current = step.version;
  }
  return current;
}

const ROOM_SCHEMA = 'CREATE TABLE IF NOT EXISTS room_schema (room TEXT PRIMARY KEY, version INTEGER NOT NULL)';

/**
 * A room that owns tables in a file another room opens keeps its own numbered steps: the file's
 * `user_version` belongs to the room that opens it, and every other room records its version in
 * `room_schema`. Same rules as `migrate`: contiguous, forward-only, a newer step refused.
 */
export function migrateRoom(db: Db, room: string, migrations: readonly Migration[]): number {
  db.exec(ROOM_SCHEMA);
  const known = latest(migrations);
  const current = (db.prepare('SELECT version FROM room_schema WHERE room = ?').pluck().get(room) as number | undefined) ?? 0;
  if (current > known) {
    throw new StewardError('schema_too_new', `The ${room} tables have schema version ${current}, newer than this Steward understands (${known}). Upgrade Steward; the file was left untouched.`, { current, known });
  }
  for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
    if (step.version <= current) continue;
    db.transaction(() => {
      step.up(db);
      db.prepare('INSERT INTO room_schema (room, version) VALUES (?, ?) ON CONFLICT(room) DO UPDATE SET version = excluded.version').run(room, step.version);
    })();
  }
  return Math.max(current, known);
}

/**
 * Runs `fn` in the connection's open transaction when there is one, else in a transaction of its
 * own. Joining, rather than nesting a savepoint, matters inside a commit window: a savepoint copies
 * the original of every page it first touches to a sub-journal, and a batch of random part ids
 * touches hundreds of index pages. Joined, `fn` is atomic per statement only, so a caller may use it
 * only where a half-done `fn` leaves valid rows that its next run completes.
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.inTransaction ? fn() : db.transaction(fn)();
}
