// Owns: which better-sqlite3 build core opens databases with (Electron's own ABI, or Node's).
// Never: opens a database or imports another room: the read worker loads this alone, without the store's migrations and their rooms.
import type Database from 'better-sqlite3';

/*
 * better-sqlite3 reads `file:` names as URIs (an OpenClaw store opened `immutable=1`, so no -wal or -shm
 * is made beside a store OpenClaw does not have open) only when SQLITE_USE_URI=1 is set as its addon
 * loads, and then for the whole process. The addon loads at the first `new Database`, which in core is
 * always given this module's sqliteOptions, so this runs first. An explicit setting is kept; where URIs
 * are not read, a store is opened under SQLite's locks as one OpenClaw has open. Steward's own
 * databases have absolute paths, which never begin with `file:`.
 */
process.env.SQLITE_USE_URI ??= '1';

let nativeBinding: string | undefined;

/**
 * The Electron app runs on Electron's ABI and loads a better-sqlite3 build made for it (`npm start`
 * prepares one beside the Node build). Node — tests, the CLI, headless mode — never calls this.
 */
export function useSqliteNativeBinding(file: string | undefined): void {
  nativeBinding = file;
}

/** Options for any `new Database(…)` in core: they carry the Electron build's binding when one is set. */
export function sqliteOptions(options: Database.Options = {}): Database.Options {
  return nativeBinding ? { ...options, nativeBinding } : options;
}
