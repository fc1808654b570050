import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { acquireOwnerLock } from '../../../core/store/index.js';
import { LOCK_FILE, lockHolder } from '../../../core/store/lock/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/** The role line of the lock (`<pid>\n<identity>\n<role>\n`), as `steward info` reads it. */
const roleLine = (dir: string) => readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n')[2];

describe('store: the lock says who holds it from the moment it is taken', () => {
  let home: TempHome | undefined;
  let core: Core | undefined;
  afterEach(async () => {
    await core?.shutdown();
    core = undefined;
    home?.cleanup();
    home = undefined;
  });

  it("an owner's lock reads 'owner' right after it is taken; a one-shot command's reads 'command'", () => {
    home = tempHome();
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
    home = tempHome();
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env, logger: createMemoryLogger(), lockRole: 'owner' });
    expect(roleLine(home.dir)).toBe('owner');
  });

  it('Core.open for a one-shot command (the in-process CLI) still says command', () => {
    home = tempHome();
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env, logger: createMemoryLogger() });
    expect(roleLine(home.dir)).toBe('command');
  });
});
