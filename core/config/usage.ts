import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bytes of the regular files under `dir` (symlinks are not followed; unreadable entries count as
 * nothing). Asynchronous one entry at a time, so a large home never holds the event loop.
 */
export async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const here = pending.pop()!;
    let entries;
    try {
      entries = await readdir(here, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(here, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) total += await lstat(path).then((s) => s.size, () => 0);
    }
  }
  return total;
}

/** Bytes of the named files that exist (a database with its WAL and shared-memory files). */
export async function filesSize(paths: readonly string[]): Promise<number> {
  const sizes = await Promise.all(paths.map((path) => lstat(path).then((s) => s.size, () => 0)));
  return sizes.reduce((n, size) => n + size, 0);
}
