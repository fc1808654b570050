import { EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { whileInterruptible, writeInPieces } from '../../../core/cli/files.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steward-write-interrupted-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A promise and what settles it, as a piece in flight from the owner. */
function inFlight() {
  let release = () => undefined as void;
  const piece = new Promise<void>((resolve) => (release = resolve));
  return { piece, release };
}

describe('an export into a file interrupted midway', () => {
  it('leaves no temp file and no half file under its name, even while a piece is still in flight', async () => {
    const file = join(dir, 'export.md');
    const stop = new AbortController();
    const { piece, release } = inFlight();
    let second: (outcome: unknown) => void = () => undefined;
    const ended = new Promise((resolve) => (second = resolve));
    const writing = writeInPieces(
      file,
      false,
      async (write) => {
        await write('# First piece\n');
        stop.abort();
        // The owner is still making the next piece: the interrupt does not wait for it.
        await piece;
        await write('# Second piece\n').then(second, second);
      },
      stop.signal,
    );
    await expect(writing).rejects.toMatchObject({ code: 'cancelled' });
    expect(readdirSync(dir)).toEqual([]);
    // The piece that was in flight is not written anywhere once it comes.
    release();
    expect(await ended).toMatchObject({ code: 'cancelled' });
    // And the write, ended now, has removed its temp file again (it is closed after the piece).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves a file it was to replace (--force) as it was', async () => {
    const file = join(dir, 'notes.md');
    writeFileSync(file, 'a file worth keeping\n');
    const stop = new AbortController();
    const writing = writeInPieces(file, true, async (write) => {
      await write('half of it');
      stop.abort();
      await write('the rest');
    }, stop.signal);
    await expect(writing).rejects.toMatchObject({ code: 'cancelled' });
    expect(readdirSync(dir)).toEqual(['notes.md']);
    expect(readFileSync(file, 'utf8')).toBe('a file worth keeping\n');
  });

  it('aborts the work it runs on SIGINT or SIGTERM, and hears neither once the work is over', async () => {
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      const signals = new EventEmitter();
      const heard = whileInterruptible((signal) => new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('aborted'))), signals);
      signals.emit(name, name);
      await expect(heard).resolves.toBe('aborted');
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    }
  });
});
