import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LineStats } from '../../../core/transcripts/index.js';
import { readCompleteLines } from '../../../core/transcripts/lines.js';
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
