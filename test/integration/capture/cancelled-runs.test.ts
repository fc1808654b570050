import { utimesSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderSweepStats } from '../../../core/api/index.js';
import { newRunToken, runBackfillProvider } from '../../../core/backfill/index.js';
import { runCli } from '../../../core/cli/index.js';
import { formatSweepResult, sweepExit } from '../../../core/cli/commands/sweep.js';
import { CommitWindow, Materializer, Sink, Spool } from '../../../core/gateway/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import type { TranscriptProvider } from '../../../core/transcripts/index.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { captureIo as io } from '../../support/cli.js';
import { tempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';
import { byProvider, captureHarness, inLastHour, type CaptureHarness } from './harness.js';

const DAY = 86_400_000;

let h: CaptureHarness;
beforeEach(() => {
  h = captureHarness();
});
afterEach(async () => {
  await h.close();
});

/** Every listed file lands in exactly one bucket (no listing failed in these tests). */
function buckets(p: ProviderSweepStats): number {
  return p.read + p.unchanged + (p.outsideWindow ?? 0) + (p.vanished ?? 0) + p.failed + (p.notReached ?? 0);
}

/** Session files under `root` (the harness's by default); with `daysAgo`, stamped that far back, lines and mtime. */
function sessions(n: number, opts: { daysAgo?: number; parts?: number; root?: string } = {}): string[] {
  return Array.from({ length: n }, (_, i) => {
    const ts = opts.daysAgo === undefined ? inLastHour(i % 50) : new Date(Date.now() - opts.daysAgo * DAY);
    const file = claudeSession(opts.root ?? h.claudeRoot, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, opts.parts ?? 4, { ts });
    if (opts.daysAgo !== undefined) utimesSync(file, ts, ts);
    return file;
  });
}

/** `provider`, except that starting to read `target` cancels the run: the cancel lands mid-file. */
function cancellingAt(provider: TranscriptProvider, target: string, controller: AbortController): TranscriptProvider {
  return {
    id: provider.id,
    parserVersion: provider.parserVersion,
    discover: (signal) => provider.discover(signal),
    read(file, options, stats) {
      if (file.path === target) controller.abort();
      return provider.read(file, options, stats);
    },
  };
}

describe('a cancelled backfill says so', () => {
  it('a cancel mid-run: the files before it are counted, the rest are not reached, and the buckets add up', async () => {
    sessions(10);
    const inner = new ClaudeProvider({ roots: [h.claudeRoot], desktopRoots: [] });
    const order = (await inner.discover()).files.map((f) => f.path);
    const controller = new AbortController();
    const sink = new Sink(h.db, h.projects);
    const deps = { materializer: new Materializer(h.db, new Spool(h.db), sink), sink, commits: new CommitWindow(h.db), fingerprints: h.driver.fingerprints, logger: createMemoryLogger() };
    const ctx = { token: newRunToken(), scheduled: false, windowStartMs: null, maxLineBytes: 1 << 20, signal: controller.signal };
    const stats = await runBackfillProvider(cancellingAt(inner, order[4]!, controller), deps, ctx);

    // Four files read through; the fifth was stopped in, and five were never opened. notReached counts
    // the fifth with those five: it was not read to its end, so it is not counted read.
    expect(stats).toMatchObject({ discovered: 10, read: 4, unchanged: 0, outsideWindow: 0, failed: 0, cancelled: true, notReached: 6 });
    expect(buckets(stats)).toBe(stats.discovered);
    // What the fifth committed before the cancel stays; the five never opened wrote nothing.
    const partsOf = order.map((file) => h.count('SELECT count(*) FROM parts WHERE session_id = ?', basename(file, '.jsonl')));
    expect(partsOf.slice(0, 4)).toEqual([4, 4, 4, 4]);
    expect(partsOf[4]).toBeGreaterThan(0);
    expect(partsOf.slice(5)).toEqual([0, 0, 0, 0, 0]);
    expect(formatSweepResult({ providers: [stats] })).toMatch(/^claude: cancelled after 4 of 10 transcript files, 4 read; \d+ new messages/);
    // The CLI's exit code says the run did not do all it was asked, as a failed file does; a whole run exits 0.
    expect(sweepExit({ providers: [stats] })).toBe(1);
    expect(sweepExit({ providers: [{ ...stats, cancelled: undefined, notReached: undefined, read: 10 }] })).toBe(0);
    expect(sweepExit({ providers: [{ ...stats, cancelled: undefined, notReached: undefined, read: 9, failed: 1 }] })).toBe(1);
  });

  it('a backfill cancelled while running reports cancelled, adds up, and telemetry records the cancellation', async () => {
    sessions(60, { parts: 400 });
    const run = h.driver.backfill({ provider: 'claude', all: true });
    // Cancelled once the first rows have landed: the run is inside its files, far from their end.
    while (h.count('SELECT count(*) FROM parts') === 0) await new Promise((r) => setTimeout(r, 1));
    expect(h.driver.cancelBackfills()).toBe(1);
    const [claude] = await run;

    expect(claude).toMatchObject({ provider: 'claude', discovered: 60, cancelled: true, failed: 0 });
    expect(claude!.notReached).toBeGreaterThan(0);
    expect(buckets(claude!)).toBe(60);
    const done = 60 - claude!.notReached!;
    expect(formatSweepResult({ providers: [claude!] })).toContain(`claude: cancelled after ${done} of 60 transcript files`);

    const [row] = h.telemetry.recent(1, 'backfill.run');
    expect(row!.data).toMatchObject({ kind: 'manual', cancelled: true, providers: [{ provider: 'claude', cancelled: true, notReached: claude!.notReached }] });
  });

  it('a queued backfill cancelled before it started says so, never "no transcript files found"', async () => {
    sessions(3);
    const run = h.driver.backfill({ provider: 'all', all: true });
    expect(h.driver.cancelBackfills()).toBeGreaterThan(1);
    const providers = await run;

    expect(providers.map((p) => p.provider)).toEqual(['claude', 'openclaw', 'codex', 'gemini']);
    for (const p of providers) {
      expect(p).toMatchObject({ cancelled: true, failed: 0, partsWritten: 0 });
      expect(buckets(p)).toBe(p.discovered);
    }
    // The queued ones never listed their folders: they found nothing because they never looked.
    expect(byProvider(providers, 'openclaw')).toMatchObject({ discovered: 0, notReached: 0 });
    const text = formatSweepResult({ providers });
    expect(text).not.toContain('no transcript files found');
    expect(text).toMatch(/^openclaw: cancelled before any transcript file was listed \(\d+ ms\)$/m);
    const [row] = h.telemetry.recent(1, 'backfill.run');
    expect(row!.data).toMatchObject({ kind: 'manual', cancelled: true });
  });

  it('a queued run settled by stop() has the same shape as a cancelled one', async () => {
    sessions(3);
    const run = h.driver.backfill({ provider: 'all', all: true });
    await h.driver.stop();
    const providers = await run;
    expect(byProvider(providers, 'gemini')).toEqual({ provider: 'gemini', discovered: 0, read: 0, unchanged: 0, failed: 0, partsWritten: 0, durationMs: 0, failedLines: 0, cancelled: true, notReached: 0 });
    expect(providers.every((p) => p.cancelled && p.failed === 0 && !p.errors?.length)).toBe(true);
  });
});

describe('files older than the window', () => {
  it('are counted as outside the window, never as unchanged, by a backfill and by a scheduled tick', async () => {
    sessions(1, { daysAgo: 800 });
    claudeSession(h.claudeRoot, 'fresh', 2, { ts: inLastHour(5) });

    const [backfill] = await h.driver.backfill({ provider: 'claude', days: 30 });
    expect(backfill).toMatchObject({ discovered: 2, read: 1, unchanged: 0, outsideWindow: 1, failed: 0 });
    expect(backfill!.cancelled).toBeUndefined();
    expect(buckets(backfill!)).toBe(2);
    expect(formatSweepResult({ providers: [backfill!] }, { kind: 'days', days: 30 })).toMatch(/^claude: 2 transcript files, 1 read, 1 older than the last 30 days, not read; /);

    // Scheduled ticks (their own, wider window): once the fresh file is up to date, the old one is still outside the window.
    await h.driver.tick();
    const tick = byProvider(await h.driver.tick(), 'claude');
    expect(tick).toMatchObject({ discovered: 2, read: 0, unchanged: 1, outsideWindow: 1 });
    expect(formatSweepResult({ providers: [tick] })).toMatch(/^claude: 2 transcript files, 1 already up to date, 1 older than the retention window, not read \(\d+ ms\)$/m);
  });

  it('the CLI says a backfill left an old file unread, not that it was already up to date', async () => {
    // Its own home, as a person's CLI has: the store opened in-process, under the owner lock.
    const home = tempHome('steward-cli-window-');
    try {
      const root = join(home.dir, 'roots', 'claude');
      sessions(1, { daysAgo: 800, root });
      const c = io({ ...home.env, STEWARD_CLAUDE_ROOTS: root, STEWARD_CLAUDE_DESKTOP_ROOTS: join(home.dir, 'roots', 'none') });
      expect(await runCli(['backfill', '--provider', 'claude', '--days', '30'], c)).toBe(0);
      // The window --days asked for, named as asked: no note on the retention window nobody used here.
      expect(c.out).toMatch(/^claude: 1 transcript file, 1 older than the last 30 days, not read \(\d+ ms\)\n$/);
      expect(c.out).not.toContain('already up to date');
    } finally {
      home.cleanup();
    }
  });
});
