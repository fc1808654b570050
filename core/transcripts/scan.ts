import type { BigIntStats, Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CodeTally, errorCode } from '../log/codes/index.js';
import type { DiscoveryResult, TranscriptFile } from './types.js';

export interface WalkRules {
  /** `depth` is the depth of the folder holding the file (0 = the walked root). */
  acceptFile(name: string, depth: number): boolean;
  acceptDir(name: string, depth: number): boolean;
  maxDepth: number;
  source: string;
}

const STAT_BATCH = 64;
/**
 * File-system requests (listings, stats, link resolutions) in flight at once over the whole walk.
 * Unbounded, every sibling folder's batch was queued at once (12,800 stats on 200 project folders),
 * and the owner then took their completions in runs of thousands: a walk of 20,000 files held the
 * event loop 130–170 ms at a time. Counted by request, not by batch: four slots shared by listings and
 * batches had the 50 listings of a tree queued 4 at a time ahead of every stat batch, a walk 20–30%
 * slower than a bare readdir+stat one.
 */
const IN_FLIGHT = 4 * STAT_BATCH;
/** What a missing root, a dangling link, a link loop or an entry gone mid-walk fails with: nothing to enumerate, no failure. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

type OnFailure = (error: unknown) => void;

async function statOrNull(path: string, onFailure: OnFailure): Promise<BigIntStats | null> {
  try {
    return await stat(path, { bigint: true });
  } catch (error) {
    onFailure(error);
    return null;
  }
}

/**
 * The files or folders a walk has seen, by what each is known by: its (dev, ino), else, where the file
 * system reports inode 0 (some Windows file systems do), its path. Every entry would otherwise share one
 * identity, and all but the first would be dropped as seen. Kept by device, then inode: a text key per
 * entry (two BigInt conversions and a string) cost twice the lookups it served.
 */
class Seen {
  readonly #byDevice = new Map<bigint, Set<bigint>>();
  readonly #byPath = new Set<string>();

  /** Records the entry; false when it was already seen. */
  claim(path: string, info: BigIntStats): boolean {
    if (info.ino === 0n) return added(this.#byPath, path);
    let inodes = this.#byDevice.get(info.dev);
    if (!inodes) this.#byDevice.set(info.dev, (inodes = new Set()));
    return added(inodes, info.ino);
  }
}

/** Adds `value`; whether it was not there yet (one lookup, not two). */
function added<T>(set: Set<T>, value: T): boolean {
  const before = set.size;
  return set.add(value).size !== before;
}

/**
 * A file's mtime in milliseconds to the microsecond: whole milliseconds missed a same-size rewrite
 * inside the millisecond of the last read (its checkpoint and fingerprint then matched). Microseconds
 * keep the value under 2^53, so one time always reads as the same double. Checkpoints kept before hold
 * whole milliseconds, and are weighed at that precision (the gateway's mtimeVouches).
 */
export function mtimeOf(info: BigIntStats): number {
  return Number(info.mtimeNs / 1000n) / 1000;
}

/** A file's ctime as mtimeOf takes its mtime: microseconds, so a change inside a millisecond is one. */
export function ctimeOf(info: BigIntStats): number {
  return Number(info.ctimeNs / 1000n) / 1000;
}

/**
 * The entries' paths, a symlink's its real path. Siblings are walked concurrently, so "the first path
 * that reached a file" would differ from run to run; the fingerprint map is keyed by path, and an
 * unchanged file found under a new path would be read again on an unchanged tick. A batch without a
 * link (the usual one) costs no promise per entry.
 */
async function entryPaths(dir: string, entries: readonly Dirent[], onFailure: OnFailure): Promise<ReadonlyArray<string | null>> {
  const paths = entries.map((e) => join(dir, e.name));
  if (!entries.some((e) => e.isSymbolicLink())) return paths;
  return Promise.all(entries.map((e, i) => (e.isSymbolicLink() ? realpathOrNull(paths[i]!, onFailure) : paths[i]!)));
}

async function realpathOrNull(path: string, onFailure: OnFailure): Promise<string | null> {
  try {
    return await realpath(path);
  } catch (error) {
    onFailure(error);
    return null;
  }
}

/**
 * One enumeration of a provider's roots. Directories and files are identified by (dev, ino) after
 * following symlinks, so a root reachable twice, a file linked from two places, or a symlink loop
 * is visited once and the walk always terminates. Where the file system reports inode 0 the identity
 * is the path: a root is then walked under its real path, as links below it are, so two roots that are
 * one folder still meet (and `maxDepth` bounds the walk whatever the identities say).
 */
export class Scan {
  readonly files: TranscriptFile[] = [];
  failed = 0;
  /** Why `failed` grew, by error code. */
  readonly errors = new CodeTally();
  readonly #seenDirs = new Seen();
  readonly #seenFiles = new Seen();
  readonly #signal: AbortSignal | undefined;
  #inFlight = 0;
  readonly #waiting: Array<{ requests: number; start: () => void }> = [];

  /** An aborted `signal` stops the walk at the next folder or stat batch; `files` is then partial. */
  constructor(signal?: AbortSignal) {
    this.#signal = signal;
  }

  get cancelled(): boolean {
    return this.#signal?.aborted === true;
  }

  /** What a provider's discover returns; a cancelled walk says so, so nobody mistakes it for the tree. */
  result(): DiscoveryResult {
    return { files: this.files, failed: this.failed, ...(this.errors.size > 0 ? { errors: this.errors.list() } : {}), ...(this.cancelled ? { cancelled: true } : {}) };
  }

  /** Walks `dir` (a root or a known subfolder) if it exists; a missing root is not a failure. */
  async walk(dir: string, rules: WalkRules): Promise<void> {
    if (this.cancelled) return;
    const info = await statOrNull(dir, this.#onFailure);
    if (!info?.isDirectory()) return;
    await this.#walkDir(info.ino === 0n ? ((await realpathOrNull(dir, this.#onFailure)) ?? dir) : dir, info, rules, 0);
  }

  /** Records one known file (e.g. a sidecar-described transcript) under the same dedupe. */
  addFile(path: string, info: BigIntStats, source: string, sidecar?: string, describesOnly?: true): void {
    if (!this.#seenFiles.claim(path, info)) return;
    // Assigned, not spread: two throwaway objects per file were a tenth of the walk's own time.
    const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: mtimeOf(info), ctimeMs: ctimeOf(info), source };
    if (sidecar) file.sidecar = sidecar;
    if (describesOnly) file.describesOnly = describesOnly;
    this.files.push(file);
  }

  /** Marks a directory as visited; false when it was already seen (a loop or a duplicate root). */
  enterDir(path: string, info: BigIntStats): boolean {
    return this.#seenDirs.claim(path, info);
  }

  async list(dir: string): Promise<Dirent[]> {
    if (this.cancelled) return [];
    try {
      const entries = await this.#bounded(1, () => readdir(dir, { withFileTypes: true }));
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      // A root or known subfolder that does not exist is simply empty; anything else is a failure.
      this.#onFailure(error);
      return [];
    }
  }

  /**
   * Runs `work` (a listing, or a stat batch of at most STAT_BATCH requests) once its `requests` fit
   * under IN_FLIGHT, in the order asked (a batch is not passed over by listings); never nested.
   */
  async #bounded<T>(requests: number, work: () => Promise<T>): Promise<T> {
    if (this.#waiting.length === 0 && this.#inFlight + requests <= IN_FLIGHT) this.#inFlight += requests;
    // Counted in by the work that frees the room (#release).
    else await new Promise<void>((start) => this.#waiting.push({ requests, start }));
    try {
      return await work();
    } finally {
      this.#release(requests);
    }
  }

  #release(requests: number): void {
    this.#inFlight -= requests;
    for (let next = this.#waiting[0]; next && this.#inFlight + next.requests <= IN_FLIGHT; next = this.#waiting[0]) {
      this.#waiting.shift();
      this.#inFlight += next.requests;
      next.start();
    }
  }

  /** Counts a failed listing, stat or link resolution by its code; absence is not a failure. */
  readonly #onFailure: OnFailure = (error) => {
    const code = errorCode(error);
    if (ABSENT.has(code)) return;
    this.failed += 1;
    this.errors.add(code);
  };

  async #walkDir(dir: string, info: BigIntStats, rules: WalkRules, depth: number): Promise<void> {
    if (this.cancelled || !this.enterDir(dir, info)) return;
    const entries = await this.list(dir);
    const canDescend = depth < rules.maxDepth;
    // A symlink's kind is known only after stat follows it, so links are stat'ed either way.
    const wanted = entries.filter(
      (e) => e.isSymbolicLink() || (e.isDirectory() && canDescend && rules.acceptDir(e.name, depth + 1)) || (e.isFile() && rules.acceptFile(e.name, depth)),
    );
    const subdirs: Array<Promise<void>> = [];
    for (let i = 0; i < wanted.length && !this.cancelled; i += STAT_BATCH) {
      const slice = wanted.slice(i, i + STAT_BATCH);
      const [paths, stats] = await this.#bounded(slice.length, async () => {
        const resolved = await entryPaths(dir, slice, this.#onFailure);
        return [resolved, await Promise.all(resolved.map((p) => (p === null ? null : statOrNull(p, this.#onFailure))))] as const;
      });
      for (let j = 0; j < slice.length; j += 1) {
        const entry = slice[j]!;
        const entryStat = stats[j];
        const path = paths[j];
        // A dangling symlink, or an entry that vanished mid-walk, is not a failure.
        if (!entryStat || !path) continue;
        if (entryStat.isDirectory()) {
          // Siblings are walked concurrently; (dev, ino) is claimed synchronously on entry, so a loop
          // or a second path to the same folder is still walked once.
          if (canDescend && rules.acceptDir(entry.name, depth + 1)) subdirs.push(this.#walkDir(path, entryStat, rules, depth + 1));
        } else if (entryStat.isFile() && rules.acceptFile(entry.name, depth)) {
          this.addFile(path, entryStat, rules.source);
        }
      }
    }
    await Promise.all(subdirs);
  }
}
