import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreHome } from '../../support/core.js';
import { claudeSession } from '../../support/transcripts.js';

// QA: a check asked for by hand (Sweep.Tick: the panel's Check now and Import now, `steward sweep`) left
// the schedule's timer where it was, so the next scheduled check could run seconds after it. Once it
// ends, the schedule counts from it: the next check at its end plus the interval.

const temp = coreHome('steward-manual-check-');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a check asked for by hand moves the schedule', () => {
  it('the next scheduled check falls an interval after the manual one, not at the start plus the interval', async () => {
    const root = join(temp.home.dir, 'roots', 'claude');
    claudeSession(root, 'manual-first', 2);
    const core = temp.open({ env: { STEWARD_CLAUDE_ROOTS: root, STEWARD_SWEEP_INTERVAL_MS: '600000' }, schedule: true });
    for (let i = 0; i < 200 && (await core.call('Sweep.Status', {})).lastTickAt === null; i++) await sleep(50);
    const before = await core.call('Sweep.Status', {});
    expect(before.nextTickAt).not.toBeNull();

    await sleep(300);
    await core.call('Sweep.Tick', {});
    const after = await core.call('Sweep.Status', {});
    expect(after.lastCheckAt).not.toBeNull();
    expect(after.lastCheckAt!).toBeGreaterThanOrEqual(before.nextTickAt! - 600_000 + 300);
    // Counted from the manual check's end (a moment after Sweep.Status's lastCheckAt is recorded).
    expect(after.nextTickAt! - after.lastCheckAt!).toBeGreaterThanOrEqual(600_000);
    expect(after.nextTickAt! - after.lastCheckAt!).toBeLessThan(600_000 + 1_000);
    expect(after.nextTickAt!).toBeGreaterThan(before.nextTickAt!);
  });
});

// An "Import everything" (Backfill.Run of every enabled agent) is a check as Sweep.Status tells it
// (lastCheckAt), so the schedule counts from its end as from a check by hand; an import of one agent
// while others are on is no check, and leaves the schedule where it was.
describe('an import of everything moves the schedule as a check does', () => {
  /** An owner's Core whose first scheduled tick has run; two agents on, so one alone is not everything. */
  async function scheduled() {
    const root = join(temp.home.dir, 'roots', 'claude');
    claudeSession(root, 'import-first', 2);
    const codex = join(temp.home.dir, 'roots', 'codex');
    const core = temp.open({ env: { STEWARD_CLAUDE_ROOTS: root, STEWARD_CODEX_ROOTS: codex, STEWARD_SWEEP_INTERVAL_MS: '600000' }, schedule: true });
    for (let i = 0; i < 200 && (await core.call('Sweep.Status', {})).lastTickAt === null; i++) await sleep(50);
    const before = await core.call('Sweep.Status', {});
    expect(before.nextTickAt).not.toBeNull();
    await sleep(300);
    return { core, before };
  }

  it('the next scheduled check falls an interval after the import’s end', async () => {
    const { core, before } = await scheduled();
    await core.call('Backfill.Run', { all: true });
    const after = await core.call('Sweep.Status', {});
    expect(after.lastCheckAt!).toBeGreaterThanOrEqual(before.nextTickAt! - 600_000 + 300);
    expect(after.nextTickAt! - after.lastCheckAt!).toBeGreaterThanOrEqual(600_000);
    expect(after.nextTickAt! - after.lastCheckAt!).toBeLessThan(600_000 + 1_000);
    expect(after.nextTickAt!).toBeGreaterThan(before.nextTickAt!);
  });

  it('an import of one agent is no check: the schedule stays', async () => {
    const { core, before } = await scheduled();
    await core.call('Backfill.Run', { provider: 'claude', all: true });
    const after = await core.call('Sweep.Status', {});
    expect(after.lastCheckAt).toBe(before.lastCheckAt);
    expect(after.nextTickAt).toBe(before.nextTickAt);
  });
});
