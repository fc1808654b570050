import { afterEach, describe, expect, it } from 'vitest';
import { AgentStoreFixture, agentStorePath } from '../../support/openclaw-store.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * An OpenClaw agent store is one file read on per session from a watermark: what it left out as older
 * than the window is kept per session, so a session read again whole (a rewrite) counts its old rows
 * once, and one read on from its watermark adds only what its new rows left out.
 */
let h: CaptureHarness | undefined;
let store: AgentStoreFixture | undefined;
afterEach(async () => {
  store?.close();
  await h?.close();
  store = undefined;
  h = undefined;
});

const DAY = 86_400_000;
const SID = '5d2e8c1a-9b3f-4a7e-8c6d-1f0e2a3b4c5d';
const at = (daysAgo: number, i: number) => new Date(Date.now() - daysAgo * DAY + i * 1_000).toISOString();
const header = JSON.stringify({ type: 'session', version: 3, id: SID, timestamp: at(100, 0), cwd: '/home/u/garden' });
const said = (id: string, daysAgo: number, i: number) => JSON.stringify({ type: 'message', id, parentId: null, timestamp: at(daysAgo, i), message: { role: 'user', content: `line ${id}`, timestamp: Date.parse(at(daysAgo, i)) } });

const olderMessages = async (c: CaptureHarness) => (await c.driver.survey()).providers.find((p) => p.provider === 'openclaw')!.olderMessages;
const counted = async (c: CaptureHarness) => {
  const survey = (await c.driver.survey()).providers.find((p) => p.provider === 'openclaw')!;
  return { messages: survey.olderMessages, uncounted: survey.olderUncounted };
};

/**
 * The store's checkpoint as a version from before the count was kept left it: its watermark with no
 * `older`, and the count not known (what gateway step 17 makes of a checkpoint from before it).
 */
function forgetCounts(c: CaptureHarness): void {
  const state = c.db.prepare("SELECT state FROM file_checkpoints WHERE provider = 'openclaw'").pluck().get() as string;
  const mark = JSON.parse(JSON.parse(state) as string) as { older?: unknown };
  expect(mark.older).toBeDefined();
  delete mark.older;
  c.db.prepare("UPDATE file_checkpoints SET state = ?, older_left_out = NULL WHERE provider = 'openclaw'").run(JSON.stringify(JSON.stringify(mark)));
}

describe('an OpenClaw store: the messages left out as older than the window', () => {
  it('adds what appended rows leave out, and counts a rewritten session once', async () => {
    h = captureHarness({ providers: { openclaw: { backfill: { window_days: 30 } } } });
    store = new AgentStoreFixture(agentStorePath(h.openclawRoot, 'main'), 'current', 'main');
    const first = [header, said('a1', 100, 1), said('a2', 100, 2), said('a3', 100, 3), said('r1', 0, -60)];
    store.append(SID, first);
    expect(byProvider(await h.driver.tick(), 'openclaw').skipped?.outside_window).toBe(3);
    expect(await olderMessages(h)).toBe(3);

    store.append(SID, [said('a4', 100, 4), said('r2', 0, -30)]);
    expect(byProvider(await h.driver.tick(), 'openclaw').skipped?.outside_window).toBe(1);
    expect(await olderMessages(h)).toBe(4);

    // A rewrite re-sequences the session: it is read again whole, its 4 old rows with it.
    store.rewrite(SID, [...first, said('a4', 100, 4), said('r2', 0, -30)]);
    expect(byProvider(await h.driver.tick(), 'openclaw').skipped?.outside_window).toBe(4);
    expect(await olderMessages(h)).toBe(4);
    await h.restart();
    expect(await olderMessages(h)).toBe(4);
  });

  it('a watermark from before the counts were kept: not counted, nor once read on from; a backfill counts it, and reads on from there add to it', async () => {
    h = captureHarness({ providers: { openclaw: { backfill: { window_days: 30 } } } });
    store = new AgentStoreFixture(agentStorePath(h.openclawRoot, 'main'), 'current', 'main');
    store.append(SID, [header, said('a1', 100, 1), said('a2', 100, 2), said('a3', 100, 3), said('r1', 0, -60)]);
    await h.driver.tick();
    expect(await counted(h)).toEqual({ messages: 3, uncounted: 0 });
    forgetCounts(h);
    await h.restart();
    expect(await counted(h)).toEqual({ messages: 0, uncounted: 1 });

    // Read on from the old watermark: the 3 it carries are not counted there, so neither is the total.
    store.append(SID, [said('a4', 100, 4), said('r2', 0, -30)]);
    expect(byProvider(await h.driver.tick(), 'openclaw').skipped?.outside_window).toBe(1);
    expect(await counted(h)).toEqual({ messages: 0, uncounted: 1 });

    // An import on request of the schedule's window reads the store whole: its checkpoint and watermark learn the count.
    await h.driver.backfill({ provider: 'openclaw' });
    expect(await counted(h)).toEqual({ messages: 4, uncounted: 0 });
    store.append(SID, [said('a5', 100, 5), said('r3', 0, -20)]);
    await h.driver.tick();
    expect(await counted(h)).toEqual({ messages: 5, uncounted: 0 });
    await h.restart();
    expect(await counted(h)).toEqual({ messages: 5, uncounted: 0 });
  });
});
