import type { TranscriptFile } from './types.js';

interface Fingerprint {
  provider: string;
  ino: bigint;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  /** The last walk (see retainOnly) that found this path. */
  foundBy: number;
}

/**
 * Process-local map from transcript path to (inode, size, mtime, ctime): the first check of a scheduled run,
 * answered from memory. After a restart it is empty and the durable file checkpoints (the gateway's
 * file_checkpoints, written in the commit window of the rows they cover) answer instead.
 */
export class FingerprintMap {
  readonly #byPath = new Map<string, Fingerprint>();
  /** How many paths each provider has here: a walk that found all of them has nothing to forget. */
  readonly #perProvider = new Map<string, number>();
  #walks = 0;

  isUnchanged(file: TranscriptFile): boolean {
    const known = this.#byPath.get(file.path);
    // The ctime too: a file rewritten to the same size with its mtime set back differs only there.
    return known !== undefined && known.ino === file.ino && known.size === file.size && known.mtimeMs === file.mtimeMs && known.ctimeMs === file.ctimeMs;
  }

  /**
   * Called only after the file was read and every session it yielded was consumed (and committed).
   * Where a provider's read stopped (an offset, an OpenClaw store's watermarks) is kept durably in
   * the file's checkpoint, not here.
   */
  advance(file: TranscriptFile, provider: string): void {
    const before = this.#byPath.get(file.path);
    if (before?.provider === provider) {
      // Updated in place: an unchanged tick of 20,000 files replaced 20,000 long-lived objects, garbage the old generation collects.
      before.ino = file.ino;
      before.size = file.size;
      before.mtimeMs = file.mtimeMs;
      before.ctimeMs = file.ctimeMs;
      return;
    }
    if (before) this.#count(before.provider, -1);
    this.#count(provider, 1);
    this.#byPath.set(file.path, { provider, ino: file.ino, size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, foundBy: before?.foundBy ?? 0 });
  }

  /** Forgets a provider's paths that were not discovered again, so deleted transcripts do not pile up; returns them. */
  retainOnly(provider: string, discovered: readonly TranscriptFile[]): string[] {
    // Marks what this walk found; on the usual tick that is every known path, and nothing is swept.
    const walk = ++this.#walks;
    // Nothing known of this provider (the first tick after a start): nothing to mark, nothing to forget.
    if ((this.#perProvider.get(provider) ?? 0) === 0) return [];
    let found = 0;
    for (const file of discovered) {
      const known = this.#byPath.get(file.path);
      if (known?.provider !== provider || known.foundBy === walk) continue;
      known.foundBy = walk;
      found += 1;
    }
    if (found === (this.#perProvider.get(provider) ?? 0)) return [];
    const gone: string[] = [];
    for (const [path, fingerprint] of this.#byPath) {
      if (fingerprint.provider !== provider || fingerprint.foundBy === walk) continue;
      this.#byPath.delete(path);
      this.#count(provider, -1);
      gone.push(path);
    }
    return gone;
  }

  get size(): number {
    return this.#byPath.size;
  }

  clear(): void {
    this.#byPath.clear();
    this.#perProvider.clear();
  }

  #count(provider: string, by: number): void {
    this.#perProvider.set(provider, (this.#perProvider.get(provider) ?? 0) + by);
  }
}
