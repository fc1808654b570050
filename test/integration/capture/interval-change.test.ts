import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { claudeSession } from '../../support/transcripts.js';

// QA: a check interval saved in Settings applied only at the next start; the running schedule kept the
// old one (and Settings said so). A saved interval re-arms the running timer: the next check falls at the
// schedule's last check plus the new interval, or at once when that is already past.

const temp = coreHome('steward-interval-change-');

/** A scheduled owner's Core over a Claude Code folder holding one conversation, with `interval` saved in config.json. */
function scheduled(interval: number, env: NodeJS.ProcessEnv = {}): { core: Core; root: string } {
  const { home } = temp;
  const root = join(home.dir, 'roots', 'claude');
  claudeSession(root, 'interval-first', 2);
  writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ sweep: { interval_ms: interval } }));
  return { core: temp.open({ env: { STEWARD_CLAUDE_ROOTS: root, ...env }, schedule: true }), root };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `ready` holds, or `ms` have passed; says whether it held. */
async function within(ms: number, ready: () => Promise<boolean>): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(50)) if (await ready()) return true;
  return ready();
}

const conversations = async (core: Core) => (await core.call('Cache.Stats', {})).conversations;
const started = (core: Core) => within(10_000, async () => (await core.call('Sweep.Status', {})).lastTickAt !== null);

describe('a check interval saved in Settings applies at once', () => {
  it('a shorter interval: the running schedule checks on it, without a restart, and the reply says it applies now', async () => {
    const { core, root } = scheduled(600_000);
    expect(await started(core)).toBe(true);
    expect(await conversations(core)).toBe(1);

    const reply = await core.call('Settings.Update', { changes: { 'sweep.interval_ms': 1_000 } });
    expect(reply.appliedNow).toEqual(['sweep.interval_ms']);
    expect(reply.atNextStart).toEqual([]);
    expect(reply.config.running.sweepIntervalMs).toBe(1_000);
    const status = await core.call('Sweep.Status', {});
    expect(status.intervalMs).toBe(1_000);
    // The start-up check was moments ago: the next is due a second after it (or now, if that is past).
    expect(status.nextTickAt! - Date.now()).toBeLessThanOrEqual(1_000);

    // A conversation written after the save is imported by the schedule, not after 10 minutes.
    claudeSession(root, 'interval-second', 2);
    expect(await within(5_000, async () => (await conversations(core)) === 2)).toBe(true);
  });

  it('a longer interval: the next check moves to the last one plus the new interval, and none comes before', async () => {
    const { core, root } = scheduled(1_000);
    expect(await started(core)).toBe(true);

    await core.call('Settings.Update', { changes: { 'sweep.interval_ms': 600_000 } });
    const status = await core.call('Sweep.Status', {});
    expect(status.intervalMs).toBe(600_000);
    expect(status.nextTickAt! - Date.now()).toBeGreaterThan(590_000);
    expect(status.nextTickAt! - Date.now()).toBeLessThanOrEqual(600_000);

    const last = status.lastTickAt;
    claudeSession(root, 'interval-second', 2);
    await sleep(2_500);
    expect((await core.call('Sweep.Status', {})).lastTickAt).toBe(last);
    expect(await conversations(core)).toBe(1);
  });

  it('while STEWARD_SWEEP_INTERVAL_MS decides the interval, a saved one changes nothing until it is unset', async () => {
    const { core } = scheduled(600_000, { STEWARD_SWEEP_INTERVAL_MS: '300000' });
    expect(await started(core)).toBe(true);
    const before = (await core.call('Sweep.Status', {})).nextTickAt;

    const reply = await core.call('Settings.Update', { changes: { 'sweep.interval_ms': 1_000 } });
    expect(reply.config.saved.sweepIntervalMs).toBe(1_000);
    expect(reply.config.running.sweepIntervalMs).toBe(300_000);
    const status = await core.call('Sweep.Status', {});
    expect(status.intervalMs).toBe(300_000);
    expect(status.nextTickAt).toBe(before);
  });
});
