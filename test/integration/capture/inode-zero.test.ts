import type { BigIntStats, StatOptions } from 'node:fs';
import { mkdirSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Scan } from '../../../core/transcripts/scan.js';
import { appendJsonl, claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * Some Windows file systems report inode 0 for every file and folder (reference §5.3). Every bigint
 * stat in this file does: the scan, discovery and checkpoints see what they would see there.
 */
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const stat = async (path: string, options?: StatOptions) => {
    const info = await real.stat(path, options);
    if (options?.bigint !== true) return info;
    return Object.assign(Object.create(Object.getPrototypeOf(info) as object) as BigIntStats, info, { ino: 0n });
  };
  return { ...real, stat, default: { ...real, stat } };
});
// The walk's stats, taken in batches through the callback API.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  const stat = (path: string, options: StatOptions, callback: (error: Error | null, info?: Fs.Stats | BigIntStats) => void) =>
    real.stat(path, options, (error, info) => {
      if (error || options?.bigint !== true) return callback(error, info);
      callback(null, Object.assign(Object.create(Object.getPrototypeOf(info) as object) as BigIntStats, info, { ino: 0n }));
    });
  return { ...real, stat, default: { ...real, stat } };
});

let h: CaptureHarness | undefined;
let home: TempHome | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  home?.cleanup();
  home = undefined;
});

const RULES = { acceptFile: (name: string) => name.endsWith('.jsonl'), acceptDir: () => true, maxDepth: 5, source: 'code' };
const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');

describe('a file system that reports inode 0', () => {
  it('the scan finds every file once: a link loop and a second root that is the same folder add nothing', async () => {
    home = tempHome('steward-ino0-');
    const root = join(home.dir, 'root');
    for (const [dir, name] of [['p1', 'a'], ['p1', 'b'], ['p2', 'c']] as const) writeJsonl(join(root, dir, `${name}.jsonl`), [{ n: name }]);
    symlinkSync(root, join(root, 'p1', 'loop'), 'dir');
    const twin = join(home.dir, 'twin');
    symlinkSync(root, twin, 'dir');
    const scan = new Scan();
    await scan.walk(root, RULES);
    await scan.walk(twin, RULES);
    expect(scan.files.every((f) => f.ino === 0n)).toBe(true);
    expect(scan.files.map((f) => relative(realpathSync(root), f.path)).sort()).toEqual([join('p1', 'a.jsonl'), join('p1', 'b.jsonl'), join('p2', 'c.jsonl')]);
    expect(scan.failed).toBe(0);
  });

  it('every transcript is read once, an unchanged tick and a restart read nothing, and an append resumes from its checkpoint', async () => {
    const c = (h = captureHarness());
    // s-a is large enough that reading it again from 0 would show in the bytes read.
    const files = [claudeSession(c.claudeRoot, 's-a', 200), claudeSession(c.claudeRoot, 's-b', 3), claudeSession(c.claudeRoot, 's-c', 4)];
    mkdirSync(join(c.claudeRoot, 'projects', 'other'), { recursive: true });
    writeJsonl(join(c.claudeRoot, 'projects', 'other', 's-d.jsonl'), [claudeLine({ sessionId: 's-d', text: 'elsewhere' })]);
    expect(await claude(c)).toMatchObject({ discovered: 4, read: 4, partsWritten: 200 + 3 + 4 + 1 });
    expect(c.db.prepare('SELECT DISTINCT ino FROM file_checkpoints').pluck().all()).toEqual(['0']);

    expect(await claude(c)).toMatchObject({ discovered: 4, read: 0, unchanged: 4, bytesRead: 0 });
    await c.restart();
    expect(await claude(c)).toMatchObject({ discovered: 4, read: 0, unchanged: 4, bytesRead: 0 });

    const before = statSync(files[0]!).size;
    appendJsonl(files[0]!, [claudeLine({ sessionId: 's-a', text: 'one more' })]);
    const appended = await claude(c);
    expect(appended).toMatchObject({ read: 1, unchanged: 3, partsWritten: 1 });
    // Resumed at its offset: the new line and the hashes that vouch for the bytes before it, not the whole file again.
    expect(appended.bytesRead).toBeLessThan(before / 2);
    expect(c.count("SELECT COUNT(*) FROM parts WHERE session_id = 's-a'")).toBe(201);
  });
});
