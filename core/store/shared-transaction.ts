import type { Db } from './database.js';

/**
 * The connection's long write transaction, shared by the writers that join whatever one is open
 * (capture's commit window, the index walk's piece window), and the work waiting on its commit. The
 * writer whose rows are in it need not be the one that commits it, so work that must wait for
 * durability waits here, on the connection, not on the writer that queued it.
 *
 * One rule: such work runs once the transaction that holds what the connection wrote so far commits
 * (at once when none is open), and is dropped when that transaction is rolled back or lost. Losing it
 * is safe (the work only records what is durable, so it is done again later); running it early is not.
 */
const waiting = new WeakMap<Db, Array<() => void>>();

/** Begins a write transaction that other writers on the connection may join. */
export function beginShared(db: Db): void {
  db.exec('BEGIN IMMEDIATE');
  // Anything still waiting belonged to a transaction SQLite rolled back on its own: it is dropped.
  waiting.set(db, []);
}

/** Commits the shared transaction, then runs what waited on it; a failed commit rolls back and drops it. */
export function commitShared(db: Db): void {
  const ready = waiting.get(db) ?? [];
  waiting.delete(db);
  try {
    db.exec('COMMIT');
  } catch (error) {
    // Still open after a failed commit (a busy or full disk): never left open for another writer to join.
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  // Each writer's work runs whatever another's did: the rows are committed either way. A failure is
  // told after all of them ran, as the commit's caller would have met it.
  const failures: unknown[] = [];
  for (const fn of ready) {
    try {
      fn();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/** Rolls the shared transaction back, unless SQLite already did; what waited on it is dropped. */
export function rollbackShared(db: Db): void {
  waiting.delete(db);
  if (db.open && db.inTransaction) db.exec('ROLLBACK');
}

/**
 * Runs `fn` once what the connection wrote so far is committed (see the rule above): at once with no
 * transaction open, at the shared transaction's commit, never when it is lost. A transaction begun
 * outside `beginShared` (a synchronous caller's) never tells its commit, so `fn` is dropped there too.
 */
export function afterCommit(db: Db, fn: () => void): void {
  const queue = waiting.get(db);
  if (!db.open || !db.inTransaction) {
    // Queued work with no transaction open: SQLite rolled the shared one back (an I/O error, a full disk).
    if (queue) waiting.delete(db);
    else fn();
    return;
  }
  queue?.push(fn);
}
