import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { Core, startOwner } from '../../../core/index.js';
import { HistoryReader } from '../../../core/gateway/history-read.js';
import { PIECE_CHARS } from '../../../core/history/export.js';
import { captureIo } from '../../support/cli.js';
import { SECRET } from '../../support/history.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A conversation long enough that its export leaves the owner in several pieces: 420 turns of about
 * 7,000 characters, a secret in the last one (so redaction reaches the last piece too).
 */
const SESSION = '5e1c7a2b-9d3f-4b6e-8a10-3c2d1e0f9a87';
const TURNS = 420;
const uuidOf = (n: number) => `5e1c7a2b-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const turnText = (n: number) => `Turn ${n}: ${'the orchard ledger lists every graft and its rootstock. '.repeat(125)}${n === TURNS - 1 ? ` token ${SECRET}` : ''}`;

let home: TempHome;
let core: Core;
let stopped = false;

beforeAll(async () => {
  home = tempHome('steward-export-pieces-');
  const root = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 86_400_000;
  const lines = Array.from({ length: TURNS }, (_, n) =>
    claudeLine({ sessionId: SESSION, cwd: '/work/ledger', ts: new Date(start + n * 1000), type: n % 2 === 0 ? 'user' : 'assistant', uuid: uuidOf(n), text: turnText(n) }),
  );
  writeJsonl(join(root, 'projects', '-work-ledger', `${SESSION}.jsonl`), lines);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  if (!stopped) await core?.shutdown();
  home?.cleanup();
});

/** Every piece of an export, through the contract. */
async function pieces(format: 'markdown' | 'json'): Promise<string[]> {
  const first = await core.call('Sessions.Export', { sessionId: SESSION, format });
  const out = [first.content];
  for (let next = first.next; next !== null; ) {
    const piece = await core.call('Sessions.ExportNext', { next });
    out.push(piece.content);
    next = piece.next;
  }
  return out;
}

describe('a long export, piece by piece', () => {
  it('comes in pieces of about PIECE_CHARS, in order, redacted to the last one', async () => {
    const markdown = await pieces('markdown');
    expect(markdown.length).toBeGreaterThanOrEqual(3);
    // Every piece but the last is full, and over by less than one message.
    for (const piece of markdown.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(PIECE_CHARS);
    for (const piece of markdown) expect(piece.length).toBeLessThan(PIECE_CHARS + 10_000);
    const whole = markdown.join('');
    expect(whole).toMatch(/^# Turn 0: the orchard ledger/);
    expect(whole.endsWith('\n')).toBe(true);
    const turns = [...whole.matchAll(/\n\n## (You|Assistant) · [^\n]+\n\nTurn (\d+):/g)].map((m) => Number(m[2]));
    expect(turns).toEqual(Array.from({ length: TURNS }, (_, n) => n));
    expect(whole).not.toContain(SECRET);
    expect(markdown.at(-1)).toContain('[REDACTED]');
  });

  it('writes JSON that, joined, reads exactly as JSON.stringify would write it whole', async () => {
    const json = await pieces('json');
    expect(json.length).toBeGreaterThanOrEqual(3);
    const whole = json.join('');
    const doc = JSON.parse(whole) as { messages: unknown[]; subagents: unknown[] };
    expect(doc.messages).toHaveLength(TURNS);
    expect(whole).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('asked for from a callback, lets a timer already due run before it reads the first page of parts', async () => {
    // A request's callback runs in the loop's I/O phase; a timer's in its timers phase. A turn given
    // there (setImmediate) runs before the loop comes back to either: the export's work starts from a
    // turn of its own, so the turn after its heading lets the loop in before the parts are read.
    const read = vi.spyOn(HistoryReader.prototype, 'partsAfter');
    try {
      const readsWhenTimerRan = await new Promise<number>((resolve, reject) => {
        setTimeout(() => {
          let reads = -1;
          setTimeout(() => (reads = read.mock.calls.length), 0);
          const due = performance.now() + 2;
          while (performance.now() < due);
          core.call('Sessions.Export', { sessionId: SESSION }).then(() => resolve(reads), reject);
        }, 0);
      });
      expect(readsWhenTimerRan).toBe(0);
      expect(read).toHaveBeenCalled();
    } finally {
      read.mockRestore();
    }
  });

  it('takes each token once, and refuses one it never gave', async () => {
    const first = await core.call('Sessions.Export', { sessionId: SESSION });
    expect(first.next).not.toBeNull();
    await core.call('Sessions.ExportNext', { next: first.next! });
    await expect(core.call('Sessions.ExportNext', { next: first.next! })).rejects.toMatchObject({ code: 'not_found' });
    await expect(core.call('Sessions.ExportNext', { next: 'export-made-up' })).rejects.toMatchObject({ code: 'not_found', message: /no longer open/ });
    await expect(core.call('Sessions.Export', { sessionId: 'no-such-session' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('closes an export nobody asked the next piece of for a minute, and the oldest of more than eight', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let left: string | null;
    try {
      left = (await core.call('Sessions.Export', { sessionId: SESSION })).next;
      vi.advanceTimersByTime(60_000);
    } finally {
      vi.useRealTimers();
    }
    await expect(core.call('Sessions.ExportNext', { next: left! })).rejects.toMatchObject({ code: 'not_found' });
    const open: string[] = [];
    for (let i = 0; i < 9; i += 1) open.push((await core.call('Sessions.Export', { sessionId: SESSION })).next!);
    await expect(core.call('Sessions.ExportNext', { next: open[0]! })).rejects.toMatchObject({ code: 'not_found' });
    for (const next of open.slice(1)) expect((await core.call('Sessions.ExportNext', { next })).content.length).toBeGreaterThanOrEqual(PIECE_CHARS);
  });
});

describe('steward sessions export of a long conversation', () => {
  it('writes each piece to stdout as it arrives, and the whole document to a file, through the running owner', async () => {
    const expected = (await pieces('markdown')).join('');
    // The owner takes the store's single-writer lock, which the in-process core holds until it stops.
    await core.shutdown();
    stopped = true;
    const owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, strictPort: true, schedule: false });
    try {
      const io = captureIo(home.env);
      const writes: number[] = [];
      const stdout = io.stdout;
      io.stdout = (text) => {
        writes.push(text.length);
        stdout(text);
      };
      expect(await runCli(['sessions', 'export', SESSION], io)).toBe(0);
      expect(writes.length).toBeGreaterThanOrEqual(3);
      expect(io.out).toBe(expected);
      const file = join(home.dir, 'ledger.json');
      expect(await runCli(['sessions', 'export', SESSION, '--format', 'json', '--output', file], captureIo(home.env))).toBe(0);
      expect((JSON.parse(readFileSync(file, 'utf8')) as { messages: unknown[] }).messages).toHaveLength(TURNS);
      const json = captureIo(home.env);
      expect(await runCli(['sessions', 'export', SESSION, '--json'], json)).toBe(0);
      expect(Object.keys(JSON.parse(json.out) as object)).toEqual(['filename', 'mediaType', 'content', 'redacted']);
    } finally {
      await owner.stop();
    }
  });
});
