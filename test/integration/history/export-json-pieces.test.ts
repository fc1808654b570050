import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionMessage } from '../../../core/api/index.js';
import { Core } from '../../../core/index.js';
import { HistoryReader } from '../../../core/gateway/history-read.js';
import { PIECE_CHARS } from '../../../core/history/export.js';
import { REDACTED } from '../../../core/secrets/index.js';
import { SECRET } from '../../support/history.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A long conversation of every kind a JSON export writes: the person's words (unicode, a secret), a
 * thought, the assistant's text, a tool call, its result (a secret; the count leaves it out:
 * countsAsMessage false) and an image. ROUNDS rounds of five lines, six parts: several pages of parts
 * (400 a read) and several pieces of the document.
 */
const SESSION = '7a3e9c1d-2b4f-4e6a-9c8d-1f0e2d3c4b5a';
const ROUNDS = 300;
const PARTS = ROUNDS * 6;
const UNICODE = 'Café ☕ 日本語 🍎 e\u0301 שלום \u2028 "quoted" \\back\\slash\\ \u0007 tab\t';
const filler = (what: string, n: number) => `${what} ${n}: ${'the orchard ledger lists every graft and its rootstock. '.repeat(40)}`;
const uuidOf = (n: number) => `7a3e9c1d-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function round(r: number, at: (i: number) => Date): Array<Record<string, unknown>> {
  const base = r * 5;
  const line = (i: number, o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts' | 'uuid'>) =>
    claudeLine({ sessionId: SESSION, cwd: '/work/ledger', ts: at(base + i), uuid: uuidOf(base + i), ...o });
  return [
    line(0, { text: `${UNICODE} ask ${r}${r % 50 === 7 ? ` my key is ${SECRET}` : ''}` }),
    line(1, {
      type: 'assistant',
      content: [
        { type: 'thinking', thinking: filler('Thinking', r), signature: 'sig' },
        { type: 'text', text: filler(`Answer ${UNICODE}`, r) },
        { type: 'tool_use', id: `toolu_${r}`, name: 'Bash', input: { command: `grep -r graft ledger/${r}`, description: 'Find grafts' } },
      ],
    }),
    line(2, { content: [{ type: 'tool_result', tool_use_id: `toolu_${r}`, content: `${filler('Result', r)}\nTOKEN="${SECRET}"` }] }),
    line(3, { type: 'assistant', text: `Read it ${r} 🍏` }),
    line(4, { content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.from(`bytes ${r}`).toString('base64') } }] }),
  ];
}

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-export-json-pieces-');
  const root = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 86_400_000;
  const at = (i: number) => new Date(start + i * 1000);
  writeJsonl(join(root, 'projects', '-work-ledger', `${SESSION}.jsonl`), Array.from({ length: ROUNDS }, (_, r) => round(r, at)).flat());
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

/** Every piece of a JSON export, through the contract; `onFirst` runs when the first piece has come. */
async function pieces(onFirst: () => void = () => {}): Promise<string[]> {
  const first = await core.call('Sessions.Export', { sessionId: SESSION, format: 'json' });
  onFirst();
  const out = [first.content];
  for (let next = first.next; next !== null; ) {
    const piece = await core.call('Sessions.ExportNext', { next });
    out.push(piece.content);
    next = piece.next;
  }
  return out;
}

/** The document as one JSON.stringify wrote it, its parts read through Sessions.Get, redacted: the reference. */
async function wholeDocument(): Promise<string> {
  const messages: SessionMessage[] = [];
  let page = await core.call('Sessions.Get', { sessionId: SESSION, limit: 1_000, redact: true });
  const session = page.session;
  for (;;) {
    messages.push(...page.messages);
    if (page.cursor === undefined) break;
    page = await core.call('Sessions.Get', { sessionId: SESSION, limit: 1_000, redact: true, cursor: page.cursor });
  }
  return `${JSON.stringify({ format: 'steward.session.v1', redacted: true, session, messages, subagents: [] }, null, 2)}\n`;
}

describe('a long JSON export, piece by piece', () => {
  it('joins to exactly the document JSON.stringify writes whole, every text redacted, the header counting what the messages add up to', async () => {
    const whole = (await pieces()).join('');
    expect(whole).toBe(await wholeDocument());
    const doc = JSON.parse(whole) as { session: { messages: number }; messages: SessionMessage[] };
    expect(doc.messages).toHaveLength(ROUNDS * 5);
    expect(doc.session.messages).toBe(doc.messages.filter((m) => m.countsAsMessage !== false).length);
    expect(doc.messages.filter((m) => m.countsAsMessage === false)).toHaveLength(ROUNDS);
    expect(whole).not.toContain(SECRET);
    expect(doc.messages[7 * 5]!.parts[0]!.text).toBe(`${UNICODE} ask 7 my key is ${REDACTED}`);
    expect(doc.messages.at(-3)!.parts[0]!.text).toContain(`TOKEN="${REDACTED}"`);
  });

  it('comes in several pieces of about PIECE_CHARS, none of them the whole document', async () => {
    const json = await pieces();
    const whole = json.join('');
    expect(json.length).toBeGreaterThanOrEqual(3);
    for (const piece of json.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(PIECE_CHARS);
    // Over by less than one message: a piece is cut where a message's text ends.
    for (const piece of json) expect(piece.length).toBeLessThan(PIECE_CHARS + 20_000);
    expect(Math.max(...json.map((p) => p.length))).toBeLessThan(whole.length / 2);
  });

  it('reads the parts a page at a time, and gives its first piece before it has read them all', async () => {
    const read = vi.spyOn(HistoryReader.prototype, 'partsAfter');
    try {
      let readsAtFirst = 0;
      await pieces(() => (readsAtFirst = read.mock.calls.length));
      const pages = read.mock.calls.filter(([sessionId]) => sessionId === SESSION);
      // Each read asks for one page; together they cover the conversation once.
      expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(PARTS / 400));
      for (const [, , limit] of pages) expect(limit).toBeLessThanOrEqual(400);
      expect(readsAtFirst).toBeLessThan(pages.length);
    } finally {
      read.mockRestore();
    }
  });
});
