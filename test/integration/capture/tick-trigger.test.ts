import { afterEach, describe, expect, it } from 'vitest';
import { claudeSession } from '../../support/transcripts.js';
import { captureHarness, type CaptureHarness } from './harness.js';

// Panel QA: "Check now" (Sweep.Tick) showed in Telemetry as a "Scheduled check": a tick's row did not
// say who started it. It says so now (`trigger`), for a compact row as for a full one.

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function waitFor(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a tick row says who started it', () => {
  it('the start-up tick is the schedule’s; a check by hand (Sweep.Tick) is by hand, changed or unchanged', async () => {
    h = captureHarness();
    const telemetry = h.telemetry;
    h.driver.start();
    await waitFor(() => telemetry.recent(10, 'sweep.tick').length >= 1);
    // The schedule's row leaves `trigger` out: a row without it reads as scheduled (renderer/src/places/telemetry/ticks.ts).
    expect(telemetry.recent(10, 'sweep.tick')[0]!.data).not.toHaveProperty('trigger');

    claudeSession(h.claudeRoot, 'hand-session', 2);
    await h.driver.tick();
    await waitFor(() => telemetry.recent(10, 'sweep.tick').length >= 2);
    const changed = telemetry.recent(10, 'sweep.tick')[0]!;
    expect(changed.data.unchanged).toBeUndefined();
    expect(changed.data.trigger).toBe('hand');

    await h.driver.tick();
    await waitFor(() => telemetry.recent(10, 'sweep.tick').length >= 3);
    const unchanged = telemetry.recent(10, 'sweep.tick')[0]!;
    expect(unchanged.data).toMatchObject({ unchanged: true, trigger: 'hand' });
    await h.driver.stop();
  });
});
