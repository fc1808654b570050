import type { TelemetryEntry } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { Checkpointer, type DiskGate } from './checkpointer.js';

const KEEP_ROWS = 5_000;
/** How soon rows held back by a checkpoint are tried again. */
const RETRY_MS = 25;
/** Rows held back at most: past this, they are written at once and wait like any write. */
const MAX_HELD = 1_000;

type Row = [at: number, kind: string, data: string];

export interface TelemetryLogOptions {
  /** The WAL checkpoint thread's disk gate; the connection's own (Checkpointer.of) by default. */
  gate?: DiskGate;
  /** Where a held-back row that could not be written is reported (by count and code). */
  logger?: Logger;
}

/**
 * Telemetry rows hold counts and durations only. The table is bounded: old rows are trimmed as new
 * ones arrive, so it never grows with the life of the install.
 *
 * A row is written through the disk gate, like a commit window. While the WAL checkpoint thread holds
 * the disk, the row waits in memory and is written a moment later. That thread's truncation of the
 * WAL after an import holds SQLite's write lock while it cuts hundreds of megabytes (100 ms here),
 * and a telemetry insert in that time slept in the busy handler: the event loop stalled 135–183 ms.
 */
export class TelemetryLog {
  readonly #db: Db;
  readonly #gate: DiskGate;
  readonly #logger: Logger | undefined;
  readonly #insert;
  readonly #trim;
  readonly #recent;
  readonly #recentOfKind;
  readonly #lastId;
  #held: Row[] = [];
  #retry: NodeJS.Timeout | undefined;

  constructor(db: Db, options: TelemetryLogOptions = {}) {
    this.#db = db;
    this.#gate = options.gate ?? Checkpointer.of(db, options.logger);
    this.#logger = options.logger;
    this.#insert = db.prepare('INSERT INTO telemetry (at, kind, data) VALUES (?, ?, ?)');
    this.#trim = db.prepare('DELETE FROM telemetry WHERE id <= (SELECT MAX(id) FROM telemetry) - ?');
    this.#recent = db.prepare('SELECT id, at, kind, data FROM telemetry ORDER BY id DESC LIMIT ?');
    this.#recentOfKind = db.prepare('SELECT id, at, kind, data FROM telemetry WHERE kind = ? ORDER BY id DESC LIMIT ?');
    // AUTOINCREMENT: the next id follows the highest ever given, which sqlite_sequence keeps.
    this.#lastId = db.prepare("SELECT MAX(IFNULL((SELECT seq FROM sqlite_sequence WHERE name = 'telemetry'), 0), IFNULL((SELECT MAX(id) FROM telemetry), 0))").pluck();
  }

  /** Writes the row now, or soon after a checkpoint that holds the disk (rows keep their order). A write that fails now throws. */
  record(kind: string, data: Record<string, unknown>, at = Date.now()): void {
    const row: Row = [at, kind, JSON.stringify(data)];
    if (this.#held.length === 0 && this.#write([row], false)) return;
    this.#held.push(row);
    if (this.#held.length >= MAX_HELD) this.#writeHeld(true);
    else this.#retryLater();
  }

  /**
   * Rows newest first, those still held back included: a row's event (sweep.tick) is sent as it is
   * recorded, and a reader reloading on it must find it, not the row before. A held row carries the
   * id it will be written with: ids are handed out in order, by this log alone (a held row whose write
   * then fails, logged by count and code, never gets it: the next row written does).
   */
  recent(limit = 50, kind?: string): TelemetryEntry[] {
    const held = this.#heldEntries(kind).slice(-limit).reverse();
    const rows = (kind ? this.#recentOfKind.all(kind, limit - held.length) : this.#recent.all(limit - held.length)) as Array<{ id: number; at: number; kind: string; data: string }>;
    return [...held, ...rows.map((row) => ({ id: row.id, at: row.at, kind: row.kind, data: JSON.parse(row.data) as Record<string, unknown> }))];
  }

  /** The held rows as entries, oldest first, each with the id its write will give it. */
  #heldEntries(kind: string | undefined): TelemetryEntry[] {
    if (this.#held.length === 0) return [];
    const last = this.#lastId.get() as number;
    return this.#held
      .map(([at, rowKind, data], i) => ({ id: last + i + 1, at, kind: rowKind, data: JSON.parse(data) as Record<string, unknown> }))
      .filter((entry) => kind === undefined || entry.kind === kind);
  }

  /** Writes what is held back, waiting on the disk if it must; call before the connection closes. */
  close(): void {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    if (this.#db.open) this.#writeHeld(true);
  }

  /** False when the checkpoint thread holds the disk (and `force` is off): nothing was written. */
  #write(rows: readonly Row[], force: boolean): boolean {
    // Inside an open window the rows join its transaction: no commit, no wait of their own.
    const joins = this.#db.inTransaction;
    if (!joins && !this.#gate.enter(force)) return false;
    try {
      inTransaction(this.#db, () => {
        for (const row of rows) {
          const id = Number(this.#insert.run(...row).lastInsertRowid);
          if (id % 100 === 0) this.#trim.run(KEEP_ROWS);
        }
      });
    } finally {
      if (!joins) this.#gate.leave();
    }
    return true;
  }

  #writeHeld(force: boolean): void {
    if (this.#held.length === 0) return;
    try {
      if (!this.#write(this.#held, force)) return this.#retryLater();
    } catch (error) {
      // Nobody is left to throw to: counted in the log, never silently dropped.
      this.#logger?.warn('telemetry rows not written', { rows: this.#held.length, code: errorCode(error) });
    }
    this.#held = [];
  }

  #retryLater(): void {
    if (this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#writeHeld(false);
    }, RETRY_MS);
    this.#retry.unref();
  }
}
