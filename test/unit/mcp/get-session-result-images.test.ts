import { describe, expect, it } from 'vitest';
import type { Result, SessionMessage } from '../../../core/api/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import type { OrderedPart } from '../../../core/gateway/index.js';
import { partView } from '../../../core/history/messages.js';
import { readSessionPage } from '../../../core/mcp/session-page.js';

// A tool result with text and images (a browser tool's "Saved screenshot.png" and the screenshot):
// the panel and the exports say its images under it, but `steward sessions show` and get_session
// said only its text's line, as if it had returned no image.

/** A Claude tool result as capture stores it, read as Sessions.Get gives it. */
function result(partId: string, text: string, meta: Record<string, unknown>) {
  const row: OrderedPart = { rowid: 1, partId, role: 'user', kind: 'tool_result', ts: 1, place: 1, text, meta: JSON.stringify({ toolUseId: 't', ...meta }), genuineUserTurn: false, isCompactSummary: false };
  return partView(row, 'claude');
}

const PNG = { media_type: 'image/png', bytes: 34_816 };
const JPEG = { media_type: 'image/jpeg', bytes: 1_258_291 };
const LONG = Array.from({ length: 80 }, (_, i) => `line ${i + 1} of the page dump ${'d'.repeat(40)}`).join('\n');

function conversation(...parts: ReturnType<typeof result>[]): Result<'Sessions.Get'> {
  const messages: SessionMessage[] = parts.map((p, i) => ({ messageId: `m${i}`, role: 'user', ts: 1_780_000_000_000 + i, countsAsMessage: false, parts: [p] }));
  return {
    session: { sessionId: 'shots', projectKey: null, provider: 'claude', app: 'Claude Code', title: 'Screenshots', agentType: null, startedAt: 1_780_000_000_000, lastAt: 1_780_000_000_000, messages: 0, parentSessionId: null, parentKind: null, projectName: null, firstRequest: null, model: null, durationMs: null, toolCalls: 0, subagents: 0 },
    messages,
    subagents: [],
  };
}

const withText = result('r:text', 'Saved screenshot.png', { images: 2, imageFacts: [PNG, JPEG] });
const onlyImages = result('r:only', '', { images: 2, imageFacts: [PNG, JPEG] });
const countOnly = result('r:count', 'Saved 2 screenshots', { images: 2 });
const many = result('r:many', 'Saved 40 frames', { images: 40, imageFacts: Array.from({ length: 32 }, () => PNG) });
const longWithImage = result('r:long', LONG, { images: 1, imageFacts: [PNG] });

const page = (...parts: ReturnType<typeof result>[]) => readSessionPage(async () => conversation(...parts), 20, undefined, (t) => t);

describe('steward sessions show: a result’s images beside its text', () => {
  it('says each image under the result’s line, as the panel and the export do', () => {
    const out = formatSession(conversation(withText));
    expect(out).toContain('  ◂ 1 line: Saved screenshot.png\n  [Image · PNG, 34 KB]\n  [Image · JPEG, 1.2 MB]');
  });

  it('a result stored before capture kept their facts: their count', () => {
    expect(formatSession(conversation(countOnly))).toContain('  ◂ 1 line: Saved 2 screenshots\n  [2 images]');
  });

  it('a result of only images says them in its line, once', () => {
    const out = formatSession(conversation(onlyImages));
    expect(out).toContain('  ◂ 2 images: PNG, 34 KB; JPEG, 1.2 MB');
    expect(out).not.toContain('[Image ·');
  });
});

describe('get_session: a result’s images beside its text', () => {
  it('says them on the result’s label, above its text, and in its part', async () => {
    const { page: out, text } = await page(withText);
    expect(text).toContain('[Result] 2 images: PNG, 34 KB; JPEG, 1.2 MB\nSaved screenshot.png');
    expect(out.messages[0]!.parts[0]).toMatchObject({ text: 'Saved screenshot.png', images: '2 images: PNG, 34 KB; JPEG, 1.2 MB' });
  });

  it('bounded: three images said, the rest counted, whatever the result returned', async () => {
    const { page: out, text } = await page(many);
    const line = '40 images: PNG, 34 KB; PNG, 34 KB; PNG, 34 KB; and 37 more';
    expect(text).toContain(`[Result] ${line}\nSaved 40 frames`);
    expect(out.messages[0]!.parts[0]!.images).toBe(line);
  });

  it('beside what the label says of a body the page cuts (its line count)', async () => {
    const { text } = await page(longWithImage);
    expect(text).toMatch(/\[Result\] 80 lines · 1 image: PNG, 34 KB\nline 1 of the page dump/);
  });

  it('a result stored before capture kept their facts: their count', async () => {
    const { text } = await page(countOnly);
    expect(text).toContain('[Result] 2 images\nSaved 2 screenshots');
  });

  it('a result of only images says them once, in its summary', async () => {
    const { page: out, text } = await page(onlyImages);
    expect(text).toContain('[Result] 2 images: PNG, 34 KB; JPEG, 1.2 MB');
    expect(text.match(/2 images/g)).toHaveLength(1);
    expect(out.messages[0]!.parts[0]).not.toHaveProperty('images');
  });
});
