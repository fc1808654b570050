import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A transcript rewritten in place (same inode, same size, new text) inside the millisecond of its last
 * read: its mtime moves by less than a millisecond, and only a time finer than whole milliseconds tells
 * it changed. A store whose checkpoints kept whole milliseconds (written before) still reads nothing on
 * a restart: a file's time is weighed at the precision its checkpoint kept until the file is next read.
 */

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');

/** A whole second an hour ago (inside any window), taken once: every time a test sets is counted from the same one. */
const SECOND_AGO = Math.floor(Date.now() / 1000) - 3600;

/** A time (in seconds, as utimes takes it) `micros` into that second's 123rd millisecond. */
function inMillisecond(micros: number): number {
  return SECOND_AGO + 0.123 + micros / 1e6;
}

/** A two-line session whose second line `uuid` and text `text` (same lengths each time) can be rewritten in place. */
function session(c: CaptureHarness, uuid: string, text: string): string {
  const file = join(c.claudeRoot, 'projects', '-work-fixture-project', 'sub-ms.jsonl');
  const ts = new Date(Date.now() - 3_600_000);
  writeJsonl(file, [claudeLine({ sessionId: 'sub-ms', text: 'first question', uuid: '00000000-0000-4000-8000-000000000001', ts }), claudeLine({ sessionId: 'sub-ms', type: 'assistant', text, uuid, ts })]);
  return file;
}

const FIRST = '00000000-0000-4000-8000-00000000000a';
const SECOND = '00000000-0000-4000-8000-00000000000b';

/** Writes the file anew (same inode, same size) and sets its mtime 0.4 ms after `before`, in the same millisecond. */
function rewriteWithin(c: CaptureHarness, file: string): void {
  const before = statSync(file, { bigint: true });
  session(c, SECOND, 'answer two');
  utimesSync(file, inMillisecond(500), inMillisecond(500));
  const after = statSync(file, { bigint: true });
  expect(after.ino).toBe(before.ino);
  expect(after.size).toBe(before.size);
  expect(after.mtimeNs).not.toBe(before.mtimeNs);
  expect(after.mtimeMs).toBe(before.mtimeMs);
}

describe('a rewrite inside one millisecond', () => {
  it('is read by the next tick', async () => {
    h = captureHarness();
    const file = session(h, FIRST, 'answer one');
    utimesSync(file, inMillisecond(100), inMillisecond(100));
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 2 });
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
    rewriteWithin(h, file);
    const stats = await claude(h);
    expect(stats).toMatchObject({ read: 1, unchanged: 0 });
    expect(stats.bytesRead).toBeGreaterThan(0);
    expect(h.count('SELECT COUNT(*) FROM parts WHERE part_id LIKE ?', `%${SECOND}%`)).toBeGreaterThan(0);
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
  });

  it('is read by the first tick after a restart', async () => {
    h = captureHarness();
    const file = session(h, FIRST, 'answer one');
    utimesSync(file, inMillisecond(100), inMillisecond(100));
    expect(await claude(h)).toMatchObject({ read: 1, partsWritten: 2 });
    await h.restart();
    rewriteWithin(h, file);
    const stats = await claude(h);
    expect(stats).toMatchObject({ read: 1, unchanged: 0 });
    expect(h.count('SELECT COUNT(*) FROM parts WHERE part_id LIKE ?', `%${SECOND}%`)).toBeGreaterThan(0);
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
  });
});

describe('checkpoints that kept whole milliseconds', () => {
  it('a restart over them reads no transcript byte; a file written since keeps its finer time', async () => {
    h = captureHarness();
    const files = ['a', 'b', 'c'].map((id, i) => claudeSession(h!.claudeRoot, `ms-${id}`, 4 + i));
    files.forEach((f, i) => utimesSync(f, inMillisecond(100 + i * 200), inMillisecond(100 + i * 200)));
    expect(await claude(h)).toMatchObject({ read: 3 });
    // As a version that kept whole milliseconds wrote them.
    h.db.prepare('UPDATE file_checkpoints SET mtime_ms = CAST(mtime_ms AS INTEGER)').run();
    expect(h.count("SELECT COUNT(*) FROM file_checkpoints WHERE typeof(mtime_ms) = 'integer'")).toBe(3);
    await h.restart();
    expect(await claude(h)).toMatchObject({ discovered: 3, read: 0, unchanged: 3, partsWritten: 0, bytesRead: 0 });
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 3, bytesRead: 0 });
    // Written again (a later millisecond): read, and its checkpoint now keeps the finer time.
    utimesSync(files[0]!, inMillisecond(2_300), inMillisecond(2_300));
    expect(await claude(h)).toMatchObject({ read: 1, unchanged: 2 });
    const stored = h.db.prepare('SELECT mtime_ms FROM file_checkpoints WHERE path = ?').pluck().get(files[0]) as number;
    expect(stored).toBe(Number(statSync(files[0]!, { bigint: true }).mtimeNs / 1000n) / 1000);
    expect(Number.isInteger(stored)).toBe(false);
    await h.restart();
    expect(await claude(h)).toMatchObject({ read: 0, unchanged: 3, bytesRead: 0 });
  });
});
