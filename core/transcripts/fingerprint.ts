import type { TranscriptFile } from './types.js';

interface Fingerprint {
  provider: string;
  ino: bigint;
  size: number;
  mtimeMs: number;
  /** Where the file's last committed read stopped (see TranscriptFile.resume). */
  resume: string | undefined;
}

/**
 * Process-local map from transcript path to (inode, size, mtime). Deliberately not durable: a
 * restart performs one cold scan, so no checkpoint has to agree with the spool's crash ordering.
 * A provider that reads a changed file from where it stopped (an OpenClaw store's watermarks)
 * keeps that position here too, so a restart reads such a file whole once as well.
 */
export class FingerprintMap {
  readonly #byPath = new Map<string, Fingerprint>();

  isUnchanged(file: TranscriptFile): boolean {
    const known = this.#byPath.get(file.path);
    return known !== undefined && known.ino === file.ino && known.size === file.size && known.mtimeMs === file.mtimeMs;
  }

  /** Called only after the file was read and every session it yielded was consumed (and committed). */
  advance(file: TranscriptFile, provider: string, resume?: string): void {
    // An unchanged file that was skipped keeps the position of the read that last committed it.
    const kept = resume ?? (this.isUnchanged(file) ? this.#byPath.get(file.path)?.resume : undefined);
    this.#byPath.set(file.path, { provider, ino: file.ino, size: file.size, mtimeMs: file.mtimeMs, resume: kept });
  }

  /** The file with where its last committed read stopped, when the same file (inode) was read before. */
  resumable(file: TranscriptFile): TranscriptFile {
    const known = this.#byPath.get(file.path);
    return known?.resume !== undefined && known.ino === file.ino ? { ...file, resume: known.resume } : file;
  }

  /** Forgets a provider's paths that were not discovered again, so deleted transcripts do not pile up. */
  retainOnly(provider: string, discovered: readonly TranscriptFile[]): void {
    const present = new Set(discovered.map((f) => f.path));
    for (const [path, fingerprint] of this.#byPath) if (fingerprint.provider === provider && !present.has(path)) this.#byPath.delete(path);
  }

  get size(): number {
    return this.#byPath.size;
  }

  clear(): void {
    this.#byPath.clear();
  }
}
