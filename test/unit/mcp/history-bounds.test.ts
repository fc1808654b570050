import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rootKinds } from '../../../core/api/index.js';
import { claudeHistoryWithMcp } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** The bound get_session states: its text, and its structured content as JSON, each at most this. */
const PAGE_CHARS = 60_000;

const WIDE = 'c0ffee00-0000-4000-8000-000000000600';
const BIG = 'c0ffee00-0000-4000-8000-000000300000';
const ONE_PART = 'c0ffee00-0000-4000-8000-000000000001';
const CONTROL = 'c0ffee00-0000-4000-8000-0000000000c7';
const STEPS = 'c0ffee00-0000-4000-8000-000000000006';
const TITLED = 'c0ffee00-0000-4000-8000-0000000000ee';
const TITLE = `Quince orchard ${'long title '.repeat(36)}`.trim();
const CALLS = 600;

interface Part {
  partId: string;
  kind: string;
  text: string | null;
  summary: string | null;
}
interface NotShown {
  parts: number;
  partId: string;
}
interface Page {
  messages: Array<{ role: string | null; parts: Part[]; partsBefore?: NotShown; partsAfter?: NotShown }>;
  cursor?: string;
  before?: string;
}
interface Answer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Page;
}


const start = Date.now() - 3_600_000;
const at = (i: number) => new Date(start + i * 1_000);
const file = (root: string, id: string) => join(root, 'projects', '-work-quince', `${id}.jsonl`);

/** The audit's shape: one assistant message of 600 tool calls, then one user message of their 600 results. */
function writeWide(root: string): void {
  const uses = Array.from({ length: CALLS }, (_, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `ls -la /work/quince/batch-${i} && cat notes-${i}.txt ${'x'.repeat(300)}` } }));
  const results = Array.from({ length: CALLS }, (_, i) => ({ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `result ${i} ${'r'.repeat(500)}` }));
  writeJsonl(file(root, WIDE), [
    claudeLine({ sessionId: WIDE, cwd: '/work/quince', ts: at(0), text: 'Look at every batch folder.' }),
    claudeLine({ sessionId: WIDE, type: 'assistant', cwd: '/work/quince', ts: at(1), content: uses }),
    claudeLine({ sessionId: WIDE, cwd: '/work/quince', ts: at(2), content: results }),
    claudeLine({ sessionId: WIDE, type: 'assistant', cwd: '/work/quince', ts: at(3), text: 'All batches listed.' }),
  ]);
}

/** A 300 KB reply: 300 text blocks of 1,000 characters (no summary to fall back on), and one of 300,000. */
function writeBig(root: string): void {
  const blocks = Array.from({ length: 300 }, (_, i) => ({ type: 'text', text: `block ${i} ${'b'.repeat(1_000)}` }));
  writeJsonl(file(root, BIG), [
    claudeLine({ sessionId: BIG, cwd: '/work/quince', ts: at(0), text: 'Write it all out.' }),
    claudeLine({ sessionId: BIG, type: 'assistant', cwd: '/work/quince', ts: at(1), content: blocks }),
  ]);
  writeJsonl(file(root, ONE_PART), [
    claudeLine({ sessionId: ONE_PART, cwd: '/work/quince', ts: at(0), text: 'Write it in one go.' }),
    claudeLine({ sessionId: ONE_PART, type: 'assistant', cwd: '/work/quince', ts: at(1), text: `one ${'o'.repeat(300_000)}` }),
  ]);
  // Terminal output of control characters: each one six characters as JSON (\u0007).
  writeJsonl(file(root, CONTROL), [
    claudeLine({ sessionId: CONTROL, cwd: '/work/quince', ts: at(0), text: 'Ring the bell.' }),
    claudeLine({ sessionId: CONTROL, type: 'assistant', cwd: '/work/quince', ts: at(1), text: `bell ${'\u0007'.repeat(30_000)}` }),
  ]);
}

/** Six messages of 100 tool calls: each fits a page alone, all six do not. */
function writeSteps(root: string): void {
  const lines = Array.from({ length: 6 }, (_, m) =>
    claudeLine({
      sessionId: STEPS,
      type: 'assistant',
      cwd: '/work/quince',
      ts: at(m),
      content: Array.from({ length: 100 }, (_, i) => ({ type: 'tool_use', id: `toolu_${m}_${i}`, name: 'Read', input: { file_path: `/work/quince/step-${m}/file-${i}.ts`, note: 'n'.repeat(400) } })),
    }),
  );
  writeJsonl(file(root, STEPS), [claudeLine({ sessionId: STEPS, cwd: '/work/quince', ts: at(-1), text: 'Read every step.' }), ...lines]);
}

/** 25 hits in one conversation with a long title. */
function writeTitled(root: string): void {
  writeJsonl(file(root, TITLED), [
    { type: 'custom-title', customTitle: TITLE, sessionId: TITLED },
    ...Array.from({ length: 30 }, (_, i) => claudeLine({ sessionId: TITLED, type: i % 2 === 0 ? 'user' : 'assistant', cwd: '/work/quince', ts: at(i), text: `medlar jelly step ${i}` })),
  ]);
}

const history = claudeHistoryWithMcp('steward-mcp-bounds-', (root) => {
  writeWide(root);
  writeBig(root);
  writeSteps(root);
  writeTitled(root);
});

async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  return (await history.call(name, args)) as Answer;
}

async function page(args: Record<string, unknown>): Promise<{ out: Page; text: string }> {
  const answer = await call('get_session', args);
  expect(answer.isError).toBeFalsy();
  const text = answer.content[0]!.text!;
  // The bound, on both halves of the answer.
  expect(text.length).toBeLessThanOrEqual(PAGE_CHARS);
  expect(JSON.stringify(answer.structuredContent).length).toBeLessThanOrEqual(PAGE_CHARS);
  return { out: answer.structuredContent!, text };
}

describe('get_session: every answer within its stated bound', () => {
  it('two messages of 600 tool calls and results: a run of parts with their summaries, the rest counted with the part_id to read on from', async () => {
    // The opening request fits a page; with the 600 calls it would not, so the page stops after it.
    const opening = (await page({ session_id: WIDE, limit: 3 })).out;
    expect(opening.messages.map((m) => m.role)).toEqual(['user']);
    // The calls alone are still over: a run of them, the rest counted; the page stops before their results.
    const { out, text } = await page({ session_id: WIDE, cursor: opening.cursor, limit: 3 });
    expect(out.messages).toHaveLength(1);
    const calls = out.messages[0]!;
    expect(calls.parts.length).toBeGreaterThan(10);
    expect(calls.parts.length).toBeLessThan(CALLS);
    expect(calls.parts.every((p) => p.summary?.startsWith('Bash: ls -la /work/quince/batch-'))).toBe(true);
    expect(calls.partsAfter?.parts).toBe(CALLS - calls.parts.length);
    expect(text).toContain(`${calls.partsAfter!.parts} more parts of this message not shown: call again with part_id "${calls.partsAfter!.partId}"`);
    expect(out.messages.some((m) => m.parts.some((p) => p.kind === 'tool_result'))).toBe(false);

    // Reading on by part_id reaches every call, each once, in order.
    const seen = [...calls.parts.map((p) => p.partId)];
    for (let next = calls.partsAfter; next; ) {
      const more = (await page({ session_id: WIDE, part_id: next.partId, limit: 3 })).out;
      const holder = more.messages.find((m) => m.parts.some((p) => p.partId === next!.partId))!;
      // The part asked for is shown, and the parts after it: before what fits before it.
      const from = holder.parts.findIndex((p) => p.partId === next!.partId);
      expect(holder.parts.length - from).toBeGreaterThan(10);
      seen.push(...holder.parts.slice(from).map((p) => p.partId));
      next = holder.partsAfter;
    }
    expect(seen).toHaveLength(CALLS);
    expect(new Set(seen).size).toBe(CALLS);

    // The cursor continues right after the last message shown: the results come next.
    const after = (await page({ session_id: WIDE, cursor: out.cursor, limit: 3 })).out;
    expect(after.messages[0]!.parts[0]!.kind).toBe('tool_result');
    expect(after.messages[0]!.partsAfter?.parts).toBeGreaterThan(0);
  });

  it('fewer whole messages when a page is over, and the cursor then goes on right after the last one shown', async () => {
    const first = (await page({ session_id: STEPS, limit: 7 })).out;
    expect(first.messages.length).toBeLessThan(7);
    expect(first.messages.every((m) => m.partsAfter === undefined && m.partsBefore === undefined)).toBe(true);
    const paths: string[] = first.messages.flatMap((m) => m.parts.map((p) => p.summary ?? ''));
    for (let cursor = first.cursor; cursor; ) {
      const next = (await page({ session_id: STEPS, cursor, limit: 7 })).out;
      paths.push(...next.messages.flatMap((m) => m.parts.map((p) => p.summary ?? '')));
      cursor = next.cursor;
    }
    const reads = paths.filter((p) => p.startsWith('Read'));
    expect(reads).toHaveLength(600);
    expect(reads.map((p) => /step-(\d)\/file-(\d+)/.exec(p)!.slice(1, 3).join('/'))).toEqual(Array.from({ length: 600 }, (_, i) => `${Math.floor(i / 100)}/${i % 100}`));
  });

  it('a 300 KB reply of 300 blocks: as many as fit, the rest counted; a 300 KB single block: cut to 2,000 characters', async () => {
    const opening = (await page({ session_id: BIG, limit: 20 })).out;
    expect(opening.messages.map((m) => m.role)).toEqual(['user']);
    const { out, text } = await page({ session_id: BIG, cursor: opening.cursor, limit: 20 });
    const reply = out.messages.find((m) => m.role === 'assistant')!;
    expect(reply.parts.length).toBeGreaterThan(50);
    expect(reply.partsAfter?.parts).toBe(300 - reply.parts.length);
    expect(reply.parts.every((p) => (p.text ?? '').startsWith('block '))).toBe(true);
    expect(text).toContain('more parts of this message not shown');

    const single = (await page({ session_id: ONE_PART })).out;
    const long = single.messages.flatMap((m) => m.parts).find((p) => p.text?.startsWith('one '))!;
    expect(long.text!.length).toBeLessThan(2_150);
    expect(long.text).toMatch(new RegExp(`… \\[[\\d,]+ more characters not shown: read on with part_id "${long.partId}" and from_char 2000\\]$`));
  });

  it('says a part Steward stored cut short was cut when captured, with its whole length, and promises no call reads what it left out', async () => {
    const { out, text } = await page({ session_id: ONE_PART });
    const long = out.messages.flatMap((m) => m.parts).find((p) => p.text?.startsWith('one '))! as Part & { truncatedFrom?: number | null };
    // Stored as its first 32 KiB; the page shows 2,000 of those.
    expect(long.truncatedFrom).toBe(300_004);
    expect(long.text).toMatch(new RegExp(`… \\[30,768 more characters not shown: read on with part_id "${long.partId}" and from_char 2000\\]$`));
    expect(text).toContain('(cut short: Steward kept only the start of its 300,004 characters)');
    expect(text).not.toMatch(/\[\d+ more characters\]/);
    const short = out.messages.flatMap((m) => m.parts).find((p) => p.text === 'Write it in one go.')! as Part & { truncatedFrom?: number | null };
    expect(short).not.toHaveProperty('truncatedFrom');
  });
});

describe('get_session from_char: reading on in a part cut on the page', () => {
  it('reads a stored part whole in the calls its words name, each within the bound, nothing repeated or skipped', async () => {
    const opening = (await page({ session_id: ONE_PART })).out;
    const long = opening.messages.flatMap((m) => m.parts).find((p) => p.text?.startsWith('one '))!;
    const pieces = [long.text!.slice(0, long.text!.indexOf('…'))];
    let next = /from_char (\d+)\]$/.exec(long.text!)?.[1];
    let calls = 0;
    while (next !== undefined) {
      calls += 1;
      const { out, text } = await page({ session_id: ONE_PART, part_id: long.partId, from_char: Number(next) });
      // That part alone, and no cursor: it reads on in the part, not in the conversation.
      expect(out.messages.flatMap((m) => m.parts).map((p) => p.partId)).toEqual([long.partId]);
      expect(out.cursor).toBeUndefined();
      const shown = out.messages[0]!.parts[0]!.text!;
      expect(shown.startsWith(`[from character ${Number(next).toLocaleString('en')} of 32,768] `)).toBe(true);
      expect(text).toContain(shown);
      const body = shown.slice(shown.indexOf('] ') + 2);
      next = /from_char (\d+)\]$/.exec(body)?.[1];
      pieces.push(next === undefined ? body : body.slice(0, body.lastIndexOf('… [')));
    }
    expect(calls).toBe(2);
    // The 32 KiB Steward stored, read in three answers.
    expect(pieces.join('')).toBe(`one ${'o'.repeat(32_768 - 4)}`);
  });

  it('keeps a part of control characters within the bound as JSON too, and the rest reads on from where it stopped', async () => {
    const opening = (await page({ session_id: CONTROL })).out;
    const bell = opening.messages.flatMap((m) => m.parts).find((p) => p.text?.startsWith('bell '))!;
    // page() checks both halves of the answer against the bound.
    const { out } = await page({ session_id: CONTROL, part_id: bell.partId, from_char: 0 });
    const shown = out.messages[0]!.parts[0]!.text!;
    const next = Number(/from_char (\d+)\]$/.exec(shown)?.[1]);
    expect(next).toBeGreaterThan(1_000);
    expect(shown.slice(0, shown.lastIndexOf('… ['))).toHaveLength(next);
    const unknown = await call('get_session', { session_id: CONTROL, part_id: 'cc:no-such-part:0', from_char: 5 });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/^not_found: That part is not in this conversation/);
  });

  it('past the part’s end: its length, and no text; without part_id: says what it needs, changing nothing', async () => {
    const opening = (await page({ session_id: ONE_PART })).out;
    const long = opening.messages.flatMap((m) => m.parts).find((p) => p.text?.startsWith('one '))!;
    const past = (await page({ session_id: ONE_PART, part_id: long.partId, from_char: 99_999 })).out;
    expect(past.messages[0]!.parts[0]!.text).toBe('[nothing from character 99,999: the text Steward holds of this part ends at character 32,768]');
    const alone = await call('get_session', { session_id: ONE_PART, from_char: 10 });
    expect(alone.isError).toBe(true);
    expect(alone.content[0]!.text).toBe('invalid_params: from_char reads on in one part: give the part_id its words named too.');
  });
});

describe('search_transcripts', () => {
  it('names a conversation once above its hits, not its title on every hit line', async () => {
    const answer = await call('search_transcripts', { query: 'medlar', limit: 25 });
    expect(answer.isError).toBeFalsy();
    const text = answer.content[0]!.text!;
    expect((answer.structuredContent as unknown as { hits: unknown[] }).hits).toHaveLength(25);
    expect(text.split(TITLE).length - 1).toBe(1);
    expect(text).toContain(`[${TITLED}] ${TITLE}`);
    expect(text.length).toBeLessThan(25 * 200 + TITLE.length);
  });

  it('names every app of the provider registry in its description', async () => {
    const { tools } = await history.client().listTools();
    const description = tools.find((t) => t.name === 'search_transcripts')!.description!;
    for (const { kind } of rootKinds()) expect(description).toContain(kind.label);
  });

  it('refuses a date that does not exist instead of rolling it over', async () => {
    const refused = await call('search_transcripts', { query: 'medlar', from: '2026-02-30' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain('February 2026 has 28 days');
    expect((await call('search_transcripts', { query: 'medlar', to: '2026-13-01' })).isError).toBe(true);
    expect((await call('search_transcripts', { query: 'medlar', from: '2024-02-29' })).isError).toBeFalsy();
  });

  it('reads an agent’s dates in UTC, whatever the owner’s zone, and a date alone as that whole day', async () => {
    const saved = process.env.TZ;
    // Five hours behind UTC (four in summer): read in local time, the bounds below would miss every line.
    process.env.TZ = 'America/New_York';
    try {
      const first = new Date(Math.floor(start / 1000) * 1000).toISOString();
      const day = first.slice(0, 10);
      const hits = async (args: Record<string, unknown>) => {
        const answer = await call('search_transcripts', { query: 'medlar', limit: 25, ...args });
        return (answer.structuredContent as unknown as { hits: Array<{ at: string }> }).hits;
      };
      expect(await hits({ from: day, to: day })).not.toHaveLength(0);
      // Without an offset, as the tool's every `at` is: UTC.
      const found = await hits({ from: first.slice(0, 19), to: day });
      expect(found).not.toHaveLength(0);
      expect(found.every((h) => h.at >= first)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});
