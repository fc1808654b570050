import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../core/log/index.js';
import { acquireOwnerLock } from '../../../core/store/index.js';
import { LOCK_FILE, lockHolder } from '../../../core/store/lock/index.js';
import { coreHome } from '../../support/core.js';

/** The role line of the lock (`<pid>\n<identity>\n<role>\n`), as `steward info` reads it. */
const roleLine = (dir: string) => readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n')[2];

describe('store: the lock says who holds it from the moment it is taken', () => {
  const store = coreHome('steward-lock-role-');

  it("an owner's lock reads 'owner' right after it is taken; a one-shot command's reads 'command'", () => {
    const { home } = store;
    const owner = acquireOwnerLock(home.dir, 'owner');
    expect(roleLine(home.dir)).toBe('owner');
    expect(lockHolder(home.dir)).toEqual({ pid: process.pid, role: 'owner' });
    owner.release();

    const command = acquireOwnerLock(home.dir);
    expect(roleLine(home.dir)).toBe('command');
    expect(lockHolder(home.dir)).toEqual({ pid: process.pid, role: 'command' });
    command.release();
  });

  it("Core.open as an owner (startOwner's) leaves no moment in which the lock names a command", () => {
    store.open({ logger: createMemoryLogger(), lockRole: 'owner' });
    expect(roleLine(store.home.dir)).toBe('owner');
  });

  it('Core.open for a one-shot command (the in-process CLI) still says command', () => {
    store.open({ logger: createMemoryLogger() });
    expect(roleLine(store.home.dir)).toBe('command');
  });
});
