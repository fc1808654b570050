import type { TitleSource } from '../api/index.js';
import type { Db } from '../store/index.js';
import { messageOf, type PartRow, type TitleClaim } from '../transcripts/index.js';

interface ClaimRow {
  leaf_prefix: string;
  fallback_session_id: string;
  title: string;
  title_source: TitleSource;
  base_title: string | null;
  base_source: string | null;
}

interface TitleRow {
  title: string | null;
  source: string | null;
}

/** A claim no longer waiting, with the title its fallback session had before claims stood on it. */
export interface SettledClaim extends TitleClaim {
  base: TitleRow;
}

/**
 * Title claims whose leaf message was not stored when they were read (title_claims). A Claude summary
 * line titles the session holding its leaf, which lives in another file, and files are read in name
 * order: until the leaf is stored the title stands on the summary's own file's session, and when the
 * leaf arrives (later in the same import, in a later tick, after a restart) it moves to the leaf's
 * session. Each claim keeps the title its fallback session had before any claim stood on it (its
 * base), so withdrawing the stand-in restores what the session's own lines said.
 *
 * The awaited leaves are held in memory, loaded once per process: a stored part costs a set lookup,
 * never a query. The set may keep a leaf whose claims are settled (a window rolled back must not lose
 * one still recorded): a part of that message then costs two indexed reads that find nothing.
 */
export class TitleClaims {
  readonly #leaves;
  readonly #upsert;
  readonly #baseOf;
  readonly #titleOf;
  readonly #waiting;
  readonly #settle;
  readonly #latestOn;
  readonly #withdraw;
  #awaited: Set<string> | undefined;

  constructor(db: Db) {
    this.#leaves = db.prepare('SELECT DISTINCT leaf_prefix FROM title_claims').pluck();
    // A claim read again keeps its base: the session's title now may be this very claim's.
    this.#upsert = db.prepare(
      `INSERT INTO title_claims (leaf_prefix, fallback_session_id, title, title_source, base_title, base_source) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(leaf_prefix, fallback_session_id) DO UPDATE SET title = excluded.title, title_source = excluded.title_source`,
    );
    this.#baseOf = db.prepare('SELECT base_title AS title, base_source AS source FROM title_claims WHERE fallback_session_id = ? LIMIT 1');
    this.#titleOf = db.prepare('SELECT title, title_source AS source FROM sessions WHERE session_id = ?');
    this.#waiting = db.prepare('SELECT leaf_prefix, fallback_session_id, title, title_source, base_title, base_source FROM title_claims WHERE leaf_prefix = ? ORDER BY seq');
    this.#settle = db.prepare('DELETE FROM title_claims WHERE leaf_prefix = ?');
    this.#latestOn = db.prepare('SELECT title, title_source AS source FROM title_claims WHERE fallback_session_id = ? ORDER BY seq DESC LIMIT 1');
    // Only a title that is still the claim's is withdrawn: a higher one (or a newer one) stays.
    this.#withdraw = db.prepare(
      'UPDATE sessions SET title = ?, title_source = ?, updated_at = ? WHERE session_id = ? AND title IS ? AND title_source IS ?',
    );
  }

  /** Whether a claim waits for this leaf. */
  awaits(leafPartPrefix: string): boolean {
    return this.#loaded().has(leafPartPrefix);
  }

  /** The leaves some claim waits for among these parts, each once. */
  awaitedAmong(parts: readonly PartRow[]): string[] {
    const awaited = this.#loaded();
    if (awaited.size === 0) return [];
    const found = new Set<string>();
    for (const { partId } of parts) {
      // A claim's leaf is a message's part id without its block (`cc:{uuid}:`).
      const prefix = messageOf(partId);
      if (awaited.has(prefix)) found.add(prefix);
    }
    return [...found];
  }

  /**
   * Records a claim whose title is about to stand on its fallback session. Call it before that title
   * is written: the base is the session's title as its own lines (or settled claims) left it.
   */
  record(claim: TitleClaim): void {
    const base = (this.#baseOf.get(claim.fallbackSessionId) ?? this.#titleOf.get(claim.fallbackSessionId)) as TitleRow | undefined;
    this.#upsert.run(claim.leafPartPrefix, claim.fallbackSessionId, claim.title, claim.source, base?.title ?? null, base?.source ?? null);
    this.#loaded().add(claim.leafPartPrefix);
  }

  /** Removes the claims that wait for this leaf and returns them, oldest first. */
  settle(leafPartPrefix: string): SettledClaim[] {
    const rows = this.#waiting.all(leafPartPrefix) as ClaimRow[];
    if (rows.length > 0) this.#settle.run(leafPartPrefix);
    return rows.map((r) => ({
      leafPartPrefix: r.leaf_prefix,
      fallbackSessionId: r.fallback_session_id,
      title: r.title,
      source: r.title_source,
      base: { title: r.base_title, source: r.base_source },
    }));
  }

  /**
   * A settled claim's title leaves its fallback session if it still stands there: the session takes
   * the newest claim still waiting on it, else its base. Call it once the claim is settled.
   */
  withdraw(claim: SettledClaim, now = Date.now()): void {
    const next = (this.#latestOn.get(claim.fallbackSessionId) as TitleRow | undefined) ?? claim.base;
    this.#withdraw.run(next.title, next.source, now, claim.fallbackSessionId, claim.title, claim.source);
  }

  #loaded(): Set<string> {
    this.#awaited ??= new Set(this.#leaves.all() as string[]);
    return this.#awaited;
  }
}
