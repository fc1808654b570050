import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { base64Bytes } from '../../../core/transcripts/bounds.js';
import type { LineStats, PartRow, TranscriptFile } from '../../../core/transcripts/index.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { itemBlocks } from '../../../core/transcripts/providers/codex/items.js';
import { messageBlocks } from '../../../core/transcripts/providers/gemini/messages.js';
import { tempHome, type TempHome } from '../../support/home.js';

/*
 * A tool result's images (a browser tool's screenshots) are kept as their facts: how many
 * (`images`), and each one's type and decoded size (`imageFacts`), worked out from the base64's
 * length: never the data, never decoded to count it.
 */

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => {
  vi.restoreAllMocks();
  home.cleanup();
});

const FIXTURES = 'test/fixtures/transcripts';
/** The fixture's images: a 1×1 PNG (96 base64 characters, 70 bytes) and a small JPEG (180, 134). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function claudeParts(fixture: string): Promise<PartRow[]> {
  const path = join(home.dir, '7a2c4e6f-1b3d-4f5a-9c8e-2d4f6a8b0c1e.jsonl');
  copyFileSync(`${FIXTURES}/${fixture}`, path);
  const info = statSync(path, { bigint: true });
  const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source: 'claude' };
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  const parts: PartRow[] = [];
  for await (const batch of new ClaudeProvider({ roots: [], desktopRoots: [] }).read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 250 }, stats)) parts.push(...batch.parts);
  return parts;
}

const metaOf = (meta: string | null | Record<string, unknown>) => (typeof meta === 'string' ? (JSON.parse(meta) as Record<string, unknown>) : meta);

describe('the bytes a base64 text decodes to, from its length', () => {
  it('agrees with decoding it, padded or not', () => {
    for (let n = 0; n < 70; n += 1) {
      const bytes = Buffer.alloc(n, 0xa5);
      expect(base64Bytes(bytes.toString('base64')), `padded ${n}`).toBe(n);
      expect(base64Bytes(bytes.toString('base64url')), `unpadded ${n}`).toBe(n);
    }
  });

  /** Base64 wrapped as MIME and PEM write it: lines of `width` characters, each ended by `eol`. */
  const wrapped = (text: string, width: number, eol: string) => (text.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join(eol) + eol;

  it('agrees with decoding it when it is wrapped in lines (\\n or \\r\\n), its padding before the last line end', () => {
    for (const n of [1, 2, 3, 56, 57, 58, 1000, 34_000]) {
      const text = Buffer.alloc(n, 0x5a).toString('base64');
      for (const [width, eol] of [[76, '\n'], [76, '\r\n'], [64, '\n'], [4, '\r\n']] as const) {
        const lines = wrapped(text, width, eol);
        expect(Buffer.from(lines, 'base64').length, `decoded ${n}/${width}`).toBe(n);
        expect(base64Bytes(lines), `wrapped ${n} at ${width} by ${JSON.stringify(eol)}`).toBe(n);
        expect(base64Bytes(`data:,${lines}`, 6), `from 6, ${n}`).toBe(n);
      }
    }
  });

  it('strips the padding behind trailing white space, and counts none of the white space', () => {
    expect(base64Bytes('QQ==\n')).toBe(1);
    expect(base64Bytes('QQ==\r\n')).toBe(1);
    expect(base64Bytes('QUI=  \t\n')).toBe(2);
    expect(base64Bytes('QU\nI=')).toBe(2);
    expect(base64Bytes(' \n\r\n')).toBe(0);
  });
});

describe('Claude Code: a tool_result’s images', () => {
  it('keeps each one’s type and decoded size beside the count, and none of its data', async () => {
    const parts = (await claudeParts('claude/image-only-results.jsonl')).filter((p) => p.kind === 'tool_result');
    expect(parts.map((p) => metaOf(p.meta))).toEqual([
      { toolUseId: 'toolu_01Dash', images: 1, imageFacts: [{ media_type: 'image/png', bytes: PNG.length }] },
      {
        toolUseId: 'toolu_02Login',
        images: 2,
        imageFacts: [
          { media_type: 'image/png', bytes: 70 },
          { media_type: 'image/jpeg', bytes: 134 },
        ],
      },
    ]);
    expect(parts.map((p) => p.meta).join('')).not.toContain('iVBORw0KGgo');
  });

  it('never decodes a result’s image to size it', async () => {
    const from = vi.spyOn(Buffer, 'from');
    await claudeParts('claude/image-only-results.jsonl');
    expect(from.mock.calls.filter((args) => (args as unknown[])[1] === 'base64')).toEqual([]);
  });
});

describe('Codex: a function_call_output of content items', () => {
  it('keeps its text and its images’ facts (a data URL’s type and decoded size)', () => {
    const jpeg = Buffer.alloc(34_000, 0xff).toString('base64');
    const [block] = itemBlocks({
      type: 'function_call_output',
      call_id: 'call_View1',
      output: [
        { type: 'input_text', text: 'Screenshot of http://localhost:3000' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG.toString('base64')}` },
        { type: 'input_image', image_url: `data:image/jpeg;base64,${jpeg}`, detail: 'high' },
        { type: 'input_image', image_url: 'https://example.com/chart.webp' },
      ],
    })!;
    expect(block!.text).toBe('Screenshot of http://localhost:3000');
    expect(block!.meta).toMatchObject({
      toolUseId: 'call_View1',
      images: 3,
      imageFacts: [
        { media_type: 'image/png', bytes: 70 },
        { media_type: 'image/jpeg', bytes: 34_000 },
        { media_type: null, bytes: 0 },
      ],
    });
    expect(JSON.stringify(block!.meta)).not.toContain('iVBORw0KGgo');
  });

  it('reads a data URL’s scheme and base64 marker in any case (they are case-insensitive), wrapped data by its decoded size', () => {
    const png = PNG.toString('base64');
    const [block] = itemBlocks({
      type: 'function_call_output',
      call_id: 'call_View2',
      output: [
        { type: 'input_image', image_url: `data:image/png;BASE64,${png}` },
        { type: 'input_image', image_url: `DATA:image/png;Base64,${png}` },
        { type: 'input_image', image_url: `data:image/png;base64,${png.slice(0, 76)}\r\n${png.slice(76)}\r\n` },
      ],
    })!;
    expect(block!.meta).toMatchObject({
      images: 3,
      imageFacts: [
        { media_type: 'image/png', bytes: 70 },
        { media_type: 'image/png', bytes: 70 },
        { media_type: 'image/png', bytes: 70 },
      ],
    });
  });

  it('an image in a message: its data URL’s base64 marker in any case', () => {
    const blocks = itemBlocks({ type: 'message', role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;BASE64,${PNG.toString('base64')}` }] })!;
    expect(blocks.map((b) => b.meta)).toMatchObject([{ media_type: 'image/png', bytes: 70 }]);
  });
});

describe('Gemini CLI: a tool call’s result with inline data', () => {
  const inline = (mimeType: string, bytes: Buffer) => ({ inlineData: { mimeType, data: bytes.toString('base64') } });

  it('keeps the images nested in the function response and those beside it', () => {
    const record = readFileSync(`${FIXTURES}/gemini/current-session.jsonl`, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"type":"gemini"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)[0]!;
    const call = {
      id: 'read_file-1716390000-2',
      name: 'read_file',
      args: { absolute_path: '/p/logo.png' },
      status: 'success',
      timestamp: '2026-05-22T14:59:05.900Z',
      // Newer models take the image inside the response (`parts`); older ones beside it.
      result: [
        { functionResponse: { id: 'read_file-1716390000-2', name: 'read_file', response: { output: 'Binary content provided (1 item(s)).' }, parts: [inline('image/png', PNG)] } },
        inline('image/gif', Buffer.alloc(5)),
      ],
    };
    const blocks = messageBlocks({ ...record, toolCalls: [call] })!;
    const result = blocks.find((b) => b.kind === 'tool_result')!;
    expect(result.text).toBe('Binary content provided (1 item(s)).');
    expect(result.meta).toMatchObject({
      images: 2,
      imageFacts: [
        { media_type: 'image/png', bytes: 70 },
        { media_type: 'image/gif', bytes: 5 },
      ],
    });
  });

  it('keeps the images of a function response recorded as the user’s turn', () => {
    const blocks = messageBlocks({
      id: 'u2',
      timestamp: '2026-05-22T14:59:06.000Z',
      type: 'user',
      content: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'Binary content provided (1 item(s)).' }, parts: [inline('image/webp', Buffer.alloc(1000))] } }],
    })!;
    expect(blocks.find((b) => b.kind === 'tool_result')!.meta).toMatchObject({ images: 1, imageFacts: [{ media_type: 'image/webp', bytes: 1000 }] });
  });
});
