import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { formatUnforget } from '../../../core/cli/commands/unforget.js';
import { IDS, ORCHARD, SUBAGENT_SESSION, historyOwnerPerTest, type HistoryFixture } from '../../support/history.js';
import { appendJsonl, claudeLine } from '../../support/transcripts.js';

/**
 * Unforget brings a conversation or project back at the next scheduled check, through the real capture
 * path: the files that held what the forget withheld are read again from their start (their checkpoints
 * dropped), within the scheduled window; a file older than it waits for Import earlier history.
 */

const DAY = 86_400_000;
const owner = historyOwnerPerTest();

const pruningFile = (fixture: HistoryFixture) => join(fixture.claudeRoot, 'projects', '-work-orchard', `${IDS.pruning}.jsonl`);
const claudeOf = (tick: Awaited<ReturnType<Core['call']>>) => (tick as { providers: Array<{ provider: string; partsWritten: number; withheld?: { forgotten: number } }> }).providers.find((p) => p.provider === 'claude')!;
const partsOf = (c: Core, sessionId: string) => c.gateway.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck().get(sessionId) as number;

/** A user line the pruning conversation gains after it was forgotten: a tick then reads its file and withholds it. */
function appendTurn(fixture: HistoryFixture): void {
  appendJsonl(pruningFile(fixture), [claudeLine({ sessionId: IDS.pruning, cwd: ORCHARD, text: 'And the pear trees?' })]);
}

describe('unforgetting brings it back at the next scheduled check', () => {
  it('a conversation whose file stays unchanged', async () => {
    const { c } = owner.open('steward-unforget-tick-');
    await c.call('Sweep.Tick', {});
    const before = partsOf(c, IDS.pruning);
    expect(before).toBeGreaterThan(0);
    const forgotten = await c.call('Forget.Session', { sessionId: IDS.pruning });
    expect(claudeOf(await c.call('Sweep.Tick', {})).partsWritten).toBe(0);

    const lifted = await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning });
    expect(lifted).toEqual({ lifted: true, nextCheck: 'all' });
    expect(formatUnforget(lifted, { kind: 'session', id: IDS.pruning }, 'conversation id')).toContain('next check');

    const tick = claudeOf(await c.call('Sweep.Tick', {}));
    expect(tick.partsWritten).toBe(forgotten.removedParts);
    expect(partsOf(c, IDS.pruning)).toBe(before);
    expect((await c.call('Sessions.Get', { sessionId: IDS.pruning })).session.sessionId).toBe(IDS.pruning);
    // Read through again: the tick after finds it unchanged.
    expect(claudeOf(await c.call('Sweep.Tick', {})).partsWritten).toBe(0);
  });

  it('a conversation whose file a tick read and withheld after the forget', async () => {
    const { c, fixture } = owner.open('steward-unforget-withheld-');
    await c.call('Sweep.Tick', {});
    const before = partsOf(c, IDS.pruning);
    await c.call('Forget.Session', { sessionId: IDS.pruning });
    appendTurn(fixture);
    const withheld = claudeOf(await c.call('Sweep.Tick', {}));
    expect(withheld.partsWritten).toBe(0);
    expect(withheld.withheld?.forgotten).toBe(1);

    expect(await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning })).toEqual({ lifted: true, nextCheck: 'all' });
    const tick = claudeOf(await c.call('Sweep.Tick', {}));
    expect(partsOf(c, IDS.pruning)).toBe(before + 1);
    expect(tick.partsWritten).toBeGreaterThan(1);
  });

  it('a project, with its conversations and their subagents', async () => {
    const { c } = owner.open('steward-unforget-project-tick-');
    await c.call('Sweep.Tick', {});
    const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
    const sessionsBefore = (await c.call('Sessions.List', { projectKey: orchard.projectKey })).sessions.map((s) => s.sessionId);
    const partsBefore = c.gateway.prepare('SELECT COUNT(*) FROM parts').pluck().get() as number;
    const forgotten = await c.call('Forget.Project', { projectKey: orchard.projectKey });
    expect(forgotten.removedParts).toBeGreaterThan(0);
    expect(claudeOf(await c.call('Sweep.Tick', {})).partsWritten).toBe(0);

    const lifted = await c.call('Forget.Lift', { kind: 'project', id: orchard.projectKey });
    expect(lifted).toEqual({ lifted: true, nextCheck: 'all' });
    expect(formatUnforget(lifted, { kind: 'project', id: orchard.projectKey }, 'project key')).toContain('next check');

    expect(claudeOf(await c.call('Sweep.Tick', {})).partsWritten).toBe(forgotten.removedParts);
    expect((await c.call('Sessions.List', { projectKey: orchard.projectKey })).sessions.map((s) => s.sessionId)).toEqual(sessionsBefore);
    expect(c.gateway.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(partsBefore);
  });

  it('a conversation older than the window is not read by the tick (its subagent, inside it, is): Import earlier history brings it back', async () => {
    const { c, fixture } = owner.open('steward-unforget-older-');
    // Its file last written 400 days ago: the regular checks (a year) leave it out, an import of everything reads it.
    const old = new Date(Date.now() - 400 * DAY);
    utimesSync(pruningFile(fixture), old, old);
    await c.call('Backfill.Run', { all: true });
    await c.call('Forget.Session', { sessionId: IDS.pruning });

    // Its subagent's file is inside the window: that much comes back at the next check.
    const lifted = await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning });
    expect(lifted).toEqual({ lifted: true, nextCheck: 'part' });
    expect(formatUnforget(lifted, { kind: 'session', id: IDS.pruning }, 'conversation id')).toContain('`steward backfill --all` imports the rest, which is older');

    expect(claudeOf(await c.call('Sweep.Tick', {})).partsWritten).toBe(partsOf(c, SUBAGENT_SESSION));
    expect(partsOf(c, SUBAGENT_SESSION)).toBeGreaterThan(0);
    expect(partsOf(c, IDS.pruning)).toBe(0);
    await c.call('Backfill.Run', { all: true });
    expect(partsOf(c, IDS.pruning)).toBeGreaterThan(0);
  });
});
