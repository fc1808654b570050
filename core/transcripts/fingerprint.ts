import type { TranscriptFile } from './types.js';

interface Fingerprint {
  provider: string;
  ino: bigint;
  size: number;
  mtimeMs: number;
}

/**
 * Process-local map from transcript path to (inode, size, mtime): the first check of a scheduled run,
 * answered from memory. After a restart it is empty and the durable file checkpoints (the gateway's
 * file_checkpoints, written in the commit window of the rows they cover) answer instead.
 */
export class FingerprintMap {
  readonly #byPath = new Map<string, Fingerprint>();

  isUnchanged(file: TranscriptFile): boolean {
    const known = this.#byPath.get(file.path);
    return known !== undefined && known.ino === file.ino && known.size === file.size && known.mtimeMs === file.mtimeMs;
  }

  /**
   * Called only after the file was read and every session it yielded was consumed (and committed).
   * Where a provider's read stopped (an offset, an OpenClaw store's watermarks) is kept durably in
   * the file's checkpoint, not here.
   */
  advance(file: TranscriptFile, provider: string): void {
    this.#byPath.set(file.path, { provider, ino: file.ino, size: file.size, mtimeMs: file.mtimeMs });
  }

  /** Forgets a provider's paths that were not discovered again, so deleted transcripts do not pile up; returns them. */
  retainOnly(provider: string, discovered: readonly TranscriptFile[]): string[] {
    const present = new Set(discovered.map((f) => f.path));
    const gone: string[] = [];
    for (const [path, fingerprint] of this.#byPath) {
      if (fingerprint.provider !== provider || present.has(path)) continue;
      this.#byPath.delete(path);
      gone.push(path);
    }
    return gone;
  }

  get size(): number {
    return this.#byPath.size;
  }

  clear(): void {
    this.#byPath.clear();
  }
}
