import type { Db } from '../store/index.js';

export interface PruneResult {
  parts: number;
  sessions: number;
}

/**
 * Cache maintenance for the retention window: removes a provider's rows older than the cutoff. The
 * scheduled sweep reads with the same window, so removed rows are never brought back.
 */
export function pruneOlderThan(db: Db, provider: string, cutoffMs: number): PruneResult {
  return db.transaction((): PruneResult => {
    db.prepare('DELETE FROM spool WHERE provider = ? AND ts < ?').run(provider, cutoffMs);
    const parts = db.prepare('DELETE FROM parts WHERE ts < ? AND provider = ?').run(cutoffMs, provider).changes;
    const sessions = db.prepare('DELETE FROM sessions WHERE provider = ? AND last_ts < ?').run(provider, cutoffMs).changes;
    return { parts, sessions };
  })();
}
