import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';

const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/transcripts/${path}`, import.meta.url));
const SESSION = '7a2c4e6f-1b3d-4f5a-9c8e-2d4f6a8b0c1e';

const temp = coreHome('steward-export-image-results-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const claude = join(home.dir, 'roots', 'claude');
  mkdirSync(join(claude, 'projects', '-home-sam-dash'), { recursive: true });
  copyFileSync(fixture('claude/image-only-results.jsonl'), join(claude, 'projects', '-home-sam-dash', `${SESSION}.jsonl`));
  home.env.STEWARD_CLAUDE_ROOTS = claude;
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

interface Part {
  kind: string;
  summary: string | null;
  images?: number;
  resultImages?: Array<{ mediaType: string | null; bytes: number }>;
}

const results = (messages: ReadonlyArray<{ parts: readonly Part[] }>) => messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result');

// Screenshots a browser tool returned, and no text: one image, then two (a PNG and a JPEG).
describe('a Claude tool result of only images says so', () => {
  // The fixture's images: a 1×1 PNG of 70 bytes, and a JPEG of 134.
  const PNG = { mediaType: 'image/png', bytes: 70 };
  const JPEG = { mediaType: 'image/jpeg', bytes: 134 };

  it('in Sessions.Get: its line counts the images and says each one’s type and size, not "no output"', async () => {
    const page = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(results(page.messages).map((p) => [p.summary, p.images, p.resultImages])).toEqual([
      ['1 image: PNG, 70 bytes', 1, [PNG]],
      ['2 images: PNG, 70 bytes; JPEG, 134 bytes', 2, [PNG, JPEG]],
    ]);
  });

  it('in the Markdown export: a placeholder for each image, not an empty code block', async () => {
    const md = (await core.call('Sessions.Export', { sessionId: SESSION, format: 'markdown' })).content;
    expect(md).toContain('**Tool result**\n\n_[Image · PNG, 70 bytes]_\n');
    expect(md).toContain('**Tool result**\n\n_[Image · PNG, 70 bytes]_\n\n_[Image · JPEG, 134 bytes]_');
    expect(md).not.toMatch(/^(`{3,})\n\1$/m);
  });

  it('in the JSON export: its line, its count and each image’s type and size', async () => {
    const doc = JSON.parse((await core.call('Sessions.Export', { sessionId: SESSION, format: 'json' })).content) as { messages: Array<{ parts: Part[] }> };
    expect(results(doc.messages).map((p) => [p.summary, p.images, p.resultImages])).toEqual([
      ['1 image: PNG, 70 bytes', 1, [PNG]],
      ['2 images: PNG, 70 bytes; JPEG, 134 bytes', 2, [PNG, JPEG]],
    ]);
  });
});

describe('a tool result stored before capture kept its images’ facts', () => {
  it('says its count, as it did, in the fold’s line and the Markdown export', async () => {
    // The rows as an older parser wrote them: the count only.
    const db = openGateway(temp.home.dir);
    try {
      db.prepare("UPDATE parts SET meta = json_remove(meta, '$.imageFacts') WHERE session_id = ? AND kind = 'tool_result'").run(SESSION);
    } finally {
      db.close();
    }
    const page = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(results(page.messages).map((p) => [p.summary, p.images, p.resultImages])).toEqual([
      ['1 image', 1, undefined],
      ['2 images', 2, undefined],
    ]);
    const md = (await core.call('Sessions.Export', { sessionId: SESSION, format: 'markdown' })).content;
    expect(md).toContain('**Tool result**\n\n_[1 image]_');
    expect(md).toContain('**Tool result**\n\n_[2 images]_');
  });
});
