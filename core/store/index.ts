// Owns: opening SQLite with the pragmas every store relies on, forward-only migrations (per file and per room), and the single-owner lock.
// Never: knows any room's tables; it runs the steps rooms hand it.
export { openDatabase, migrate, migrateRoom, schemaVersion, inTransaction, type Db, type Migration } from './database.js';
export { afterCommit, beginShared, commitShared, rollbackShared } from './shared-transaction.js';
export { useSqliteNativeBinding, sqliteOptions } from './binding/index.js';
export { acquireOwnerLock, lockOwnerPid, type LockRole, type OwnerLock } from './lock/index.js';
