import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderStats } from '../../../core/backfill/index.js';
import { Core } from '../../../core/index.js';
import { claudeSession } from '../../support/transcripts.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { captureHarness, type CaptureHarness } from './harness.js';

interface Told {
  kind: 'scheduled' | 'manual';
  providers: ProviderStats[];
}

let h: CaptureHarness | undefined;
let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  await h?.close();
  home?.cleanup();
  core = undefined;
  h = undefined;
  home = undefined;
});

async function waitFor(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const claudeParts = (providers: readonly { provider: string; partsWritten?: number }[] | undefined) => providers?.find((p) => p.provider === 'claude')?.partsWritten ?? 0;

describe('every check is recorded once, whoever starts it', () => {
  it('a check the timer starts sets lastTickAt, writes its sweep.tick row and tells the listener', async () => {
    const told: Told[] = [];
    h = captureHarness({ sweep: { interval_ms: 1_000 } }, { onTick: (providers, kind) => told.push({ kind, providers }) });
    h.driver.start();
    await waitFor(() => told.length >= 1);
    const startup = h.driver.status().lastTickAt;
    expect(startup).not.toBeNull();

    // Only the timer ticks from here on: the start-up check has settled and nothing calls tick().
    const written = Date.now();
    claudeSession(h.claudeRoot, 'timer-session', 2);
    await waitFor(() => told.some((t) => claudeParts(t.providers) > 0));
    const byTimer = told.find((t) => claudeParts(t.providers) > 0)!;
    expect(byTimer.kind).toBe('scheduled');
    expect(claudeParts(byTimer.providers)).toBe(2);
    expect(h.driver.status().lastTickAt).toBeGreaterThanOrEqual(written);

    const telemetry = h.telemetry;
    await waitFor(() => telemetry.recent(50, 'sweep.tick').some((row) => claudeParts(row.data.providers as ProviderStats[]) === 2));
    await h.driver.stop();
    // Once each: as many rows as the listener heard of checks, the start-up one and the timer's.
    await waitFor(() => telemetry.recent(50, 'sweep.tick').length === told.length);
    expect(told.length).toBeGreaterThanOrEqual(2);
  });

  it('a check that only awaits one already in flight is that check: one row, one event', async () => {
    const told: Told[] = [];
    h = captureHarness({}, { onTick: (providers, kind) => told.push({ kind, providers }) });
    claudeSession(h.claudeRoot, 'joined-session', 2);
    const [first, joined] = await Promise.all([h.driver.tick(), h.driver.tick()]);
    expect(joined).toEqual(first);
    expect(told).toHaveLength(1);
    await waitFor(() => h!.telemetry.recent(10, 'sweep.tick').length >= 1);
    expect(h.telemetry.recent(10, 'sweep.tick')).toHaveLength(1);
  });
});

describe('a timer check through the Core', () => {
  it('is what Sweep.Status, Telemetry.Recent and the panel\'s sweep.tick event report', async () => {
    home = tempHome('steward-timer-tick-');
    const claudeRoot = join(home.dir, 'roots', 'claude');
    mkdirSync(claudeRoot, { recursive: true });
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: claudeRoot, STEWARD_SWEEP_INTERVAL_MS: '1000' }, schedule: true });
    const events: Told[] = [];
    core.events.subscribe((name, payload) => name === 'sweep.tick' && events.push(payload as Told));
    const c = core;
    await waitFor(() => c.capture.status().lastTickAt !== null);

    const written = Date.now();
    claudeSession(claudeRoot, 'panel-session', 2);
    await waitFor(() => events.some((e) => claudeParts(e.providers) === 2));
    const status = (await c.call('Sweep.Status', {})) as { lastTickAt: number | null };
    expect(status.lastTickAt).toBeGreaterThanOrEqual(written);
    await waitFor(() => c.telemetry.recent(50, 'sweep.tick').some((row) => claudeParts(row.data.providers as ProviderStats[]) === 2));
  });
});
