import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCompressedLines } from '../../../core/transcripts/compressed.js';
import { failWhenNothingRead, type LineStats, type PartRow, type TranscriptFile, type TranscriptProvider } from '../../../core/transcripts/index.js';
import { readCompleteLines, resumeOffset, type LineChunk } from '../../../core/transcripts/lines.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { CodexProvider } from '../../../core/transcripts/providers/codex/index.js';
import { OpenClawProvider } from '../../../core/transcripts/providers/openclaw/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, openclawLines } from '../../support/transcripts.js';

/**
 * Two shapes an attacker found misread: a UTF-8 BOM before a file's first line (Windows editors, some
 * tools) made that line `malformed` and a one-line file unreadable; a line of only JSON whitespace
 * (spaces, tabs, a stray CR) was counted `malformed`, not `empty`.
 */

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

const BOM = '\uFEFF';
const fresh = (): LineStats => ({ lines: 0, failedLines: 0, oversizeLines: 0 });
/** Blank lines as the attacker wrote them: spaces, tabs, a space before a CRLF, a lone CR before a CRLF. */
const BLANKS = ['  ', '\t', ' \t ', ' \r', '\r\r'];

function write(name: string, text: string | Buffer): string {
  const path = join(home.dir, name);
  writeFileSync(path, text);
  return path;
}

async function plainLines(path: string, chunkBytes: number, start = 0): Promise<{ lines: Array<string | null>; offsets: number[]; stats: LineStats }> {
  const stats = fresh();
  const out: LineChunk[] = [];
  for await (const chunk of readCompleteLines(path, { maxLineBytes: 1024, chunkBytes, start }, stats)) out.push(chunk);
  return { lines: out.flatMap((c) => c.lines), offsets: out.flatMap((c) => c.offsets), stats };
}

/** One zstd frame of raw blocks, one per buffer given (as compressed-lines.test.ts builds it): an archive without a compressor. */
function zstdFrame(...blocks: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
  blocks.forEach((block, i) => {
    const header = (block.length << 3) | (i === blocks.length - 1 ? 1 : 0);
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), block);
  });
  return Buffer.concat(parts);
}

async function archived(path: string, maxLineBytes = 1024): Promise<Array<string | null>> {
  const lines: Array<string | null> = [];
  for await (const group of readCompressedLines(path, { maxLineBytes }, fresh())) lines.push(...group);
  return lines;
}

describe('a UTF-8 BOM at the start of a file', () => {
  const text = `${BOM}{"a":1}\n{"b":2}\n`;

  it('is no part of the first line; the line keeps offset 0 and the checkpoint covers the file', async () => {
    for (const chunkBytes of [3, 4, 5, 7, 4096]) {
      const { lines, offsets, stats } = await plainLines(write('bom.jsonl', text), chunkBytes);
      expect(lines, `chunk ${chunkBytes}`).toEqual(['{"a":1}', '{"b":2}']);
      expect(offsets).toEqual([0, 11]);
      expect(stats.checkpoint?.offset).toBe(Buffer.byteLength(text));
    }
  });

  it('a read resumed from its checkpoint goes on after it, with the offsets a whole read gives', async () => {
    const path = write('bom.jsonl', text);
    const first = await plainLines(path, 7);
    const appended = `${text}{"c":3}\n`;
    writeFileSync(path, appended);
    const checkpoint = first.stats.checkpoint!;
    expect(await resumeOffset(path, checkpoint, Buffer.byteLength(appended), fresh())).toBe(checkpoint.offset);
    const resumed = await plainLines(path, 7, checkpoint.offset);
    const whole = await plainLines(path, 7);
    expect(resumed.lines).toEqual(['{"c":3}']);
    expect(resumed.offsets).toEqual(whole.offsets.slice(2));
  });

  it('is kept anywhere else: after zeros, or at the start of a later line', async () => {
    const { lines } = await plainLines(write('late.jsonl', `\0\0${BOM}{"a":1}\n${BOM}{"b":2}\n`), 7);
    expect(lines).toEqual([`${BOM}{"a":1}`, `${BOM}{"b":2}`]);
  });

  it('is stripped from an archive, compressed or not, as from a plain file', async () => {
    const bytes = Buffer.from(`${text}${BOM}{"c":3}`);
    expect(await archived(write('rollout.jsonl.zst', zstdFrame(bytes)))).toEqual(['{"a":1}', '{"b":2}', `${BOM}{"c":3}`]);
    expect(await archived(write('x.jsonl.deleted.2025-11-21T10-00-00.000Z', bytes))).toEqual(['{"a":1}', '{"b":2}', `${BOM}{"c":3}`]);
    expect(await archived(write('zeros.jsonl.zst', zstdFrame(Buffer.from(`\0${BOM}{"a":1}\n`))))).toEqual([`${BOM}{"a":1}`]);
    // The BOM split across blocks, the second past the first 64 KiB read: its first bytes are decoded alone.
    const long = `{"t":"${'x'.repeat(100 * 1024)}"}`;
    const split = zstdFrame(Buffer.from([0xef, 0xbb]), Buffer.concat([Buffer.from([0xbf]), Buffer.from(`${long}\n{"b":2}\n`)]));
    expect(await archived(write('split.jsonl.zst', split), 1 << 20)).toEqual([long, '{"b":2}']);
  });
});

describe('a line of only whitespace', () => {
  it('reads as an empty line, from a plain file and an archive', async () => {
    const text = `{"a":1}\n${BLANKS.join('\n')}\n{"b":2}\n`;
    const expected = ['{"a":1}', ...BLANKS.map(() => ''), '{"b":2}'];
    for (const chunkBytes of [3, 7, 4096]) expect((await plainLines(write('ws.jsonl', text), chunkBytes)).lines, `chunk ${chunkBytes}`).toEqual(expected);
    expect(await archived(write('ws.jsonl.zst', zstdFrame(Buffer.from(text))))).toEqual(expected);
    // Whitespace around JSON is still the line's: it parses as it is.
    expect((await plainLines(write('pad.jsonl', ' {"a":1}\t\n'), 7)).lines).toEqual([' {"a":1}\t']);
  });
});

/** A provider's read of one file as a run reads it: a line file none of whose lines could be read fails. */
async function readDirect(provider: TranscriptProvider, path: string, source: string): Promise<{ parts: PartRow[]; stats: LineStats }> {
  const info = statSync(path, { bigint: true });
  const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source };
  const stats = fresh();
  const parts: PartRow[] = [];
  for await (const batch of failWhenNothingRead(path, provider.read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 250 }, stats), stats)) parts.push(...batch.parts);
  return { parts, stats };
}

interface Case {
  provider: () => TranscriptProvider;
  source: string;
  name: string;
  /** The file's JSON lines, the first of which yields a part. */
  lines: () => unknown[];
}

const CODEX_ID = '019a2d7a-41c4-78b1-b7cc-a45d62a89cd5';
const codexLine = (type: string, payload: unknown) => ({ timestamp: '2025-10-29T00:59:38.317Z', type, payload });

const CASES: Case[] = [
  {
    provider: () => new ClaudeProvider({ roots: [], desktopRoots: [] }),
    source: 'claude',
    name: '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21.jsonl',
    lines: () => [claudeLine({ sessionId: '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21', text: 'first' }), claudeLine({ sessionId: '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21', type: 'assistant', text: 'second' })],
  },
  {
    provider: () => new CodexProvider([]),
    source: 'codex',
    name: `rollout-2025-10-29T00-59-38-${CODEX_ID}.jsonl`,
    lines: () => [
      codexLine('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] }),
      codexLine('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '12 passing.' }] }),
    ],
  },
  {
    provider: () => new OpenClawProvider([]),
    source: 'openclaw',
    name: 'a1b2c3d4-0000-4000-8000-000000000001.jsonl',
    lines: () => openclawLines('a1b2c3d4-0000-4000-8000-000000000001', [{ id: 'e0000001', text: 'first' }, { id: 'e0000002', role: 'assistant', text: 'second' }]),
  },
];

describe.each(CASES)('the $source provider', ({ provider, source, name, lines }) => {
  const jsonl = (rows: unknown[]) => rows.map((row) => JSON.stringify(row));

  it('reads a file whose first line starts with a BOM, one line or many', async () => {
    const rows = jsonl(lines());
    const whole = await readDirect(provider(), write(name, `${rows.join('\n')}\n`), source);
    const bom = await readDirect(provider(), write(name, `${BOM}${rows.join('\n')}\n`), source);
    expect(whole.parts.length).toBeGreaterThan(0);
    expect(bom.stats.skipped?.malformed).toBeUndefined();
    expect(bom.parts.map((p) => p.partId)).toEqual(whole.parts.map((p) => p.partId));
    expect(bom.stats.skipped).toEqual(whole.stats.skipped);
    // The one-line file was `unreadable: malformed`.
    await expect(readDirect(provider(), write(name, `${BOM}${rows[0]}\n`), source)).resolves.toMatchObject({ stats: { failedLines: 0 } });
  });

  it('counts a whitespace-only line `empty`, not `malformed`', async () => {
    const rows = jsonl(lines());
    const plain = await readDirect(provider(), write(name, `${rows.join('\n')}\n`), source);
    const blanks = await readDirect(provider(), write(name, `${[rows[0], ...BLANKS, ...rows.slice(1)].join('\n')}\n`), source);
    expect(blanks.stats.failedLines).toBe(0);
    expect(blanks.stats.skipped).toEqual({ ...plain.stats.skipped, empty: BLANKS.length });
    expect(blanks.parts.length).toBe(plain.parts.length);
  });
});
