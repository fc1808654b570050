import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeLine, openclawLines, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;

describe('OpenClaw provider', () => {
  it('collapses the same entries in live files and .reset/.deleted/.full.bak archives; ignores files being written', async () => {
    h = captureHarness();
    const sessions = join(h.openclawRoot, 'agents', 'main', 'sessions');
    const lines = openclawLines('hdr-1', [{ id: 'aaaa0001' }, { id: 'aaaa0002', role: 'assistant' }, { id: 'aaaa0003', role: 'toolResult' }]);
    writeJsonl(join(sessions, 'hdr-1.jsonl'), lines);
    writeJsonl(join(sessions, 'hdr-1.jsonl.reset.2026-04-09T04-00-00Z'), lines);
    writeJsonl(join(sessions, 'hdr-1.jsonl.deleted.2026-04-10'), lines);
    writeJsonl(join(sessions, 'hdr-1.jsonl.full.bak'), lines);
    writeJsonl(join(sessions, 'hdr-1.jsonl.tmp'), openclawLines('hdr-tmp', [{ id: 'bbbb0001' }]));
    writeJsonl(join(sessions, 'hdr-1.jsonl.lock'), []);
    writeFileSync(join(sessions, 'sessions.json'), '{}');
    // Only agents/<agentId>/sessions/ holds transcripts; a stray file elsewhere is not one.
    writeJsonl(join(h.openclawRoot, 'agents', 'main', 'stray.jsonl'), openclawLines('stray', [{ id: 'eeee0001' }]));
    // The same header id under another agent is another session.
    writeJsonl(join(h.openclawRoot, 'agents', 'ops', 'sessions', 'hdr-1.jsonl'), lines);

    const stats = byProvider(await h.driver.tick(), 'openclaw');
    expect(stats).toMatchObject({ discovered: 5, read: 5, failed: 0, partsWritten: 6 });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'oc:main:hdr-1'")).toBe(3);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'oc:ops:hdr-1'")).toBe(3);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE part_id = 'oc:main:hdr-1:aaaa0003:0' AND kind = 'tool_result' AND role = 'toolResult'")).toBe(1);
    expect(h.count("SELECT COUNT(*) FROM sessions WHERE session_id LIKE 'oc:%:hdr-tmp'")).toBe(0);
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 0, unchanged: 5 });
  });

  it('a session file renamed on /reset (<id>.jsonl.reset.<ts>) takes its checkpoint: the rename reads nothing and adds nothing, after a restart too', async () => {
    h = captureHarness();
    const sessions = join(h.openclawRoot, 'agents', 'main', 'sessions');
    const live = join(sessions, 'rst-1.jsonl');
    writeJsonl(live, openclawLines('rst-1', [{ id: 'dddd0001' }, { id: 'dddd0002', role: 'assistant' }]));
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 1, partsWritten: 2 });
    const before = h.db.prepare("SELECT part_id, text FROM parts WHERE session_id = 'oc:main:rst-1' ORDER BY part_id").all();
    renameSync(live, `${live}.reset.2026-04-09T04-00-00.000Z`);

    // The same device and inode at a name that adds to the old one: its checkpoint goes with it.
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ discovered: 1, read: 0, unchanged: 1, partsWritten: 0, bytesRead: 0 });
    expect(h.db.prepare("SELECT part_id, text FROM parts WHERE session_id = 'oc:main:rst-1' ORDER BY part_id").all()).toEqual(before);
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'openclaw')).toMatchObject({ read: 0, unchanged: 1, bytesRead: 0 });
  });
});

describe('retention', () => {
  it('scheduled sweeps use the effective window, and rows removed by retention stay removed', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 30 } } } });
    const old = new Date(Date.now() - 90 * DAY);
    const file = join(h.claudeRoot, 'projects', 'p', 'mixed.jsonl');
    writeJsonl(file, [
      claudeLine({ sessionId: 'mixed', ts: old, text: 'ancient' }),
      claudeLine({ sessionId: 'mixed', ts: new Date(Date.now() - 40 * DAY), text: 'older than the window' }),
      claudeLine({ sessionId: 'mixed', ts: new Date(), text: 'fresh' }),
    ]);
    // A manual backfill of everything brings the old lines in…
    expect(byProvider(await h.driver.backfill({ all: true }), 'claude').partsWritten).toBe(3);
    // …cache maintenance removes what is older than the effective window…
    expect((await h.driver.prune({ manual: false })).removedParts).toBe(2);
    // …and scheduled sweeps never bring them back: the next one, which the manual run's checkpoint answers,
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 0, unchanged: 1 });
    // a cold one that reads the file again, or one after a change.
    h.db.exec('DELETE FROM file_checkpoints');
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 1, partsWritten: 0 });
    writeJsonl(file, [claudeLine({ sessionId: 'mixed', ts: old, text: 'ancient, copied again' }), claudeLine({ sessionId: 'mixed', text: 'new' })]);
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 1, partsWritten: 1 });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'mixed'")).toBe(2);
    expect(h.count('SELECT COUNT(*) FROM parts WHERE ts < ?', Date.now() - 30 * DAY)).toBe(0);
  });

  it('a provider window narrows the sweep; a cache retention of 0 is an open window', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } }, providers: { openclaw: { backfill: { window_days: 7 } } } });
    const ancient = new Date(Date.now() - 3_000 * DAY);
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'old.jsonl'), [claudeLine({ sessionId: 'old', ts: ancient })]);
    writeJsonl(join(h.openclawRoot, 'agents', 'main', 'sessions', 'o.jsonl'), openclawLines('o', [{ id: 'cccc0001', ts: new Date(Date.now() - 10 * DAY) }, { id: 'cccc0002' }]));
    const stats = await h.driver.tick();
    expect(byProvider(stats, 'claude').partsWritten).toBe(1);
    expect(byProvider(stats, 'openclaw').partsWritten).toBe(1);
  });
});
