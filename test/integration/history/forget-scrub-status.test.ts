import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Core, type EventPayload, type ScrubStatus } from '../../../core/index.js';
import { Checkpointer, DiskScrub, SearchIndex, type ScrubGate } from '../../../core/gateway/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

const FORGET_ID = 'aaaaaaaa-0000-4000-8000-000000000001';
const KEPT = 20;
const LINES = 20;

let home: TempHome | undefined;
let core: Core | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await core?.shutdown();
  home?.cleanup();
  core = undefined;
  home = undefined;
});

/** Conversations of varied words, so the index has pages enough for a wipe of several pieces. */
function writeStore(root: string): void {
  let state = 11;
  const word = () => {
    let w = '';
    for (let i = 0; i < 6; i += 1) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      w += 'etaoinshrdlucmfwypvbgk'[Math.floor((state / 2 ** 32) * 22)];
    }
    return w;
  };
  const session = (sessionId: string, n: number) => {
    const start = Date.now() - 3 * 86_400_000 + n * 60_000;
    const lines = Array.from({ length: LINES }, (_, i) =>
      claudeLine({ sessionId, cwd: '/work/wipe-status', type: i % 2 === 0 ? 'user' : 'assistant', text: Array.from({ length: 120 }, word).join(' '), ts: new Date(start + i * 1000) }),
    );
    writeJsonl(join(root, 'projects', '-work-wipe-status', `${sessionId}.jsonl`), lines);
  };
  for (let n = 0; n < KEPT; n += 1) session(`bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, n);
  session(FORGET_ID, KEPT);
}

async function imported(): Promise<Core> {
  home = tempHome('steward-scrub-status-');
  home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'claude');
  writeStore(join(home.dir, 'claude'));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env, schedule: false });
  await core.call('Backfill.Run', { all: true });
  await core.history.whenIndexed();
  return core;
}

describe('what Forget.ScrubStatus says of a wipe', () => {
  it('while it runs: its phase and a share of the whole that only grows, below 100; after: when it finished', async () => {
    const c = await imported();
    expect(await c.call('Forget.ScrubStatus', {})).toMatchObject({ pending: false, running: false, progress: null, lastWipedAt: null, failed: null });
    const seen: Array<{ event: EventPayload<'forget.scrub'>; status: ScrubStatus }> = [];
    c.events.subscribe((name, payload) => {
      if (name === 'forget.scrub') seen.push({ event: payload as EventPayload<'forget.scrub'>, status: c.history.forgetting.scrubStatus() });
    });
    const before = Date.now();
    expect((await c.call('Forget.Session', { sessionId: FORGET_ID, scrub: true })).scrubbed).toBe(true);

    const running = seen.filter((s) => !s.event.complete).map((s) => s.status);
    expect(running.length).toBeGreaterThan(2);
    for (const status of running) expect(status).toMatchObject({ pending: true, running: true, progress: { phase: expect.any(String), percent: expect.any(Number) } });
    const percents = running.map((s) => s.progress!.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(Math.max(...percents)).toBeLessThan(100);
    expect(percents.at(-1)).toBeGreaterThan(50);
    expect(running.map((s) => s.progress!.phase)).toEqual(expect.arrayContaining(['index', 'free', 'journal']));

    const after = await c.call('Forget.ScrubStatus', {});
    expect(after).toMatchObject({ pending: false, running: false, progress: null, failed: null });
    expect(after.lastWipedAt).toBeGreaterThanOrEqual(before);
    expect(after.lastWipedAt).toBeLessThanOrEqual(Date.now());
  });

  it('a wipe that fails: the forget still answers (its rows are gone, scrubbed false), the status says it failed and stays owed, and a wipe that then finishes clears it', async () => {
    const c = await imported();
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    vi.spyOn(SearchIndex.prototype, 'foldPiece').mockImplementationOnce(() => {
      throw full;
    });
    const result = await c.call('Forget.Session', { sessionId: FORGET_ID, scrub: true });
    expect(result).toMatchObject({ kind: 'session', id: FORGET_ID, removedParts: LINES, scrubbed: false });
    expect((await c.call('Sessions.List', { limit: 100 })).sessions.some((s) => s.sessionId === FORGET_ID)).toBe(false);

    const failed = await c.call('Forget.ScrubStatus', {});
    expect(failed).toMatchObject({ pending: true, running: false, progress: null, lastWipedAt: null, failed: { at: expect.any(Number), code: 'SQLITE_FULL' } });

    expect(await c.call('Forget.Scrub', {})).toMatchObject({ complete: true });
    expect(await c.call('Forget.ScrubStatus', {})).toMatchObject({ pending: false, running: false, failed: null, lastWipedAt: expect.any(Number) });
  });

  it('a wipe whose journal a reader keeps from being emptied is said failed (SQLITE_BUSY), not left owed without a word; one the owner stops is not', async () => {
    const c = await imported();
    await c.call('Forget.Session', { sessionId: FORGET_ID });
    const checkpointer = Checkpointer.of(c.gateway);
    const held: ScrubGate = {
      start: () => checkpointer.start(),
      enter: (force) => checkpointer.enter(force),
      leave: () => checkpointer.leave(),
      settle: () => checkpointer.settle(),
      truncate: () => Promise.resolve(false),
    };
    const scrub = new DiskScrub(c.gateway, new SearchIndex(c.gateway), held);
    expect(await scrub.run()).toBe(false);
    expect(scrub.pending()).toBe(true);
    expect(scrub.report()).toEqual({ progress: null, lastWipedAt: null, failed: { at: expect.any(Number), code: 'SQLITE_BUSY' } });

    const stopped = new AbortController();
    stopped.abort();
    const again = new DiskScrub(c.gateway, new SearchIndex(c.gateway), held);
    expect(await again.run({ signal: stopped.signal })).toBe(false);
    expect(again.report().failed).toBeNull();
  });
});
