import { subagentParentOf, type ForgetKind, type Tombstone } from '../api/index.js';
import type { Db } from '../store/index.js';

interface TombstoneRow {
  kind: ForgetKind;
  id: string;
  label: string | null;
  created_at: number;
}

/**
 * What was forgotten: a session id or a project key that capture must not import again while its
 * transcripts still exist on disk. Lifting one lets the next backfill bring it back.
 */
export class Tombstones {
  readonly #add;
  readonly #remove;
  readonly #list;
  readonly #has;
  readonly #relabel;

  constructor(db: Db) {
    this.#add = db.prepare('INSERT INTO history_tombstones (kind, id, label, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(kind, id) DO UPDATE SET label = COALESCE(excluded.label, label)');
    this.#remove = db.prepare('DELETE FROM history_tombstones WHERE kind = ? AND id = ?');
    this.#list = db.prepare('SELECT kind, id, label, created_at FROM history_tombstones ORDER BY created_at DESC, kind, id');
    this.#has = db.prepare('SELECT 1 FROM history_tombstones WHERE kind = ? AND id = ?').pluck();
    this.#relabel = db.prepare('UPDATE history_tombstones SET label = ? WHERE kind = ? AND id = ?');
  }

  add(kind: ForgetKind, id: string, label: string | null, now = Date.now()): void {
    this.#add.run(kind, id, label, now);
  }

  /** Replaces a label outright (`add` keeps the one before when it is given none). */
  relabel(kind: ForgetKind, id: string, label: string | null): void {
    this.#relabel.run(label, kind, id);
  }

  remove(kind: ForgetKind, id: string): boolean {
    return this.#remove.run(kind, id).changes > 0;
  }

  list(): Tombstone[] {
    return (this.#list.all() as TombstoneRow[]).map((r) => ({ kind: r.kind, id: r.id, label: r.label, createdAt: r.created_at }));
  }

  has(kind: ForgetKind, id: string): boolean {
    return this.#has.get(kind, id) !== undefined;
  }

  /**
   * A session is forgotten with itself, the conversation it is a subagent of (by row or by id), or its
   * project. A branch is a conversation of its own: forgetting the one it branched from keeps it.
   */
  forgets(session: { sessionId: string; parentSessionId: string | null; parentKind?: string | null }, projectKey: string | null): boolean {
    if (this.has('session', session.sessionId)) return true;
    const parent = (session.parentKind === 'branch' ? null : session.parentSessionId) ?? subagentParentOf(session.sessionId);
    if (parent !== null && this.has('session', parent)) return true;
    return projectKey !== null && this.has('project', projectKey);
  }
}
