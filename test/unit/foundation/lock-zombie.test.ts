import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../../core/store/lock/index.js';

// `steward stop` waits for the owner's process to end (isAlive): an owner that has exited but whose
// parent has not collected it yet (a zombie; the parent's event loop busy) has ended, and a lock it
// left is stale. Signal 0 still reaches such a process, so only /proc tells (Linux).
describe.runIf(process.platform === 'linux')('isAlive of a process that exited and was not yet collected', () => {
  it('is false while its parent has not reaped it, true while it runs', async () => {
    const child = spawn('sleep', ['0.2'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    const pid = child.pid!;
    expect(isAlive(pid)).toBe(true);
    // Block this event loop past the child's exit, so nothing reaps it before the check.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
    expect(isAlive(pid)).toBe(false);
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  });
});
