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
