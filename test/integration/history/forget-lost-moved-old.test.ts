import { renameSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { CODEX_ROLLOUT as ROLLOUT, CODEX_ROLLOUT_ID as ROLLOUT_ID, IDS, OPENCLAW_SESSION, historyOwnerPerTest, withCodexRollout, type HistoryFixture } from '../../support/history.js';

/**
 * A transcript older than the scheduled window that its agent moves (Codex archiving a rollout,
 * OpenClaw renaming a session's file on /reset): the tick never reads it at its new path, so the move
 * must carry its checkpoint and holds there without a read. Otherwise the old path's holds are marked
 * gone and stay so, and Forget.Lost says Steward holds the only copy of a conversation still on disk.
 */

const ON_DISK = { conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const RESET = `${IDS.openclawHeader}.jsonl.reset.2026-04-09T04-00-00.000Z`;
/** Older than the kernel's default window (365 days). */
const OLD = (Date.now() - 400 * 86_400_000) / 1000;

const owner = historyOwnerPerTest();
const reopen = owner.reopen;

function open(prefix: string): { c: Core; fixture: HistoryFixture; codexRoot: string; rollout: string } {
  const { c, fixture, prepared } = owner.open(prefix, withCodexRollout);
  return { c, fixture, ...prepared };
}

const sessionsDir = (f: HistoryFixture) => join(f.openclawRoot, 'agents', 'main', 'sessions');

function stored(sessionId: string): { parts: number; sessions: number; checkpoints: number } {
  const db = new Database(join(owner.home().dir, 'gateway.db'), { readonly: true });
  try {
    const parts = db.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck().get(sessionId) as number;
    const sessions = db.prepare('SELECT COUNT(*) FROM sessions WHERE session_id = ?').pluck().get(sessionId) as number;
    const checkpoints = db.prepare('SELECT COUNT(*) FROM file_checkpoints').pluck().get() as number;
    return { parts, sessions, checkpoints };
  } finally {
    db.close();
  }
}

type TickStats = { provider: string; read: number; bytesRead?: number; vanished?: number; outsideWindow?: number };

/** A tick: nothing vanished, and no transcript byte read. */
async function tick(c: Core): Promise<Map<string, TickStats>> {
  const result = (await c.call('Sweep.Tick', {})) as { providers?: TickStats[] };
  const byProvider = new Map((result.providers ?? []).map((p) => [p.provider, p]));
  for (const p of byProvider.values()) expect(p.vanished ?? 0).toBe(0);
  return byProvider;
}

/** Read first inside the window, then aged past it: a file the tick lists and never opens. */
async function readThenAge(c: Core, paths: readonly string[]): Promise<void> {
  await tick(c);
  for (const path of paths) utimesSync(path, OLD, OLD);
  const aged = await tick(c);
  for (const p of aged.values()) expect(p).toMatchObject({ read: 0, bytesRead: 0 });
}

describe('a transcript older than the window that the agent moved is still on disk', () => {
  it('a Codex rollout archived between ticks', async () => {
    const { c, rollout, codexRoot } = open('steward-lost-old-codex-');
    await readThenAge(c, [rollout]);
    const before = stored(ROLLOUT_ID);
    renameSync(rollout, join(codexRoot, 'archived_sessions', ROLLOUT));
    const moved = await tick(c);
    expect(moved.get('codex')).toMatchObject({ read: 0, bytesRead: 0, outsideWindow: 1 });
    expect(await c.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ON_DISK);
    expect(stored(ROLLOUT_ID)).toEqual(before);
    // And stays so: the next tick, and one after a restart.
    await tick(c);
    await c.shutdown();
    const again = reopen();
    expect((await tick(again)).get('codex')).toMatchObject({ read: 0, bytesRead: 0 });
    expect(await again.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ON_DISK);
    expect(stored(ROLLOUT_ID)).toEqual(before);
  });

  it('a Codex rollout archived while Steward was not running', async () => {
    const { c, rollout, codexRoot } = open('steward-lost-old-codex-restart-');
    await readThenAge(c, [rollout]);
    const before = stored(ROLLOUT_ID);
    await c.shutdown();
    renameSync(rollout, join(codexRoot, 'archived_sessions', ROLLOUT));
    const again = reopen();
    expect((await tick(again)).get('codex')).toMatchObject({ read: 0, bytesRead: 0, outsideWindow: 1 });
    expect(await again.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ON_DISK);
    expect(stored(ROLLOUT_ID)).toEqual(before);
  });

  it('an OpenClaw session renamed on /reset between ticks', async () => {
    const { c, fixture } = open('steward-lost-old-openclaw-');
    const live = join(sessionsDir(fixture), `${IDS.openclawHeader}.jsonl`);
    await readThenAge(c, [live]);
    const before = stored(OPENCLAW_SESSION);
    renameSync(live, join(sessionsDir(fixture), RESET));
    expect((await tick(c)).get('openclaw')).toMatchObject({ read: 0, bytesRead: 0 });
    expect(await c.call('Forget.Lost', { kind: 'session', id: OPENCLAW_SESSION })).toEqual(ON_DISK);
    expect(stored(OPENCLAW_SESSION)).toEqual(before);
  });
});
