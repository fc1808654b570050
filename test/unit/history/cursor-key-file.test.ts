import type * as nodeFs from 'node:fs';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { searchCursorKey } from '../../../core/history/cursor-key.js';

// A review finding: the per-home key file was created empty (`wx`) and written a moment later. A second
// process reading it in that gap found no key, wrote its own, and the two then refused each other's
// cursors. The file now appears under its name with its key in it, or not at all.

/** What the key file held each time the module touched the file system while it was there. */
const watch = vi.hoisted(() => ({ file: undefined as string | undefined, seen: [] as string[], onAppear: undefined as (() => void) | undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof nodeFs>();
  const look = () => {
    if (watch.file === undefined || !fs.existsSync(watch.file)) return;
    watch.seen.push(fs.readFileSync(watch.file, 'utf8'));
    const appeared = watch.onAppear;
    watch.onAppear = undefined;
    appeared?.();
  };
  const after =
    <A extends unknown[], R>(call: (...args: A) => R) =>
    (...args: A): R => {
      const result = call(...args);
      look();
      return result;
    };
  const wrapped = { openSync: after(fs.openSync), writeSync: after(fs.writeSync), closeSync: after(fs.closeSync), linkSync: after(fs.linkSync), unlinkSync: after(fs.unlinkSync), renameSync: after(fs.renameSync), writeFileSync: after(fs.writeFileSync) };
  return { ...fs, ...wrapped, default: { ...fs, ...wrapped } };
});

const KEY = /^[0-9a-f]{64}$/;
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'steward-cursor-key-'));
  watch.file = join(home, 'search-cursor-key');
  watch.seen = [];
});

afterEach(() => {
  watch.file = undefined;
  watch.onAppear = undefined;
  rmSync(home, { recursive: true, force: true });
});

describe('the search cursor key file', () => {
  it('is never under its name without its key, so a second process never reads it empty', () => {
    const key = searchCursorKey(home);
    expect(watch.seen.length).toBeGreaterThan(0);
    for (const held of watch.seen) expect(held).toMatch(KEY);
    expect(readFileSync(watch.file!, 'utf8')).toBe(key.toString('hex'));
  });

  it('two creators, the second arriving as the file appears, end with one key, private, and no leftover', () => {
    let second: Buffer | undefined;
    watch.onAppear = () => {
      second = searchCursorKey(home);
    };
    const first = searchCursorKey(home);
    expect(second?.toString('hex')).toBe(first.toString('hex'));
    expect(searchCursorKey(home).toString('hex')).toBe(first.toString('hex'));
    expect(readdirSync(home)).toEqual(['search-cursor-key']);
    if (process.platform !== 'win32') expect(statSync(watch.file!).mode & 0o777).toBe(0o600);
  });

  it('a damaged file is replaced once, and the replacement then holds', () => {
    writeFileSync(watch.file!, '');
    const key = searchCursorKey(home);
    expect(readFileSync(watch.file!, 'utf8')).toBe(key.toString('hex'));
    expect(searchCursorKey(home).toString('hex')).toBe(key.toString('hex'));
  });
});
