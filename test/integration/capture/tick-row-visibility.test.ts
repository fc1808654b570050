import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TelemetryEntry } from '../../../core/api/index.js';
import { Checkpointer } from '../../../core/gateway/index.js';
import { coreHome } from '../../support/core.js';
import { claudeSession, desktopSession } from '../../support/transcripts.js';

// CI (2 cores, loaded) once showed, after a Sweep.Tick that found both sessions unchanged, the owner's
// start-up check ("10 new messages; 2 files read") as the Telemetry place's newest row. The rows are
// recorded in order (test/unit/capture/tick-order.test.ts); what lags is the Sweep.Tick row's visibility:
// TelemetryLog holds a row back while the WAL checkpoint thread holds the disk (retried every 25 ms),
// and the tick's `sweep.tick` event, on which the panel reloads Telemetry.Recent, is sent at once: so
// Telemetry.Recent lists held rows too. The checkpoint thread runs every second after the start-up
// import's commits, so a Sweep.Tick soon after start can land in one of its checkpoints.

const temp = coreHome('steward-tick-row-');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a tick's telemetry row and its sweep.tick event", () => {
  it('the row is readable when the event that tells of it is sent, even while a checkpoint holds the disk', async () => {
    const roots = join(temp.home.dir, 'roots');
    claudeSession(join(roots, 'claude'), 'e2e-session', 6, { cwd: '/work/e2e-project' });
    desktopSession(join(roots, 'desktop'), 'e2e-desktop', 4);
    const empty = { STEWARD_OPENCLAW_ROOTS: '', STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '' };
    const core = temp.open({ env: { STEWARD_CLAUDE_ROOTS: join(roots, 'claude'), STEWARD_CLAUDE_DESKTOP_ROOTS: join(roots, 'desktop'), ...empty }, schedule: true });
    while ((await core.call('Sweep.Status', {})).lastTickAt === null) await sleep(10);
    const startUp = core.telemetry.recent(1)[0]!;
    expect((startUp.data.providers as unknown[])[0]).toMatchObject({ provider: 'claude', discovered: 2, read: 2, messagesWritten: 10 });

    // What the panel's reload on the event would list first.
    let newestAtEvent: TelemetryEntry | undefined;
    const off = core.events.subscribe((name) => {
      if (name === 'sweep.tick') newestAtEvent = core.telemetry.recent(1)[0];
    });
    // The checkpoint thread's hold on the disk, taken here so the moment is certain.
    const gate = Checkpointer.of(core.gateway);
    while (!gate.enter()) await sleep(1);
    let result;
    try {
      result = await core.call('Sweep.Tick', {});
    } finally {
      gate.leave();
      off();
    }
    expect(result.providers[0]).toMatchObject({ provider: 'claude', discovered: 2, read: 0, unchanged: 2 });
    // The row was recorded after the start-up row, and is written a moment later...
    await sleep(60);
    expect(core.telemetry.recent(1)[0]).toMatchObject({ kind: 'sweep.tick', data: { unchanged: true, files: 2 } });
    expect(core.telemetry.recent(1)[0]!.id).toBeGreaterThan(startUp.id);
    // ...and when its event was sent, it was already the newest row listed, with the id it was then written with.
    expect(newestAtEvent).toEqual(core.telemetry.recent(1)[0]);
  });
});
