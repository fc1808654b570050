import { stat as statThen, type BigIntStats, type Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
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

const BIGINT = { bigint: true } as const;

/**
 * A batch's stats (null where there is no path or the stat failed), with one promise for the batch.
 * Through fs/promises every stat made an async function's promise, the request's own promise and
 * stats buffer: about 1.3 KB of the 4.7 KB a walk allocated per file, the young-generation garbage
 * whose collections landed in the event loop's longest hold of a restart tick.
 */
function statBatch(paths: ReadonlyArray<string | null>, onFailure: OnFailure): Promise<Array<BigIntStats | null>> {
  return new Promise((resolve) => {
    const stats = new Array<BigIntStats | null>(paths.length).fill(null);
    let left = paths.length + 1;
    const settled = () => {
      left -= 1;
      if (left === 0) resolve(stats);
    };
    for (let i = 0; i < paths.length; i += 1) {
      const path = paths[i];
      if (path === null || path === undefined) {
        settled();
        continue;
      }
      try {
        statThen(path, BIGINT, (error, info) => {
          if (error) onFailure(error);
          else stats[i] = info;
          settled();
        });
      } catch (error) {
        // A path fs refuses outright (a NUL byte) fails as the promise's stat did: counted, no entry.
        onFailure(error);
        settled();
      }
    }
    settled();
  });
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
 * What an entry's name is joined to for its path: `dir` and a separator where `dir` is an absolute path
 * already in normal form, so its entries' paths are what join makes of them (a name from a listing
 * holds no separator and is never `.` or `..`) without join's normalizing pass over every path, 0.9 KB
 * of garbage per file. Undefined otherwise (join then makes each path).
 */
function prefixOf(dir: string): string | undefined {
  if (!isAbsolute(dir) || normalize(dir) !== dir) return undefined;
  return dir.endsWith(sep) ? dir : dir + sep;
}

/**
 * A folder's entries the walk stats, by name (in name order), and the names of those that are links.
 * Names, not the listing's Dirents: a tree's folders are walked concurrently, and the Dirents of all
 * of them (20,000, a megabyte) outlived young-generation collections for the whole walk.
 */
interface Wanted {
  names: string[];
  links: Set<string> | undefined;
}

/**
 * The entries' paths, a symlink's its real path. Siblings are walked concurrently, so "the first path
 * that reached a file" would differ from run to run; the fingerprint map is keyed by path, and an
 * unchanged file found under a new path would be read again on an unchanged tick. A batch without a
 * link (the usual one) costs no promise per entry.
 */
async function entryPaths(dir: string, prefix: string | undefined, names: readonly string[], links: ReadonlySet<string> | undefined, onFailure: OnFailure): Promise<ReadonlyArray<string | null>> {
  const paths = names.map(prefix === undefined ? (name) => join(dir, name) : (name) => prefix + name);
  if (!links || !names.some((name) => links.has(name))) return paths;
  return Promise.all(names.map((name, i) => (links.has(name) ? realpathOrNull(paths[i]!, onFailure) : paths[i]!)));
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
  /** The device of the last file added: its files share one value, not a bigint each (24 bytes kept per file). */
  #device: bigint | undefined;
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
    const dev = info.dev === this.#device ? this.#device : (this.#device = info.dev);
    const file: TranscriptFile = { path, dev, ino: info.ino, size: Number(info.size), mtimeMs: mtimeOf(info), ctimeMs: ctimeOf(info), source };
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

  /** What of `dir` the walk stats: a symlink's kind is known only after stat follows it, so links are stat'ed either way. */
  async #wanted(dir: string, rules: WalkRules, depth: number, canDescend: boolean): Promise<Wanted> {
    const wanted: Wanted = { names: [], links: undefined };
    for (const e of await this.list(dir)) {
      if (e.isSymbolicLink()) (wanted.links ??= new Set()).add(e.name);
      else if (!((e.isDirectory() && canDescend && rules.acceptDir(e.name, depth + 1)) || (e.isFile() && rules.acceptFile(e.name, depth)))) continue;
      wanted.names.push(e.name);
    }
    return wanted;
  }

  async #walkDir(dir: string, info: BigIntStats, rules: WalkRules, depth: number): Promise<void> {
    if (this.cancelled || !this.enterDir(dir, info)) return;
    const canDescend = depth < rules.maxDepth;
    const { names, links } = await this.#wanted(dir, rules, depth, canDescend);
    const subdirs: Array<Promise<void>> = [];
    const prefix = prefixOf(dir);
    for (let i = 0; i < names.length && !this.cancelled; i += STAT_BATCH) {
      const slice = names.slice(i, i + STAT_BATCH);
      const [paths, stats] = await this.#bounded(slice.length, async () => {
        const resolved = await entryPaths(dir, prefix, slice, links, this.#onFailure);
        return [resolved, await statBatch(resolved, this.#onFailure)] as const;
      });
      for (let j = 0; j < slice.length; j += 1) {
        const name = slice[j]!;
        const entryStat = stats[j];
        const path = paths[j];
        // A dangling symlink, or an entry that vanished mid-walk, is not a failure.
        if (!entryStat || !path) continue;
        if (entryStat.isDirectory()) {
          // Siblings are walked concurrently; (dev, ino) is claimed synchronously on entry, so a loop
          // or a second path to the same folder is still walked once.
          if (canDescend && rules.acceptDir(name, depth + 1)) subdirs.push(this.#walkDir(path, entryStat, rules, depth + 1));
        } else if (entryStat.isFile() && rules.acceptFile(name, depth)) {
          this.addFile(path, entryStat, rules.source);
        }
      }
    }
    await Promise.all(subdirs);
  }
}
