import { execFileSync } from 'node:child_process';
import { existsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSmallFile } from '../../../core/transcripts/small-file.js';
import { tempHome, type TempHome } from '../../support/home.js';

/** The one reader of a document read whole beside the transcripts (sidecars, indexes, cold archives). */

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

const POSIX = process.platform !== 'win32';

describe('readSmallFile', () => {
  it('reads a regular file whole, with its handle’s size and time, up to and at the cap', async () => {
    const path = join(home.dir, 'a.json');
    writeFileSync(path, '{"a":1}');
    const read = await readSmallFile(path, 7);
    expect(read).toMatchObject({ size: 7, mtimeMs: statSync(path).mtimeMs });
    expect('bytes' in read && read.bytes.toString()).toBe('{"a":1}');
    expect(await readSmallFile(path, 6)).toEqual({ refused: 'too_large' });
  });

  it('reads a file longer than its first read buffer', async () => {
    const path = join(home.dir, 'big.jsonl');
    writeFileSync(path, 'x'.repeat(300_000));
    const read = await readSmallFile(path, 1 << 20);
    expect('bytes' in read && read.bytes.length).toBe(300_000);
  });

  it('throws for a file that is not there, as a read did', async () => {
    await expect(readSmallFile(join(home.dir, 'gone.json'), 100)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(!POSIX)('refuses a FIFO without waiting for a writer', async () => {
    const fifo = join(home.dir, 'agent-a1.meta.json');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect(await readSmallFile(fifo, 1024)).toEqual({ refused: 'not_a_file' });
    expect(Date.now() - started).toBeLessThan(2_000);
  }, 5_000);

  it.skipIf(!existsSync('/dev/zero'))('refuses a link to /dev/zero unread', async () => {
    const link = join(home.dir, 'local_x.json');
    symlinkSync('/dev/zero', link);
    expect(await readSmallFile(link, 1024)).toEqual({ refused: 'not_a_file' });
  }, 5_000);

  it.skipIf(!existsSync('/proc/self/status'))('reads no more than the cap of a regular file that says it is empty (/proc)', async () => {
    // /proc/self/status says 0 bytes and holds about a kilobyte: the read stops at the cap and says too large.
    expect(statSync('/proc/self/status').size).toBe(0);
    expect(await readSmallFile('/proc/self/status', 16)).toEqual({ refused: 'too_large' });
    const whole = await readSmallFile('/proc/self/status', 1 << 20);
    expect('bytes' in whole && whole.bytes.toString()).toMatch(/^Name:/);
  });
});
