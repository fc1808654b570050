import type { TelemetryEntry } from '../api/index.js';
import type { Db } from '../store/index.js';

const KEEP_ROWS = 5_000;

/**
 * Telemetry rows hold counts and durations only. The table is bounded: old rows are trimmed as new
 * ones arrive, so it never grows with the life of the install.
 */
export class TelemetryLog {
  readonly #insert;
  readonly #trim;
  readonly #recent;
  readonly #recentOfKind;

  constructor(db: Db) {
    this.#insert = db.prepare('INSERT INTO telemetry (at, kind, data) VALUES (?, ?, ?)');
    this.#trim = db.prepare('DELETE FROM telemetry WHERE id <= (SELECT MAX(id) FROM telemetry) - ?');
    this.#recent = db.prepare('SELECT id, at, kind, data FROM telemetry ORDER BY id DESC LIMIT ?');
    this.#recentOfKind = db.prepare('SELECT id, at, kind, data FROM telemetry WHERE kind = ? ORDER BY id DESC LIMIT ?');
  }

  record(kind: string, data: Record<string, unknown>, at = Date.now()): number {
    const info = this.#insert.run(at, kind, JSON.stringify(data));
    if (Number(info.lastInsertRowid) % 100 === 0) this.#trim.run(KEEP_ROWS);
    return Number(info.lastInsertRowid);
  }

  recent(limit = 50, kind?: string): TelemetryEntry[] {
    const rows = (kind ? this.#recentOfKind.all(kind, limit) : this.#recent.all(limit)) as Array<{ id: number; at: number; kind: string; data: string }>;
    return rows.map((row) => ({ id: row.id, at: row.at, kind: row.kind, data: JSON.parse(row.data) as Record<string, unknown> }));
  }
}
