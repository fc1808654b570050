import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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

/**
 * The single-owner lock: created with O_EXCL so two processes racing for it cannot both win. A lock
 * left by a dead pid (a crash, kill -9) is taken over rather than blocking the user forever.
 */
export function acquireOwnerLock(home: string): OwnerLock {
  mkdirSync(home, { recursive: true });
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
      const owner = readOwner(file);
      if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
        throw new StewardError('already_running', `Steward is already running (pid ${owner}).`, { pid: owner });
      }
      // Stale (dead pid or unreadable): remove and retry the exclusive create.
      rmSync(file, { force: true });
    }
  }
  throw new StewardError('already_running', 'Steward is already running (the owner lock could not be taken).');
}

export function lockOwnerPid(home: string): number | undefined {
  const pid = readOwner(join(home, LOCK_FILE));
  return pid !== undefined && isAlive(pid) ? pid : undefined;
}
