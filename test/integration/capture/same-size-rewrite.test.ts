import { chmodSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { appendJsonl, claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A transcript rewritten in place to the same size, its mtime then set back (utimes): dev, inode, size
 * and mtime are all as they were, and only the ctime (which no one can set back) tells it changed. The
 * stored hashes then say whether the bytes did: a rewrite is read again, a chmod (or a new link, an
 * xattr) costs only the bytes the hashes cover, once.
 */

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');

/** A whole second an hour ago (inside any window), as utimes takes it: set and set back to exactly this. */
const MTIME = Math.floor(Date.now() / 1000) - 3600 + 0.25;

const FIRST = '00000000-0000-4000-8000-00000000000a';
const SECOND = '00000000-0000-4000-8000-00000000000b';

/** A two-line session whose second line's `uuid` and `text` (same lengths each time) can be rewritten in place. */
function session(c: CaptureHarness, uuid: string, text: string): string {
  const file = join(c.claudeRoot, 'projects', '-work-fixture-project', 'same-size.jsonl');
  const ts = new Date(Date.now() - 3_600_000);
  writeJsonl(file, [claudeLine({ sessionId: 'same-size', text: 'first question', uuid: '00000000-0000-4000-8000-000000000001', ts }), claudeLine({ sessionId: 'same-size', type: 'assistant', text, uuid, ts })]);
  utimesSync(file, MTIME, MTIME);
  return file;
}

/** Runs `change` once the clock has moved past the file's ctime (Linux keeps it to a coarse tick), and checks that it moved. */
async function laterChange(file: string, change: () => void): Promise<void> {
  const before = statSync(file, { bigint: true });
  await sleep(25);
  change();
  const after = statSync(file, { bigint: true });
  expect(after.ctimeNs).not.toBe(before.ctimeNs);
  expect([after.dev, after.ino, after.size, after.mtimeNs]).toEqual([before.dev, before.ino, before.size, before.mtimeNs]);
}

const rewrite = (c: CaptureHarness, file: string) => laterChange(file, () => session(c, SECOND, 'answer two'));
const storedSecond = (c: CaptureHarness) => c.count('SELECT COUNT(*) FROM parts WHERE part_id LIKE ?', `%${SECOND}%`);

describe('a rewrite to the same size with its mtime set back', () => {
  it('is read by the next tick', async () => {
    h = captureHarness();
    const file = session(h, FIRST, 'answer one');
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 2 });
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
    await rewrite(h, file);
    const stats = await claude(h);
    expect(stats).toMatchObject({ read: 1, unchanged: 0 });
    expect(storedSecond(h)).toBeGreaterThan(0);
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
  });

  it('is read by the first tick of a new owner, rewritten before or after the restart', async () => {
    h = captureHarness();
    const file = session(h, FIRST, 'answer one');
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 2 });
    await rewrite(h, file);
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 1, unchanged: 0 });
    expect(storedSecond(h)).toBeGreaterThan(0);
    // The new ctime was stored with the read: the next owner reads nothing.
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
    // Rewritten back while this owner runs, seen by the next one.
    await laterChange(file, () => session(h!, FIRST, 'answer one'));
    await h.restart();
    const stats = await claude(h);
    expect(stats).toMatchObject({ read: 1, unchanged: 0 });
    expect(stats.bytesRead).toBeGreaterThan(0);
  });
});

describe('a change of the ctime alone (chmod)', () => {
  it('costs one read of the hashed bytes, no part, and nothing after', async () => {
    h = captureHarness();
    const file = claudeSession(h.claudeRoot, 'chmod', 200);
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(8 * 4096);
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 200 });
    await laterChange(file, () => chmodSync(file, 0o600));
    const verified = await claude(h);
    expect(verified).toMatchObject({ read: 0, unchanged: 1, partsWritten: 0 });
    // The head and the bytes before the offset (4 KiB each), and the new checkpoint's hash before the offset.
    expect(verified.bytesRead).toBeGreaterThan(0);
    expect(verified.bytesRead).toBeLessThanOrEqual(3 * 4096);
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
    // Recorded durably: a new owner reads nothing either.
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
  });

  it('after a restart costs the same, once', async () => {
    h = captureHarness();
    const file = claudeSession(h.claudeRoot, 'chmod-restart', 200);
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 200 });
    await h.restart();
    await laterChange(file, () => chmodSync(file, 0o600));
    const verified = await claude(h);
    expect(verified).toMatchObject({ read: 0, unchanged: 1, partsWritten: 0 });
    expect(verified.bytesRead).toBeLessThanOrEqual(3 * 4096);
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
  });

  it('is not weighed against a checkpoint written before ctimes were kept, which stores it at its next write', async () => {
    h = captureHarness();
    const file = claudeSession(h.claudeRoot, 'old-checkpoint', 20);
    expect(await claude(h)).toMatchObject({ read: 1 });
    expect(h.count('SELECT COUNT(*) FROM file_checkpoints WHERE ctime_ms IS NOT NULL')).toBe(1);
    // As a version that kept no ctime left it.
    h.db.prepare('UPDATE file_checkpoints SET ctime_ms = NULL').run();
    await h.restart();
    await laterChange(file, () => chmodSync(file, 0o600));
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
    // Appended to: read on, and its checkpoint keeps the ctime from now on.
    appendJsonl(file, [claudeLine({ sessionId: 'old-checkpoint', text: 'one more' })]);
    expect(await claude(h)).toMatchObject({ read: 1 });
    const stored = h.db.prepare('SELECT ctime_ms FROM file_checkpoints WHERE path = ?').pluck().get(file) as number;
    expect(stored).toBe(Number(statSync(file, { bigint: true }).ctimeNs / 1000n) / 1000);
  });
});
