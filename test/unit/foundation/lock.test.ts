import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { acquireOwnerLock } from '../../../core/store/index.js';
import { LOCK_FILE } from '../../../core/store/lock.js';
import { tempHome, type TempHome } from '../../support/home.js';

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('store: the single-owner lock', () => {
  let home: TempHome;
  afterEach(() => home.cleanup());

  it('is exclusive within a live owner and released on request', () => {
    home = tempHome();
    const lock = acquireOwnerLock(home.dir);
    expect(readFileSync(join(home.dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    const again = acquireOwnerLock(home.dir);
    again.release();
  });

  it('refuses a second owner with "already running (pid N)"', async () => {
    home = tempHome();
    // A real second process holds the lock, as a running `steward serve` would.
    const holder = spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(join(home.dir, LOCK_FILE))}, String(process.pid)); setInterval(() => {}, 1000)`]);
    try {
      // Wait until the holder has written its pid (under load a process can take a while to start).
      const file = join(home.dir, LOCK_FILE);
      for (let i = 0; i < 200 && (!existsSync(file) || readFileSync(file, 'utf8').trim() !== String(holder.pid)); i += 1) {
        await new Promise((r) => setTimeout(r, 50));
      }
      let error: unknown;
      try {
        acquireOwnerLock(home.dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StewardError);
      expect((error as StewardError).code).toBe('already_running');
      expect((error as StewardError).message).toBe(`Steward is already running (pid ${holder.pid}).`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a stale lock left by a dead pid', () => {
    home = tempHome();
    writeFileSync(join(home.dir, LOCK_FILE), `${deadPid()}\n`);
    const lock = acquireOwnerLock(home.dir);
    expect(readFileSync(join(home.dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('takes over an unreadable (garbage) lock once it is no longer fresh', () => {
    home = tempHome();
    const file = join(home.dir, LOCK_FILE);
    writeFileSync(file, 'not a pid');
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(file, aMinuteAgo, aMinuteAgo);
    acquireOwnerLock(home.dir).release();
  });

  it('leaves alone a lock that was just created and holds no pid yet: its creator is still writing it', () => {
    home = tempHome();
    const file = join(home.dir, LOCK_FILE);
    writeFileSync(file, '');
    expect(() => acquireOwnerLock(home.dir)).toThrow(expect.objectContaining({ code: 'already_running' }));
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});
