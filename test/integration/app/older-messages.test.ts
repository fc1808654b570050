import { copyFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../core/api/index.js';
import type { Core } from '../../../core/core.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { openDatabase } from '../../../core/store/index.js';
import { everythingWords, olderWords } from '../../../renderer/src/places/home/window.js';
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

/** What Home's first run says about the older messages: the listing's sentence and the "Everything" choice, from the survey. */
async function homeWords(core: Core): Promise<{ messages: number; uncounted: number; listing: string; everything: string }> {
  const survey = await core.call('Providers.Survey', {});
  const sum = (f: (p: (typeof survey.providers)[number]) => number) => survey.providers.reduce((n, p) => n + f(p), 0);
  const [files, older, messages, uncounted] = [sum((p) => p.files), sum((p) => p.older.files), sum((p) => p.olderMessages), sum((p) => p.olderUncounted)];
  return { messages, uncounted, listing: olderWords(files, older, messages, uncounted), everything: everythingWords(older, 0, undefined, 0, messages, uncounted) };
}

/** Takes gateway.db back to the schema of step 15 (before the count was kept), as a store of that version holds its checkpoints. */
function downgrade(): void {
  const db = openDatabase(join(temp.home.dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS });
  db.exec('ALTER TABLE file_checkpoints DROP COLUMN older_left_out');
  db.pragma('user_version = 15');
  db.close();
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

describe('checkpoints written before the count of older messages was kept (a store upgraded from step 15)', () => {
  it('says their older messages are not counted yet, keeps saying so across ticks, and a backfill counts them exactly', async () => {
    writeJsonl(transcript(), [...old(3), recent()]);
    let core = open();
    await core.call('Sweep.Tick', {});
    await temp.close();
    downgrade();

    // Upgraded: nothing is read again, and the count is not known (it said 0, and Home "all imported").
    core = open();
    const tick = (await core.call('Sweep.Tick', {})).providers.find((p) => p.provider === 'claude')!;
    expect(tick.read).toBe(0);
    let words = await homeWords(core);
    expect(words).toMatchObject({ messages: 0, uncounted: 1 });
    expect(words.listing).toContain('Steward has not counted the older messages of 1 file yet');
    expect(words.everything).toBe('Everything: also import any older messages in the 1 file Steward has not counted yet');
    expect(words.everything).not.toContain('all there is has been imported');

    // Lines appended: the tick reads on from the checkpoint, and what it adds to is still not known.
    appendJsonl(transcript(), [...old(2), recent('appended')]);
    expect((await core.call('Sweep.Tick', {})).providers.find((p) => p.provider === 'claude')!.skipped?.outside_window).toBe(2);
    expect(await homeWords(core)).toMatchObject({ messages: 0, uncounted: 1 });
    core = await restart();
    await core.call('Sweep.Tick', {});
    expect(await homeWords(core)).toMatchObject({ messages: 0, uncounted: 1 });

    // An import on request of the schedule's window reads the file whole: the checkpoint it vouches for learns its count.
    await core.call('Backfill.Run', { provider: 'claude' });
    words = await homeWords(core);
    expect(words).toMatchObject({ messages: 5, uncounted: 0 });
    expect(words.listing).not.toContain('not counted');
    expect(words.everything).toBe('Everything: also import up to 5 older messages in files changed within the window');
    // Kept: a restart, and a tick reading on from it, add to a known count.
    core = await restart();
    await core.call('Sweep.Tick', {});
    expect(await homeWords(core)).toMatchObject({ messages: 5, uncounted: 0 });
    appendJsonl(transcript(), old(1));
    await core.call('Sweep.Tick', {});
    expect(await homeWords(core)).toMatchObject({ messages: 6, uncounted: 0 });
  });

  it('keeps a checkpoint read with no window counted (nothing is older than it), and a narrower import does not count an unknown one', async () => {
    writeJsonl(transcript(), [...old(3), recent()]);
    let core = open();
    await core.call('Backfill.Run', { provider: 'claude', all: true });
    writeJsonl(join(transcript(), '..', 'other.jsonl'), [...old(2).map((l) => ({ ...l, sessionId: 'other' })), recent()]);
    await core.call('Sweep.Tick', {});
    await temp.close();
    downgrade();
    core = open();
    // The file read whole is known to leave nothing out; the other is not known.
    expect(await homeWords(core)).toMatchObject({ messages: 0, uncounted: 1 });
    // The last 7 days reach back less far than the checkpoint's 30: its count would say too much.
    await core.call('Backfill.Run', { provider: 'claude', days: 7 });
    expect(await homeWords(core)).toMatchObject({ messages: 0, uncounted: 1 });
    await core.call('Backfill.Run', { provider: 'claude', days: 30 });
    expect(await homeWords(core)).toMatchObject({ messages: 2, uncounted: 0 });
  });
});

describe('a file read last by an import narrower than the schedule (until the next tick)', () => {
  it('is said not counted yet, never "all imported", and the next tick counts it', async () => {
    writeJsonl(transcript(), [...old(3), claudeLine({ sessionId: 'restored', ts: new Date(Date.now() - 20 * DAY), text: 'within 30 days' }), recent()]);
    // A file with nothing older than 7 days: a narrower read that left nothing out leaves nothing to count.
    writeJsonl(join(transcript(), '..', 'fresh.jsonl'), [recent('fresh')].map((l) => ({ ...l, sessionId: 'fresh' })));
    const core = open(30);
    await core.call('Backfill.Run', { provider: 'claude', days: 7 });
    const words = await homeWords(core);
    expect(words).toMatchObject({ messages: 0, uncounted: 1 });
    expect(words.listing).toBe('every one was last changed within the window; Steward has not counted the older messages of 1 file yet (imported before it kept that count, by a narrower import, or removed by a clean-up since); importing everything brings in any there are');
    expect(words.everything).not.toContain('all there is has been imported');
    await core.call('Sweep.Tick', {});
    expect(await homeWords(core)).toMatchObject({ messages: 3, uncounted: 0 });
  });
});

describe('a message copied into several files (a resumed session carries the one it resumed)', () => {
  it('counts in each file, so the words say "up to", and importing everything writes fewer', async () => {
    const lines = old(3);
    writeJsonl(transcript(), [...lines, recent()]);
    // The resumed session's file starts with the same 3 messages (same ids), then goes on.
    writeJsonl(join(transcript(), '..', 'resumed.jsonl'), [...lines, recent('resumed')]);
    const core = open();
    await core.call('Sweep.Tick', {});
    const words = await homeWords(core);
    expect(words.messages).toBe(6);
    expect(words.listing).toContain('but up to 6 messages in them are older than the window and were not imported (a message copied into several files');
    expect(words.everything).toBe('Everything: also import up to 6 older messages in files changed within the window');
    const all = (await core.call('Backfill.Run', { provider: 'claude', all: true })).providers.find((p) => p.provider === 'claude')!;
    expect(all.messagesWritten).toBe(3);
  });
});
