import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCompressedLines } from '../../../core/transcripts/compressed.js';
import { type LineStats } from '../../../core/transcripts/index.js';
import { readCompleteLines } from '../../../core/transcripts/lines.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

/** The largest raw block zstd allows. */
const BLOCK = 128 * 1024;

/**
 * One zstd frame holding `bytes` in raw (stored) blocks: a valid archive without a compressor in the
 * tests (Node 20 has none). Window descriptor 0x38: a 128 KiB window, the largest block.
 */
function zstdFrame(bytes: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
  for (let at = 0; at === 0 || at < bytes.length; at += BLOCK) {
    const block = bytes.subarray(at, at + BLOCK);
    const header = (block.length << 3) | (at + BLOCK >= bytes.length ? 1 : 0);
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), block);
  }
  return Buffer.concat(parts);
}

const fresh = (): LineStats => ({ lines: 0, failedLines: 0, oversizeLines: 0 });

async function compressed(text: string, maxLineBytes: number): Promise<{ lines: Array<string | null>; stats: LineStats }> {
  const file = join(home.dir, 'rollout.jsonl.zst');
  writeFileSync(file, zstdFrame(Buffer.from(text)));
  const stats = fresh();
  const lines: Array<string | null> = [];
  for await (const group of readCompressedLines(file, { maxLineBytes }, stats)) lines.push(...group);
  return { lines, stats };
}

async function plain(text: string, maxLineBytes: number): Promise<{ lines: Array<string | null>; stats: LineStats }> {
  const file = join(home.dir, 'rollout.jsonl');
  writeFileSync(file, text);
  const stats = fresh();
  const lines: Array<string | null> = [];
  for await (const chunk of readCompleteLines(file, { maxLineBytes, chunkBytes: 4096 }, stats)) lines.push(...chunk.lines);
  return { lines, stats };
}

/** What a provider counts of a reader's lines: blank ones `empty`, ones that do not parse `malformed`. */
function providerSkips(lines: Array<string | null>): Record<string, number> {
  const skips: Record<string, number> = {};
  for (const line of lines) {
    if (line === null) continue;
    let reason: string | undefined;
    if (line === '') reason = 'empty';
    else {
      try {
        JSON.parse(line);
      } catch {
        reason = 'malformed';
      }
    }
    if (reason) skips[reason] = (skips[reason] ?? 0) + 1;
  }
  return skips;
}

/**
 * The zeros a crash left before a line are no part of it in an archive as in a plain file: a short run,
 * a run longer than the cap (here across the 64 KiB steps the archive is decoded in), and a line of
 * zeros alone is blank.
 */
describe('zeros before a line in a compressed transcript', () => {
  const CAP = 32;
  const at = (n: number, c: string): string => `{"t":"${c.repeat(n - 8)}"}`;

  it('reads the line behind a short run of zeros', async () => {
    const { lines, stats } = await compressed('{"a":1}\n\0\0\0{"b":2}\n', CAP);
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(stats).toMatchObject({ lines: 2, oversizeLines: 0 });
    expect(stats.skipped).toBeUndefined();
  });

  it('reads the line behind a run longer than the cap, and a line of zeros alone is blank', async () => {
    const run = '\0'.repeat(70 * 1024);
    const { lines, stats } = await compressed(`{"a":1}\n${run}{"b":2}\n${run}\n{"c":3}`, CAP);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '', '{"c":3}']);
    expect(stats).toMatchObject({ lines: 4, oversizeLines: 0 });
    expect(stats.skipped).toBeUndefined();
  });

  it('reads a CRLF line of exactly the cap, zeros before it or not, and skips one a byte longer', async () => {
    const { lines, stats } = await compressed(`${at(CAP, 'a')}\r\n${'\0'.repeat(100)}${at(CAP, 'b')}\r\n${at(CAP + 1, 'c')}\r\n`, CAP);
    expect(lines).toEqual([at(CAP, 'a'), at(CAP, 'b'), null]);
    expect(stats).toMatchObject({ oversizeLines: 1, skipped: { too_large: 1 } });
  });

  it('counts what the plain JSONL reader counts for the same bytes', async () => {
    const zeros = '\0'.repeat(100);
    const text = [
      `{"a":1}\n\0\0\0{"b":2}\n\0\0\n`,
      `${zeros}{"c":3}\n${zeros}\n${zeros}${at(CAP, 'd')}\r\n`,
      // Behind zeros, a line above the cap is still one; zeros inside a line count against the cap.
      `${zeros}${'x'.repeat(CAP + 1)}\n{"e":${zeros}}\n`,
      // A fragment behind zeros still fails to parse; zeros after the last line are no line.
      `${zeros}"f":4}\n{"g":5}\n${zeros}`,
    ].join('');
    const fromArchive = await compressed(text, CAP);
    const fromFile = await plain(text, CAP);
    expect(fromArchive.lines).toEqual(fromFile.lines);
    expect(fromArchive.stats).toMatchObject({ lines: fromFile.stats.lines, oversizeLines: fromFile.stats.oversizeLines, skipped: fromFile.stats.skipped });
    expect(providerSkips(fromArchive.lines)).toEqual(providerSkips(fromFile.lines));
    expect(providerSkips(fromFile.lines)).toEqual({ empty: 2, malformed: 1 });
    expect(fromFile.stats.skipped).toEqual({ too_large: 2 });
  });
});
