// Owns: which better-sqlite3 build core opens databases with (Electron's own ABI, or Node's).
// Never: opens a database or imports another room: the read worker loads this alone, without the store's migrations and their rooms.
import type Database from 'better-sqlite3';

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
