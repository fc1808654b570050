import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { Core } from '../../../core/core.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { acquireOwnerLock, lockOwnerPid } from '../../../core/store/index.js';
import { LOCK_FILE } from '../../../core/store/lock/index.js';
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
    expect(readFileSync(join(home.dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
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
    const dead = deadPid();
    writeFileSync(join(home.dir, LOCK_FILE), `${dead}\n`);
    const lock = acquireOwnerLock(home.dir);
    expect(lock.takenOver).toEqual({ pid: dead, reason: 'dead' });
    expect(readFileSync(join(home.dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
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

/** A live process that is not Steward, as one that reused a crashed owner's pid would be. */
function stranger(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("up"); setInterval(() => {}, 1000)'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve) => child.stdout!.once('data', () => resolve(child)));
}

/** Field 22 of /proc/<pid>/stat, read here independently of the code under test. */
function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

describe.skipIf(!existsSync('/proc/self/stat'))('store: a lock naming a live pid that is not its owner', () => {
  let home: TempHome;
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    home.cleanup();
  });

  const lockFor = (pid: number, identity: { startTime: string; bootId: string }) => writeFileSync(join(home.dir, LOCK_FILE), `${pid}\n${JSON.stringify(identity)}\n`);

  it('records the start time and boot of the process that takes it', () => {
    home = tempHome();
    const lock = acquireOwnerLock(home.dir);
    const [pid, identity] = readFileSync(join(home.dir, LOCK_FILE), 'utf8').split('\n');
    expect(pid).toBe(String(process.pid));
    expect(JSON.parse(identity!)).toEqual({ startTime: startTimeOf(process.pid), bootId: bootId() });
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (reused after a crash), and says so in the log', async () => {
    home = tempHome();
    child = await stranger();
    lockFor(child.pid!, { startTime: String(Number(startTimeOf(child.pid!)) - 1), bootId: bootId() });
    expect(lockOwnerPid(home.dir)).toBeUndefined();
    const logger = createMemoryLogger();
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env, logger });
    try {
      expect(readFileSync(join(home.dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
      expect(logger.lines).toContainEqual(`warn owner lock taken over pid=${child.pid} reason="pid_reused"`);
    } finally {
      await core.shutdown();
    }
  });

  it('takes over a lock left by a previous boot', async () => {
    home = tempHome();
    child = await stranger();
    lockFor(child.pid!, { startTime: startTimeOf(child.pid!), bootId: '00000000-0000-4000-8000-000000000000' });
    const lock = acquireOwnerLock(home.dir);
    expect(lock.takenOver).toEqual({ pid: child.pid, reason: 'previous_boot' });
    lock.release();
  });

  it('honours a lock whose recorded start time matches the live process', async () => {
    home = tempHome();
    child = await stranger();
    lockFor(child.pid!, { startTime: startTimeOf(child.pid!), bootId: bootId() });
    expect(() => acquireOwnerLock(home.dir)).toThrow(expect.objectContaining({ code: 'already_running', message: `Steward is already running (pid ${child.pid}).` }));
    expect(lockOwnerPid(home.dir)).toBe(child.pid);
  });
});
