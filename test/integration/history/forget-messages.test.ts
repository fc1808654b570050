import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RetentionPruner, SearchIndex, SessionEraser, type PieceGate } from '../../../core/gateway/index.js';
import { byProvider, captureHarness, type CaptureHarness } from '../capture/harness.js';
import { expectIndexExact, miscountedMessages } from '../../support/search-index.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url));
const SITE = '/home/ana/src/site';
const CHAT = '5d1e2f3a-7b6c-4d5e-8f90-a1b2c3d4e5f6';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Chat {
  messages: Array<Record<string, unknown>>;
}

const legacy = () => JSON.parse(readFileSync(join(FIXTURES, 'legacy-session.json'), 'utf8')) as Chat;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * Gemini's legacy chat (its blocks are named: each message is counted by its first stored part)
 * captured as Gemini writes it: first mid-turn, the tool call still running, then whole, so the
 * call's result joins its message under a later rowid. `from`: the messages left out at its start.
 */
async function captured(from = 0): Promise<CaptureHarness> {
  const c = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
  write(join(c.geminiRoot, 'projects.json'), JSON.stringify({ projects: { [SITE]: 'site' } }));
  const path = join(c.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json');
  const full = legacy();
  full.messages = full.messages.slice(from);
  const running = structuredClone(full);
  running.messages = running.messages.slice(0, 2 - from);
  const call = (running.messages.at(-1)!.toolCalls as Array<Record<string, unknown>>)[0]!;
  call.status = 'executing';
  delete call.result;
  write(path, JSON.stringify(running));
  await c.driver.tick();
  write(path, JSON.stringify(full));
  expect(byProvider(await c.driver.tick(), 'gemini')).toMatchObject({ read: 1, failed: 0 });
  expectIndexExact(c.db);
  return c;
}

const messages = (c: CaptureHarness) => c.db.prepare('SELECT messages FROM session_stats WHERE session_id = ?').pluck().get(CHAT) as number | undefined;
const parts = (c: CaptureHarness) => c.db.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck().get(CHAT) as number;

/** Aborts once `pieces` pieces have deleted rows: a stop between two pieces. */
function stopAfter(pieces: number): { signal: AbortSignal; onProgress: () => void } {
  const stop = new AbortController();
  let seen = 0;
  return { signal: stop.signal, onProgress: () => void ((seen += 1) === pieces && stop.abort()) };
}

describe('message counts after a forget that stopped part-way', () => {
  it('the first piece takes one row, the first of a four-part message: the three left still count it once', async () => {
    h = await captured(1);
    const c = h;
    expect(messages(c)).toBe(4);
    const eraser = new SessionEraser(c.db, new SearchIndex(c.db));
    await expect(eraser.erase([CHAT], undefined, stopAfter(1))).rejects.toMatchObject({ code: 'cancelled' });
    expect(parts(c)).toBe(7);
    expect(messages(c)).toBe(4);
    expectIndexExact(c.db);
    // Finishing it leaves no counts behind.
    await eraser.erase([CHAT]);
    expect(messages(c)).toBeUndefined();
    expectIndexExact(c.db);
  });

  it('a session or a project stopped after any piece, two rows a piece: every count equals a recount, and finishing leaves none', async () => {
    for (const kind of ['session', 'project'] as const) {
      for (let pieces = 1; ; pieces += 1) {
        h = await captured();
        const c = h;
        const project = c.db.prepare('SELECT project_key FROM sessions WHERE session_id = ?').pluck().get(CHAT) as string;
        const eraser = new SessionEraser(c.db, new SearchIndex(c.db));
        const erase = (options = {}) => (kind === 'session' ? eraser.erase([CHAT], 2, options) : eraser.eraseProject(project, 2, options));
        const stopped = await erase(stopAfter(pieces)).then(
          () => false,
          () => true,
        );
        expect({ kind, pieces, miscounted: miscountedMessages(c.db) }).toEqual({ kind, pieces, miscounted: [] });
        expectIndexExact(c.db);
        await erase();
        expect(messages(c)).toBeUndefined();
        expectIndexExact(c.db);
        await c.close();
        h = undefined;
        if (stopped) continue;
        // Nine parts: a piece of one row, four of two (some cut a message in two), then the session row.
        expect(pieces).toBeGreaterThanOrEqual(6);
        break;
      }
    }
  });

  it('retention stopped between batches that split a message keeps it counted once', async () => {
    for (let batches = 1; ; batches += 1) {
      h = await captured();
      const c = h;
      const stop = new AbortController();
      let left = batches;
      const gate: PieceGate = { start: () => undefined, enter: () => true, leave: () => void ((left -= 1) === 0 && stop.abort()) };
      const pruned = await new RetentionPruner(c.db, gate).prune('gemini', Date.now(), { batchRows: 2, signal: stop.signal });
      expect({ batches, miscounted: miscountedMessages(c.db) }).toEqual({ batches, miscounted: [] });
      expectIndexExact(c.db);
      const done = pruned.complete;
      await c.close();
      h = undefined;
      if (!done) continue;
      expect(batches).toBeGreaterThanOrEqual(5);
      break;
    }
  });
});
