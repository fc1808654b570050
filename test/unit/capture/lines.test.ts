import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LineStats } from '../../../core/transcripts/index.js';
import { blockOnReads, nothingRead, readCompleteLines, resumeOffset, type LineChunk } from '../../../core/transcripts/lines.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

async function collect(text: string | Buffer, maxLineBytes = 1024, chunkBytes = 7): Promise<{ lines: string[]; stats: LineStats }> {
  const file = join(home.dir, 'f.jsonl');
  writeFileSync(file, text);
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  const lines: string[] = [];
  for await (const group of readCompleteLines(file, { maxLineBytes, chunkBytes }, stats)) for (const line of group.lines) if (line !== null) lines.push(line);
  return { lines, stats };
}

describe('readCompleteLines', () => {
  it('consumes only through the last newline; a partial last line waits', async () => {
    const { lines } = await collect('{"a":1}\n{"b":2}\n{"c":');
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('joins lines split across chunks, multibyte characters included, and strips CR', async () => {
    const { lines } = await collect('{"t":"héllo wörld ✓"}\r\n{"t":"🙂🙂🙂"}\n', 1024, 5);
    expect(lines).toEqual(['{"t":"héllo wörld ✓"}', '{"t":"🙂🙂🙂"}']);
  });

  it('skips and counts a line above the cap without holding it', async () => {
    const { lines, stats } = await collect(`{"ok":1}\n${'x'.repeat(200)}\n{"ok":2}\n${'y'.repeat(50)}`, 64, 16);
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(stats.oversizeLines).toBe(1);
  });
});

describe('line positions and checkpoints', () => {
  async function chunks(file: string, options: { start?: number; end?: number; maxLineBytes?: number }, stats: LineStats): Promise<LineChunk[]> {
    const out: LineChunk[] = [];
    for await (const chunk of readCompleteLines(file, { maxLineBytes: options.maxLineBytes ?? 1024, chunkBytes: 5, ...options }, stats)) out.push(chunk);
    return out;
  }

  it('gives each line its byte offset; an oversize line keeps its place as null', async () => {
    const file = join(home.dir, 'o.jsonl');
    const text = `{"a":"é"}\n${'x'.repeat(40)}\n{"b":2}\n{"c":`;
    writeFileSync(file, text);
    const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    const all = await chunks(file, { maxLineBytes: 16 }, stats);
    const lines = all.flatMap((c) => c.lines);
    const offsets = all.flatMap((c) => c.offsets);
    expect(lines).toEqual(['{"a":"é"}', null, '{"b":2}']);
    const bytes = Buffer.from(text);
    expect(offsets).toEqual([0, bytes.indexOf('xxx'), bytes.indexOf('{"b"')]);
    expect(stats.skipped).toEqual({ too_large: 1 });
    // The checkpoint stops before the partial last line.
    expect(stats.checkpoint?.offset).toBe(bytes.indexOf('{"c"'));
  });

  it('resumes at a checkpoint only while the bytes before it are unchanged', async () => {
    const file = join(home.dir, 'r.jsonl');
    writeFileSync(file, '{"a":1}\n{"b":2}\n');
    const first: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    await chunks(file, {}, first);
    const checkpoint = first.checkpoint!;
    expect(checkpoint.offset).toBe(16);
    writeFileSync(file, '{"a":1}\n{"b":2}\n{"c":3}\n');
    const probe: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    expect(await resumeOffset(file, checkpoint, 24, probe)).toBe(16);
    const rest: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    expect((await chunks(file, { start: 16, end: 24 }, rest)).flatMap((c) => c.lines)).toEqual(['{"c":3}']);
    writeFileSync(file, '{"A":1}\n{"b":2}\n{"c":3}\n');
    expect(await resumeOffset(file, checkpoint, 24, probe)).toBe(0);
    expect(await resumeOffset(file, checkpoint, 10, probe)).toBe(0);
  });
});

describe('reads on the owner thread', () => {
  it('never block it, even after blockOnReads: the event loop turns between chunks', async () => {
    blockOnReads();
    const file = join(home.dir, 'f.jsonl');
    writeFileSync(file, Array.from({ length: 50 }, (_, i) => `{"n":${i}}\n`).join(''));
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    let lines = 0;
    let boundaries = 0;
    // Chunk boundaries with an event-loop turn between them: a read that went through the thread pool.
    let turned = 0;
    let seen: number | undefined;
    for await (const group of readCompleteLines(file, { maxLineBytes: 1024, chunkBytes: 16 }, stats)) {
      if (seen !== undefined) boundaries += 1;
      if (seen !== undefined && turns !== seen) turned += 1;
      seen = turns;
      lines += group.lines.length;
    }
    counting = false;
    expect(lines).toBe(50);
    expect(boundaries).toBeGreaterThan(20);
    // Two completions can land in one poll of the loop now and then; a blocking read never turns it.
    expect(turned).toBeGreaterThanOrEqual(Math.ceil(boundaries / 2));
  });
});

describe('a line file in which no line could be read', () => {
  const stats = (lines: number, skipped: LineStats['skipped'], resumed?: boolean): LineStats => ({ lines, failedLines: skipped?.malformed ?? 0, oversizeLines: 0, skipped, ...(resumed ? { resumed } : {}) });

  it('is one of failed lines only (blank and above-cap ones beside them), read from its start, and a line file', () => {
    expect(nothingRead('/r/rollout-x.jsonl', stats(1, { malformed: 1 }))).toBe(true);
    expect(nothingRead('/r/rollout-x.jsonl.zst', stats(3, { malformed: 1, empty: 1, too_large: 1 }))).toBe(true);
    expect(nothingRead('/r/s.jsonl.reset.2026-11-21T03-00-00.000Z', stats(2, { malformed: 2 }))).toBe(true);
    // A good line beside it, no failed line at all, a read that went on from a checkpoint, a store.
    expect(nothingRead('/r/rollout-x.jsonl', stats(2, { malformed: 1, meta_only: 1 }))).toBe(false);
    expect(nothingRead('/r/rollout-x.jsonl', stats(0, {}))).toBe(false);
    expect(nothingRead('/r/rollout-x.jsonl', stats(1, { too_large: 1 }))).toBe(false);
    expect(nothingRead('/r/rollout-x.jsonl', stats(1, { malformed: 1 }, true))).toBe(false);
    expect(nothingRead('/r/openclaw-agent.sqlite', stats(0, { malformed: 1 }))).toBe(false);
  });
});

/**
 * A crash or power loss can leave a run of zeros where a file's bytes were never written, often longer
 * than the line cap (a page, or a preallocated tail); the agent then writes on behind it. The zeros before
 * a line are no part of it: they never count against the cap, so the line behind them is read.
 */
describe('a run of zeros longer than the line cap', () => {
  const CAP = 32;
  const ZEROS = '\0'.repeat(100);
  const CHUNKS = [5, 7, 16, 31, 32, 33, 64, 4096];

  async function read(text: string, chunkBytes: number, start = 0): Promise<{ lines: Array<string | null>; offsets: number[]; stats: LineStats }> {
    const file = join(home.dir, 'z.jsonl');
    writeFileSync(file, text);
    const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    const out: LineChunk[] = [];
    for await (const chunk of readCompleteLines(file, { maxLineBytes: CAP, chunkBytes, start }, stats)) out.push(chunk);
    return { lines: out.flatMap((c) => c.lines), offsets: out.flatMap((c) => c.offsets), stats };
  }

  it('does not drop the line behind it, with or without a newline between, whatever the chunk size', async () => {
    for (const chunkBytes of CHUNKS) {
      const text = `{"a":1}\n${ZEROS}{"b":2}\n${ZEROS}\n{"c":3}\r\n${ZEROS}{"d":4}`;
      const { lines, offsets, stats } = await read(text, chunkBytes);
      // A run that ends in a newline is a blank line (counted `empty` by the provider), as a short one is.
      expect(lines, `chunk ${chunkBytes}`).toEqual(['{"a":1}', '{"b":2}', '', '{"c":3}']);
      // A line's offset is its first byte, zeros included, however long the run: the same as a short run's.
      expect(offsets).toEqual([0, 8, 8 + 100 + 8, 8 + 100 + 8 + 101]);
      expect(stats).toMatchObject({ lines: 4, oversizeLines: 0 });
      expect(stats.skipped).toBeUndefined();
      // The last line is behind zeros and still being written: the checkpoint stops before its zeros.
      expect(stats.checkpoint?.offset).toBe(Buffer.byteLength(text) - 100 - 7);
    }
  });

  it('reads like a run shorter than the cap: zeros before a line are stripped, a line of zeros is blank', async () => {
    const short = await read(`\0\0\0{"a":1}\n\0\0\n{"b":2}\n`, 7);
    const long = await read(`${ZEROS}{"a":1}\n${ZEROS}\n{"b":2}\n`, 7);
    expect(long.lines).toEqual(short.lines);
    expect(long.stats.skipped).toEqual(short.stats.skipped);
  });

  it('still counts an oversize line behind it once, and zeros inside a line count against the cap', async () => {
    for (const chunkBytes of CHUNKS) {
      const { lines, stats } = await read(`${ZEROS}${'x'.repeat(CAP + 1)}\n{"a":${ZEROS}}\n{"b":2}\n`, chunkBytes);
      expect(lines, `chunk ${chunkBytes}`).toEqual([null, null, '{"b":2}']);
      expect(stats).toMatchObject({ oversizeLines: 2, skipped: { too_large: 2 } });
    }
  });

  it('leaves the checkpoint before a zero-filled tail, and reads what is appended behind it from there', async () => {
    const zeroTail = `{"a":1}\n${ZEROS}`;
    const first = await read(zeroTail, 16);
    expect(first.lines).toEqual(['{"a":1}']);
    const checkpoint = first.stats.checkpoint!;
    expect(checkpoint.offset).toBe(8);
    const appended = `${zeroTail}{"b":2}\n{"c":3}\n`;
    writeFileSync(join(home.dir, 'z.jsonl'), appended);
    const probe: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    expect(await resumeOffset(join(home.dir, 'z.jsonl'), checkpoint, Buffer.byteLength(appended), probe)).toBe(8);
    const resumed = await read(appended, 16, 8);
    const whole = await read(appended, 16);
    expect(resumed.lines).toEqual(['{"b":2}', '{"c":3}']);
    // Resumed or read whole, each line keeps its offset.
    expect(resumed.offsets).toEqual(whole.offsets.slice(1));
    expect(resumed.stats.checkpoint?.offset).toBe(Buffer.byteLength(appended));
    expect(resumed.stats.skipped).toBeUndefined();
  });
});

describe('lines at the cap', () => {
  async function read(text: string, maxLineBytes: number, chunkBytes: number): Promise<{ lines: Array<string | null>; stats: LineStats }> {
    const file = join(home.dir, 'cap.jsonl');
    writeFileSync(file, text);
    const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
    const lines: Array<string | null> = [];
    for await (const chunk of readCompleteLines(file, { maxLineBytes, chunkBytes }, stats)) lines.push(...chunk.lines);
    return { lines, stats };
  }
  const at = (n: number, c: string) => `{"t":"${c.repeat(n - 8)}"}`;

  it('reads a line of exactly the cap and skips one a byte longer, wherever the chunks cut them', async () => {
    const cap = 24;
    for (let chunkBytes = 3; chunkBytes <= 2 * cap + 2; chunkBytes += 1) {
      const { lines, stats } = await read(`${at(cap, 'a')}\n${at(cap + 1, 'b')}\n${at(cap, 'c')}\n`, cap, chunkBytes);
      expect(lines, `chunk ${chunkBytes}`).toEqual([at(cap, 'a'), null, at(cap, 'c')]);
      expect(stats).toMatchObject({ oversizeLines: 1, skipped: { too_large: 1 }, checkpoint: { offset: 3 * cap + 4 } });
    }
  });

  it('reads a CRLF line as the LF one: its CR does not count against the cap, wherever the chunks cut it', async () => {
    const cap = 24;
    for (let chunkBytes = 3; chunkBytes <= 2 * cap + 4; chunkBytes += 1) {
      const { lines, stats } = await read(`${at(cap, 'a')}\r\n${at(cap + 1, 'b')}\r\n${at(cap, 'c')}\r\n\r\n`, cap, chunkBytes);
      expect(lines, `chunk ${chunkBytes}`).toEqual([at(cap, 'a'), null, at(cap, 'c'), '']);
      expect(stats).toMatchObject({ oversizeLines: 1, skipped: { too_large: 1 }, checkpoint: { offset: 3 * cap + 9 } });
    }
  });
});
