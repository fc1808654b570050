import type { ScrubStatus } from '../api/index.js';
import { errorCode } from '../log/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { truncateHere } from './checkpointer.js';
import { inPieces, turn, type PieceGate } from './pace.js';
import type { SearchIndex } from './search-index.js';

/** What a wipe is doing: folding the index, overwriting free pages, emptying the WAL. */
export type ScrubPhase = 'index' | 'free' | 'journal';

/** How far a phase has come: pages written of those it will write about (the WAL: 0 of 1, then 1). */
export interface ScrubProgress {
  phase: ScrubPhase;
  done: number;
  total: number;
}

export interface ScrubOptions {
  /** Aborting stops the wipe between pieces; it stays owed (see DiskScrub.pending). */
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: ScrubProgress) => void) | undefined;
}

/** The disk gate, and the WAL's checkpoints on its thread (capture's Checkpointer). */
export type ScrubGate = PieceGate & { settle(): Promise<boolean>; truncate(): Promise<boolean> };

/**
 * search_state's keys: a wipe is owed (1), how fast the last one went (bytes of work a millisecond),
 * and when the last one ran to its end (epoch ms).
 */
const PENDING = 'scrub_pending';
const RATE = 'scrub_bytes_per_ms';
const LAST = 'scrub_last_at';
/**
 * Before any wipe has run here. On a 2-CPU test machine, after forgetting one conversation of 100,100
 * parts (a 238 MB gateway.db, an index of 24,198 FTS5 pages) a wipe took 1.4 s, 138,000 bytes of work
 * (see #workBytes) a millisecond; after forgetting 90% of them, 3.5 s at 109,000; at 6,100 parts,
 * 0.15 s at 95,000.
 */
const DEFAULT_BYTES_PER_MS = 120_000;
/** FTS5's leaf page (its default `pgsz`): the index's structure counts these. */
const INDEX_PAGE_BYTES = 4_050;
/**
 * Free pages a piece overwrites, sized by time (PieceSize): 16 KiB pages, so at most 4 MiB of zeros
 * a piece. A piece is one row of zeros; the rows are deleted a few at a time, each freeing its pages.
 */
const FILL_PAGES = { maxRows: 256, minRows: 4, startRows: 16 };
const CLEAR_ROWS = { maxRows: 64, minRows: 1, startRows: 4 };
/** Tries at emptying the WAL while a reader's snapshot still needs its frames: about 2 s in all. */
const TRUNCATE_TRIES = 40;
const TRUNCATE_WAIT_MS = 50;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The bytes of a row of zeros whose overflow chain takes exactly `pages` pages, each written whole.
 * SQLite's file format (B-tree pages, cell payload overflow): a table leaf keeps K = M + (P-M) % (U-4)
 * bytes of a larger payload P on its own page (M = (U-12)*32/255 - 23 when K does not fit), and the
 * rest goes to overflow pages of U-4 bytes after a 4-byte link: P = M + pages*(U-4) fills each whole. A payload that filled the chain's last
 * page only in part left that page's tail unwritten: a free page taken for it (the freelist's trunk is
 * read with its old bytes) kept the end of what it held, a forgotten conversation's words among them.
 * U is the page size: the gateway reserves no bytes at the end of a page.
 */
function zerosFilling(pages: number, pageBytes: number): number {
  const onLeaf = Math.floor(((pageBytes - 12) * 32) / 255) - 23;
  return onLeaf + pages * (pageBytes - 4);
}

/**
 * Wiping what forgetting deleted from the disk, not only from the tables. The connection's
 * secure_delete (FAST, openGateway) zeroes a deleted row where its page is written anyway, but three
 * places keep the bytes: the full-text index keeps a removed part's words beside a delete marker until
 * a merge writes the oldest segment; pages freed whole keep what they held; and the WAL keeps old
 * copies of pages. So a wipe folds the index into one segment, fills every free page with zeros (a
 * row of scrub_fill, migration 17, deleted again) and empties the WAL, each in paced pieces through
 * the disk gate. It is owed (search_state) from before a forget that asks for it deletes anything
 * until it has run to its end, so a stop at any point leaves it to the owner's next start.
 */
export class DiskScrub {
  readonly #db: Db;
  readonly #index: SearchIndex;
  readonly #gate: ScrubGate | undefined;
  readonly #state;
  readonly #setState;
  readonly #fill;
  readonly #clear;
  /** How far the running wipe has come, for ScrubStatus; undefined when none runs or before its first piece. */
  #progress: ScrubStatus['progress'] | undefined;
  /** The last wipe stopped on an error and none has finished since (held by this owner only: its next start tries again). */
  #failed: ScrubStatus['failed'] = null;
  /** The connection's own secure_delete (0 off, 1 on, 2 FAST), given back once the wipe's fold is done. */
  readonly #secureDelete: number;

  constructor(db: Db, index: SearchIndex, gate?: ScrubGate) {
    this.#db = db;
    this.#index = index;
    this.#gate = gate;
    this.#state = db.prepare('SELECT value FROM search_state WHERE key = ?').pluck();
    this.#setState = db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    this.#fill = db.prepare('INSERT INTO scrub_fill (zeros) VALUES (zeroblob(?))');
    this.#clear = db.prepare('DELETE FROM scrub_fill WHERE rowid IN (SELECT rowid FROM scrub_fill ORDER BY rowid LIMIT ?)');
    this.#secureDelete = db.pragma('secure_delete', { simple: true }) as number;
    // A wipe owed from before a restart: what the rest of the forget frees is zeroed as it goes.
    if (this.pending()) this.#zeroFreedPages(true);
  }

  /** Whether a wipe is owed: asked for, and not yet run to its end. */
  pending(): boolean {
    return this.#value(PENDING) === 1;
  }

  /**
   * A wipe is owed from now: before a forget that asks for one deletes anything. Until the wipe's fold
   * is done, every page freed is zeroed as it is freed (secure_delete ON, not FAST): a page the forget
   * freed with its words still in it could otherwise be taken by another write before the wipe fills
   * it, written only in part, and keep their tail inside a live row, where no wipe of free pages
   * reaches (an attacker's finding: 58 copies after a "wiped" forget).
   */
  owe(): void {
    this.#setState.run(PENDING, 1);
    this.#zeroFreedPages(true);
  }

  /** secure_delete ON while a forget and its fold free pages; the connection's own setting after. */
  #zeroFreedPages(on: boolean): void {
    this.#db.pragma(`secure_delete = ${on ? 'ON' : (['OFF', 'ON', 'FAST'][this.#secureDelete] ?? 'FAST')}`);
  }

  /** About how long a wipe takes now: its work (see #workBytes) at the pace the last one went. */
  estimateMs(): number {
    return Math.round(this.#workBytes().total / (this.#value(RATE) || DEFAULT_BYTES_PER_MS));
  }

  /** What ScrubStatus says of wiping besides whether one is owed or running: how far, when last, what failed. */
  report(): Pick<ScrubStatus, 'progress' | 'lastWipedAt' | 'failed'> {
    const last = this.#value(LAST);
    return { progress: this.#progress ?? null, lastWipedAt: last > 0 ? last : null, failed: this.#failed };
  }

  /** Runs the wipe to its end (true, and it is no longer owed) or until the signal stops it (false). */
  async run(options: ScrubOptions = {}): Promise<boolean> {
    const work = this.#workBytes();
    try {
      const complete = await this.#run({ signal: options.signal, onProgress: this.#tracking(work, options.onProgress) }, work.total);
      if (complete) this.#failed = null;
      // Not stopped, yet not done: a reader's snapshot kept the WAL from being emptied (see #emptyJournal).
      else if (options.signal?.aborted !== true) this.#failed = { at: Date.now(), code: 'SQLITE_BUSY' };
      return complete;
    } catch (error) {
      // Said by ScrubStatus until a wipe finishes; the wipe stays owed (the caller logs it).
      this.#failed = { at: Date.now(), code: errorCode(error) };
      throw error;
    } finally {
      this.#progress = undefined;
    }
  }

  async #run(options: ScrubOptions, work: number): Promise<boolean> {
    const began = performance.now();
    this.owe();
    try {
      if (!(await this.#fold(options))) return false;
    } finally {
      this.#index.endFold();
    }
    // Every page holding the forgotten words is free and zeroed now, or is one this wipe fills; its
    // own rows of zeros need not be zeroed again as they are deleted.
    this.#zeroFreedPages(false);
    // Each phase's first piece after a turn of its own, as each later piece is.
    await turn();
    if (!(await this.#overwriteFree(options)) || !(await this.#emptyJournal(options))) return false;
    const rate = Math.max(1, Math.round(work / Math.max(1, performance.now() - began)));
    // Written after the WAL was emptied: the one frame it adds holds this page of search_state alone.
    inTransaction(this.#db, () => {
      this.#setState.run(PENDING, 0);
      this.#setState.run(RATE, rate);
      this.#setState.run(LAST, Date.now());
    });
    return true;
  }

  /**
   * Keeps how far the wipe has come as a share of its whole work (see #workBytes): the fold writes the
   * index anew, then the free phase overwrites the old copy's pages and those free before. Below 100
   * until it has run to its end.
   */
  #tracking(work: { index: number; total: number }, onProgress: ScrubOptions['onProgress']): (progress: ScrubProgress) => void {
    const pageBytes = this.#db.pragma('page_size', { simple: true }) as number;
    return (progress) => {
      const { phase, done, total } = progress;
      const bytes = phase === 'index' ? (total > 0 ? (work.index * done) / total : work.index) : phase === 'free' ? work.index + done * pageBytes : work.total;
      const percent = work.total > 0 ? Math.floor((100 * Math.min(bytes, work.total)) / work.total) : 0;
      this.#progress = { phase, percent: Math.min(99, percent) };
      onProgress?.(progress);
    };
  }

  /**
   * The bytes a wipe writes, about: the index once anew, then the pages its old copy leaves free and
   * those free now overwritten once each. What the work takes follows it closely (see DEFAULT_BYTES_PER_MS).
   */
  #workBytes(): { index: number; total: number } {
    const index = (this.#index.indexPages() ?? 0) * INDEX_PAGE_BYTES;
    const free = (this.#db.pragma('freelist_count', { simple: true }) as number) * (this.#db.pragma('page_size', { simple: true }) as number);
    return { index, total: 2 * index + free };
  }

  /** Folds the index into one segment, a piece at a time (see SearchIndex.foldPiece). */
  async #fold({ signal, onProgress }: ScrubOptions): Promise<boolean> {
    const total = this.#index.indexPages() ?? 0;
    let done = 0;
    let first = true;
    return inPieces({ limits: { maxRows: 1 }, gate: this.#gate, signal }, () => {
      const piece = this.#index.foldPiece(first);
      first = false;
      done = piece.more ? Math.min(total, done + piece.pages) : total;
      onProgress?.({ phase: 'index', done, total });
      return piece.more;
    });
  }

  /**
   * Overwrites every free page with zeros: a row of scrub_fill whose overflow pages take them, each
   * written whole (see zerosFilling), then the rows deleted (the pages they free hold zeros). Pages
   * freed meanwhile by other writes are overwritten too, up to twice as many as were free at the start.
   */
  async #overwriteFree({ signal, onProgress }: ScrubOptions): Promise<boolean> {
    const free = () => this.#db.pragma('freelist_count', { simple: true }) as number;
    const pageBytes = this.#db.pragma('page_size', { simple: true }) as number;
    const total = free();
    let done = 0;
    const filled = await inPieces({ limits: FILL_PAGES, gate: this.#gate, signal }, (rows) => {
      const pages = Math.min(free(), rows, 2 * total - done);
      if (pages > 0) this.#fill.run(zerosFilling(pages, pageBytes));
      done += pages;
      onProgress?.({ phase: 'free', done: Math.min(done, total), total });
      return pages > 0 && free() > 0 && done < 2 * total;
    });
    if (!filled) return false;
    await turn();
    return inPieces({ limits: CLEAR_ROWS, gate: this.#gate, signal }, (rows) => this.#clear.run(rows).changes === rows);
  }

  /**
   * Empties the WAL file: a passive checkpoint first, off this thread and with writers let through,
   * then TRUNCATE (which holds writers off while it copies what is left) until no reader's snapshot
   * needs a frame.
   */
  async #emptyJournal({ signal, onProgress }: ScrubOptions): Promise<boolean> {
    onProgress?.({ phase: 'journal', done: 0, total: 1 });
    const gate = this.#gate;
    if (gate) await gate.settle();
    for (let tries = 0; tries < TRUNCATE_TRIES; tries += 1) {
      if (signal?.aborted) return false;
      // Without a checkpoint thread (tests): here, giving up at once rather than wait on a reader.
      if (gate ? await gate.truncate() : truncateHere(this.#db)) {
        onProgress?.({ phase: 'journal', done: 1, total: 1 });
        return true;
      }
      await wait(TRUNCATE_WAIT_MS);
    }
    return false;
  }

  #value(key: string): number {
    return (this.#state.get(key) as number | undefined) ?? 0;
  }
}
