// Owns: the single-owner lock (steward.lock): taking it, and who holds it now (an owner, or a one-shot command).
// Never: opens a database: the CLI asks who owns a home through this alone, without better-sqlite3 or the migrations.
export { acquireOwnerLock, commandHolding, isAlive, lockHolder, lockMarker, lockOwnerPid, LOCK_FILE, type LockHolder, type LockRole, type OwnerLock, type TakeoverReason } from './lock.js';
