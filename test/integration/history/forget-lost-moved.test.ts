import { copyFileSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { CODEX_ROLLOUT as ROLLOUT, CODEX_ROLLOUT_ID as ROLLOUT_ID, IDS, OPENCLAW_SESSION, historyOwnerPerTest, withCodexRollout, type HistoryFixture } from '../../support/history.js';

/**
 * Forget.Lost when an agent moves a transcript (reference/transcript-formats.md): Codex CLI moves a
 * finished rollout into archived_sessions/ (and back out on unarchive), OpenClaw renames `<id>.jsonl`
 * to `<id>.jsonl.reset.<ts>` on /reset. A move a walk catches half-way (the file at neither path, or
 * at both) must not leave the conversation reading as gone while its own file is on disk at the new
 * path; a fork's copy of its lines still never says so.
 */

const CODEX = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
const FORK = 'rollout-2026-07-13T19-20-00-019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c.jsonl';
const ON_DISK = { conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const ONE_LOST = { conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
const RESET = `${IDS.openclawHeader}.jsonl.reset.2026-04-09T04-00-00.000Z`;

const owner = historyOwnerPerTest();
/** The owner's Core again on the same home (after a test shut it). */
const reopen = owner.reopen;

interface Opened {
  c: Core;
  fixture: HistoryFixture;
  codexRoot: string;
  /** The rollout's path under sessions/, placed before the Core opened. */
  rollout: string;
  /** A folder outside every root: where a file is while a walk finds it at neither path. */
  away: string;
}

/** An owner's Core over the history fixture, with a Codex root holding one rollout. */
function open(prefix: string): Opened {
  const { c, fixture, prepared } = owner.open(prefix, (home) => {
    const away = join(home.dir, 'away');
    mkdirSync(away);
    return { ...withCodexRollout(home), away };
  });
  return { c, fixture, ...prepared };
}

const sessionsDir = (f: HistoryFixture) => join(f.openclawRoot, 'agents', 'main', 'sessions');

/** What the store holds of a conversation (its parts and its rows), read on a connection of the test's own. */
function stored(sessionId: string): { parts: number; sessions: number } {
  const db = new Database(join(owner.home().dir, 'gateway.db'), { readonly: true });
  try {
    const parts = db.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck().get(sessionId) as number;
    const sessions = db.prepare('SELECT COUNT(*) FROM sessions WHERE session_id = ?').pluck().get(sessionId) as number;
    return { parts, sessions };
  } finally {
    db.close();
  }
}

/** A tick, and what it says went missing between listing and reading: a moved file is none of it. */
async function tick(c: Core): Promise<void> {
  const result = (await c.call('Sweep.Tick', {})) as { providers?: Array<{ vanished?: number }> };
  for (const p of result.providers ?? []) expect(p.vanished ?? 0).toBe(0);
}

describe('a transcript the agent moved is still on disk', () => {
  it('a Codex rollout a walk found at neither path (moved out of sessions/ and back into archived_sessions/) is on disk once found', async () => {
    const { c, rollout, codexRoot, away } = open('steward-lost-codex-away-');
    await tick(c);
    const before = stored(ROLLOUT_ID);
    renameSync(rollout, join(away, ROLLOUT));
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ONE_LOST);
    renameSync(join(away, ROLLOUT), join(codexRoot, 'archived_sessions', ROLLOUT));
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ON_DISK);
    expect(stored(ROLLOUT_ID)).toEqual(before);
    // And stays so: a tick that finds it unchanged, and one after a restart.
    await tick(c);
    await c.shutdown();
    const again = reopen();
    await tick(again);
    expect(await again.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ON_DISK);
  });

  it('an OpenClaw session a walk found at neither path (renamed on /reset) is on disk once found as <id>.jsonl.reset.<ts>', async () => {
    const { c, fixture, away } = open('steward-lost-openclaw-away-');
    await tick(c);
    const before = stored(OPENCLAW_SESSION);
    const live = join(sessionsDir(fixture), `${IDS.openclawHeader}.jsonl`);
    renameSync(live, join(away, 'reset.jsonl'));
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: OPENCLAW_SESSION })).toEqual(ONE_LOST);
    renameSync(join(away, 'reset.jsonl'), join(sessionsDir(fixture), RESET));
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: OPENCLAW_SESSION })).toEqual(ON_DISK);
    expect(stored(OPENCLAW_SESSION)).toEqual(before);
  });

  it('a Codex rollout a walk listed at both paths (archived while it walked) is on disk once its old path is gone', async () => {
    const { c, rollout, codexRoot } = open('steward-lost-codex-both-');
    await tick(c);
    const before = stored(ROLLOUT_ID);
    // The same file (device and inode) at both paths, as a walk of sessions/ then archived_sessions/ sees a move between the two.
    linkSync(rollout, join(codexRoot, 'archived_sessions', ROLLOUT));
    await tick(c);
    rmSync(rollout);
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ON_DISK);
    expect(stored(ROLLOUT_ID)).toEqual(before);
  });

  it('an OpenClaw session a walk listed at both paths (reset while it walked) is on disk once its old name is gone', async () => {
    const { c, fixture } = open('steward-lost-openclaw-both-');
    await tick(c);
    const before = stored(OPENCLAW_SESSION);
    const live = join(sessionsDir(fixture), `${IDS.openclawHeader}.jsonl`);
    linkSync(live, join(sessionsDir(fixture), RESET));
    await tick(c);
    rmSync(live);
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: OPENCLAW_SESSION })).toEqual(ON_DISK);
    expect(stored(OPENCLAW_SESSION)).toEqual(before);
  });

  it('a move a walk sees whole (the old path gone, the new one there) keeps it on disk, as before', async () => {
    const { c, fixture, rollout, codexRoot } = open('steward-lost-moved-whole-');
    await tick(c);
    renameSync(rollout, join(codexRoot, 'archived_sessions', ROLLOUT));
    renameSync(join(sessionsDir(fixture), `${IDS.openclawHeader}.jsonl`), join(sessionsDir(fixture), RESET));
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ON_DISK);
    expect(await c.call('Forget.Lost', { kind: 'session', id: OPENCLAW_SESSION })).toEqual(ON_DISK);
  });

  it("a Codex fork's copy of its parent's lines never says the parent is on disk, read before the parent's file went or after", async () => {
    const { c, rollout, codexRoot, away } = open('steward-lost-codex-fork-');
    await tick(c);
    copyFileSync(join(CODEX, FORK), join(codexRoot, 'sessions', '2026', '07', '13', FORK));
    await tick(c);
    rmSync(rollout);
    await tick(c);
    expect(await c.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ONE_LOST);
    // The fork moved where a walk finds it anew (read from its start): still a copy.
    renameSync(join(codexRoot, 'sessions', '2026', '07', '13', FORK), join(away, FORK));
    await tick(c);
    copyFileSync(join(away, FORK), join(codexRoot, 'archived_sessions', FORK));
    await tick(c);
    expect(readFileSync(join(codexRoot, 'archived_sessions', FORK), 'utf8')).toContain(ROLLOUT_ID);
    expect(await c.call('Forget.Lost', { kind: 'session', id: ROLLOUT_ID })).toEqual(ONE_LOST);
  });
});
