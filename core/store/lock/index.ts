// Owns: the single-owner lock (steward.lock): taking it, and who holds it now.
// Never: opens a database: the CLI asks who owns a home through this alone, without better-sqlite3 or the migrations.
export { acquireOwnerLock, lockOwnerPid, LOCK_FILE, type OwnerLock, type TakeoverReason } from './lock.js';
