import fs from 'node:fs';
import { vi } from 'vitest';

/**
 * A disk other processes keep busy: every fsync takes `ms` (0.2–0.8 s were measured on a shared
 * one). The synchronous kind holds its thread that long; the callback kind answers that much later.
 * Undone by `vi.restoreAllMocks()` or the returned `restore`.
 */
export function slowFsync(ms: number): { restore(): void } {
  const { fsync, fsyncSync } = fs;
  const sync = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
    fsyncSync(fd);
  });
  const callback = vi.spyOn(fs, 'fsync').mockImplementation((fd, done) => void setTimeout(() => fsync(fd, done), ms));
  return {
    restore() {
      callback.mockRestore();
      sync.mockRestore();
    },
  };
}

/**
 * The longest the event loop went without a turn while `work` ran, beating every 5 ms. The stretch
 * after the last beat counts too: a loop held to the end never beat at all.
 */
export async function longestHold<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
  let longestMs = 0;
  let last = performance.now();
  const beat = () => {
    const now = performance.now();
    longestMs = Math.max(longestMs, now - last);
    last = now;
  };
  const timer = setInterval(beat, 5);
  try {
    const result = await work();
    beat();
    return { result, longestMs };
  } finally {
    clearInterval(timer);
  }
}
