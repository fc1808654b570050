import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
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
}

const results = (messages: ReadonlyArray<{ parts: readonly Part[] }>) => messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result');

// Screenshots a browser tool returned, and no text: one image, then two (a PNG and a JPEG).
describe('a Claude tool result of only images says so', () => {
  it('in Sessions.Get: its line counts the images, not "no output"', async () => {
    const page = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(results(page.messages).map((p) => [p.summary, p.images])).toEqual([
      ['1 image', 1],
      ['2 images', 2],
    ]);
  });

  it('in the Markdown export: a line naming the images, not an empty code block', async () => {
    const md = (await core.call('Sessions.Export', { sessionId: SESSION, format: 'markdown' })).content;
    expect(md).toContain('**Tool result**\n\n_[1 image]_');
    expect(md).toContain('**Tool result**\n\n_[2 images]_');
    expect(md).not.toMatch(/^(`{3,})\n\1$/m);
  });

  it('in the JSON export: its line and its count', async () => {
    const doc = JSON.parse((await core.call('Sessions.Export', { sessionId: SESSION, format: 'json' })).content) as { messages: Array<{ parts: Part[] }> };
    expect(results(doc.messages).map((p) => [p.summary, p.images])).toEqual([
      ['1 image', 1],
      ['2 images', 2],
    ]);
  });
});
