import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StewardError } from '../api/index.js';

export const LOCK_FILE = 'steward.lock';

export interface OwnerLock {
  readonly pid: number;
  release(): void;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else: still a live owner.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isFinite(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A lock younger than this without a pid is being written by its creator (open, then write), not abandoned. */
const FRESH_LOCK_MS = 5_000;

function isFresh(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < FRESH_LOCK_MS;
  } catch {
    return false;
  }
}

/** Who holds `file`: a live process (its pid), a creator still writing it, or nobody (stale). */
function holderOf(file: string): { pid: number } | 'writing' | 'stale' {
  const pid = readOwner(file);
  if (pid !== undefined && pid !== process.pid && isAlive(pid)) return { pid };
  if (pid === undefined && isFresh(file)) return 'writing';
  return 'stale';
}

/**
 * Removes a stale lock by moving it aside first: if two processes found the same stale lock, the
 * slower one may move the faster one's fresh lock instead, and then puts it back rather than deleting it.
 */
function clearStale(file: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  if (holderOf(aside) !== 'stale') {
    try {
      linkSync(aside, file);
    } catch {
      // Someone created a new lock meanwhile; it is the owner now.
    }
  }
  rmSync(aside, { force: true });
}

/**
 * The single-owner lock: created with O_EXCL so two processes racing for it cannot both win. A lock
 * left by a dead pid (a crash, kill -9) is taken over rather than blocking the user forever.
 */
export function acquireOwnerLock(home: string): OwnerLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = join(home, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        pid: process.pid,
        release() {
          if (released) return;
          released = true;
          if (readOwner(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(file);
      if (typeof holder === 'object') throw new StewardError('already_running', `Steward is already running (pid ${holder.pid}).`, { pid: holder.pid });
      if (holder === 'writing') throw new StewardError('already_running', 'Steward is already running (another process is taking the owner lock).');
      // Stale (dead pid, or unreadable and old): remove and retry the exclusive create.
      clearStale(file);
    }
  }
  throw new StewardError('already_running', 'Steward is already running (the owner lock could not be taken).');
}

export function lockOwnerPid(home: string): number | undefined {
  const pid = readOwner(join(home, LOCK_FILE));
  return pid !== undefined && isAlive(pid) ? pid : undefined;
}
