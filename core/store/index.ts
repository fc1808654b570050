export { openDatabase, migrate, migrateRoom, schemaVersion, useSqliteNativeBinding, sqliteOptions, inTransaction, type Db, type Migration, type OpenOptions } from './database.js';
export { acquireOwnerLock, lockOwnerPid, LOCK_FILE, type OwnerLock } from './lock.js';
