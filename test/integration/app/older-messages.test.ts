import { copyFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../core/api/index.js';
import type { Core } from '../../../core/core.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { coreHome } from '../../support/core.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Providers.Survey `olderMessages`: what the imports left out as older than the window, from files
 * changed within it. Kept per file on its checkpoint, so a file read again from its start counts its
 * old lines once, and the count outlives the telemetry a restart would have read it back from.
 */
const DAY = 86_400_000;
const temp = coreHome('steward-older-messages-');

/** Claude's window in days, as config.json holds it (read at the next open). */
function windowDays(days: number): void {
  writeFileSync(join(temp.home.dir, 'config.json'), JSON.stringify({ providers: { claude: { backfill: { window_days: days } } } }));
}

function open(days = 30): Core {
  windowDays(days);
  const claude = join(temp.home.dir, 'roots', 'claude');
  return temp.open({ env: { STEWARD_CLAUDE_ROOTS: claude }, logger: createMemoryLogger() });
}

async function restart(days = 30): Promise<Core> {
  await temp.close();
  return open(days);
}

const transcript = () => join(temp.home.dir, 'roots', 'claude', 'projects', 'p', 'restored.jsonl');
const old = (n: number) => Array.from({ length: n }, (_, i) => claudeLine({ sessionId: 'restored', ts: new Date(Date.now() - 100 * DAY + i * 60_000), text: `old ${i}` }));
const recent = (text = 'recent') => claudeLine({ sessionId: 'restored', ts: new Date(Date.now() - 60_000), text });

async function olderMessages(core: Core, provider: ProviderId = 'claude'): Promise<number> {
  const survey = await core.call('Providers.Survey', {});
  return survey.providers.find((p) => p.provider === provider)!.olderMessages;
}

describe('the messages the imports left out as older than the window', () => {
  it('counts a file rewritten whole (copy and rename: a new inode, read again from its start) once', async () => {
    writeJsonl(transcript(), [...old(3), recent()]);
    const core = open();
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(3);

    // An atomic rewrite with one more line: the tick reads the whole file again, its 3 old lines with it.
    const copy = `${transcript()}.tmp`;
    copyFileSync(transcript(), copy);
    appendJsonl(copy, [recent('another')]);
    renameSync(copy, transcript());
    const tick = (await core.call('Sweep.Tick', {})).providers.find((p) => p.provider === 'claude')!;
    expect(tick.skipped?.outside_window).toBe(3);
    expect(await olderMessages(core)).toBe(3);
  });

  it('counts them once when a wider window at the next start has the file read again', async () => {
    writeJsonl(transcript(), [...old(3), recent()]);
    let core = open(30);
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(3);

    // 60 days still leave the lines of 100 days ago out; the file is read again from its start.
    core = await restart(60);
    const tick = (await core.call('Sweep.Tick', {})).providers.find((p) => p.provider === 'claude')!;
    expect(tick.read).toBe(1);
    expect(await olderMessages(core)).toBe(3);
    // A window that holds them brings them in: nothing is left out.
    core = await restart(365);
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(0);
  });

  it('adds what appended lines leave out, and keeps the count across a restart after telemetry was trimmed', async () => {
    writeJsonl(transcript(), [...old(3), recent()]);
    let core = open();
    await core.call('Sweep.Tick', {});
    appendJsonl(transcript(), [...old(2), recent('appended')]);
    const tick = (await core.call('Sweep.Tick', {})).providers.find((p) => p.provider === 'claude')!;
    expect(tick.skipped?.outside_window).toBe(2);
    expect(await olderMessages(core)).toBe(5);

    // Telemetry keeps 5,000 rows of every kind: the ticks that read the file are trimmed away.
    for (let i = 0; i < 5_100; i += 1) core.telemetry.record('sweep.tick', { kind: 'scheduled', unchanged: true, files: 1, durationMs: 1, providers: [] });
    expect(core.telemetry.recent(5_000, 'sweep.tick').some((e) => Array.isArray(e.data.providers) && e.data.providers.length > 0)).toBe(false);
    core = await restart();
    expect(await olderMessages(core)).toBe(5);
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(5);
    appendJsonl(transcript(), old(1));
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(6);
  });

  it('is none once everything was imported, and a narrower import on request changes nothing', async () => {
    writeJsonl(transcript(), [...old(3), recent()]);
    let core = open();
    await core.call('Sweep.Tick', {});
    // The last 7 days: narrower than the schedule's 30, which already vouches for the file.
    await core.call('Backfill.Run', { provider: 'claude', days: 7 });
    expect(await olderMessages(core)).toBe(3);
    await core.call('Backfill.Run', { provider: 'claude', all: true });
    expect(await olderMessages(core)).toBe(0);
    core = await restart();
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(0);
    // History restored later is counted again: its own old lines, nothing from before.
    writeJsonl(join(transcript(), '..', 'later.jsonl'), [...old(2).map((l) => ({ ...l, sessionId: 'later' })), recent()]);
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(2);
  });

  it('leaves aside a file read with a narrower window than the schedule, which the next tick reads again', async () => {
    writeJsonl(transcript(), [...old(3), claudeLine({ sessionId: 'restored', ts: new Date(Date.now() - 20 * DAY), text: 'within 30 days' }), recent()]);
    const core = open(30);
    // Read first by an import of the last 7 days: 4 lines left out, one of which the schedule's 30 days hold.
    const narrow = (await core.call('Backfill.Run', { provider: 'claude', days: 7 })).providers.find((p) => p.provider === 'claude')!;
    expect(narrow.skipped?.outside_window).toBe(4);
    expect(await olderMessages(core)).toBe(0);
    await core.call('Sweep.Tick', {});
    expect(await olderMessages(core)).toBe(3);
  });
});
