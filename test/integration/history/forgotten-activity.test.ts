import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, openclawLines, writeJsonl } from '../../support/transcripts.js';

/**
 * A conversation that is gone (forgotten, or past the retention window) leaves nothing of its time
 * behind: not the project's last activity (lists sort by it, the sweeper's activity gate and its
 * notes are dated by it), not a day in the notes, not a project in "from N projects".
 */

const DAY = 86_400_000;
const ORCHARD = '/work/orchard';
const KITCHEN = '/work/kitchen';
const SHED = '/work/shed';
const OLD = '1a2b3c4d-0000-4000-8000-00000000000a';
const NEWEST = '1a2b3c4d-0000-4000-8000-00000000000b';
const KITCHEN_SESSION = '1a2b3c4d-0000-4000-8000-00000000000c';
const SHED_SESSION = '1a2b3c4d-0000-4000-8000-00000000000d';

const temp = coreHome('steward-forgotten-activity-');

/** A two-line conversation; returns when its last line was written. */
function conversation(root: string, sessionId: string, cwd: string, at: number, ask: string): number {
  writeJsonl(join(root, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`), [
    claudeLine({ sessionId, cwd, ts: new Date(at), text: ask }),
    claudeLine({ sessionId, cwd, ts: new Date(at + 60_000), type: 'assistant', text: 'Done; the change is in.' }),
  ]);
  return at + 60_000;
}

/** The offline overview's "up to" moment, as it prints one. */
const upTo = (at: number) => `up to ${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The bullets under one day's heading of a changelog. */
function dayOf(changelog: string | null, day: string): string[] {
  const lines = (changelog ?? '').split('\n');
  const at = lines.indexOf(`## ${day}`);
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l.startsWith('## '));
  return lines.slice(at + 1, end < 0 ? undefined : end).filter((l) => l.startsWith('- '));
}

async function listed(c: Core, cwd: string) {
  const project = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === cwd);
  if (!project) throw new Error(`no project for ${cwd}`);
  return project;
}

const keyOf = async (c: Core, cwd: string) => (await listed(c, cwd)).projectKey;

describe('a forgotten conversation', () => {
  const now = Date.now();
  const times = { old: now - 9 * DAY, kitchen: now - 6 * DAY, newest: now - 3 * DAY };

  function orchard(): { c: Core; oldLast: number; newestLast: number } {
    const roots = join(temp.home.dir, 'claude-roots');
    const oldLast = conversation(roots, OLD, ORCHARD, times.old, 'Add retries with backoff to the orchard sync job');
    conversation(roots, KITCHEN_SESSION, KITCHEN, times.kitchen, 'Write a recipe for apple crumble');
    const newestLast = conversation(roots, NEWEST, ORCHARD, times.newest, 'Profile the slow CI matrix of the orchard');
    return { c: temp.open({ env: { STEWARD_CLAUDE_ROOTS: roots } }), oldLast, newestLast };
  }

  it("leaves the project's last activity at the newest conversation still stored, and lists it by that", async () => {
    const { c, oldLast, newestLast } = orchard();
    await c.call('Backfill.Run', { all: true });
    const key = await keyOf(c, ORCHARD);
    expect((await c.call('Projects.List', {})).projects.map((p) => [p.cwd, p.lastActivityAt])).toEqual([
      [ORCHARD, newestLast],
      [KITCHEN, expect.any(Number)],
    ]);

    await c.call('Forget.Session', { sessionId: NEWEST });
    const { projects } = await c.call('Projects.List', {});
    // The kitchen was worked in after the orchard's one conversation left: it leads now.
    expect(projects.map((p) => [p.cwd, p.sessions])).toEqual([
      [KITCHEN, 1],
      [ORCHARD, 1],
    ]);
    expect(projects.find((p) => p.cwd === ORCHARD)).toMatchObject({ projectKey: key, lastActivityAt: oldLast, latestSession: { sessionId: OLD } });
  });

  it("is not in the notes the sweeper writes afterwards: the overview's moment and the changelog's days are those of what is left", async () => {
    const { c, oldLast, newestLast } = orchard();
    await c.call('Backfill.Run', { all: true });
    const key = await keyOf(c, ORCHARD);
    await c.call('Forget.Session', { sessionId: NEWEST });

    expect(await c.call('Sweeper.Run', { projectKey: key, force: true })).toMatchObject({ outcome: 'ok', mode: 'offline' });
    const got = await c.call('Projects.Get', { projectKey: key });
    expect(got.overview).toContain(upTo(oldLast));
    expect(got.overview).not.toContain(upTo(newestLast));
    expect(got.overview).not.toContain('CI matrix');
    expect(got.changelog?.match(/^## \S+$/gm)).toEqual([`## ${localDay(oldLast)}`]);
    expect(got.state?.watermark).toBe(oldLast);
  });

  it('leaves no day of its own in notes written before it was forgotten', async () => {
    const { c, oldLast, newestLast } = orchard();
    await c.call('Backfill.Run', { all: true });
    const key = await keyOf(c, ORCHARD);
    await c.call('Sweeper.Run', { projectKey: key });
    const before = (await c.call('Projects.Get', { projectKey: key })).changelog;
    const forgottenDay = dayOf(before, localDay(newestLast));
    expect(forgottenDay).toHaveLength(1);

    await c.call('Forget.Session', { sessionId: NEWEST });
    // Nothing new happened, yet the next sweep rebuilds the notes from what is left: the forgotten day goes.
    expect(await c.call('Sweeper.Run', { projectKey: key })).toMatchObject({ outcome: 'ok' });
    const got = await c.call('Projects.Get', { projectKey: key });
    expect(dayOf(got.changelog, localDay(newestLast))).toEqual([]);
    expect(dayOf(got.changelog, localDay(oldLast))).toHaveLength(1);
    expect(got.overview).toContain(upTo(oldLast));
    expect(got.overview).not.toContain(upTo(newestLast));
  });
});

describe('a conversation past the retention window', () => {
  it("leaves the project's last activity at the newest conversation still stored", async () => {
    const now = Date.now();
    const claudeRoots = join(temp.home.dir, 'claude-roots');
    const openclawRoots = join(temp.home.dir, 'openclaw-roots');
    // The orchard's older conversation is an OpenClaw one, which keeps everything; its newer one is
    // Claude Code's, whose own window (5 days) it is past.
    const kept = now - 20 * DAY;
    const lines = openclawLines(
      'c0ffee01-aaaa-4bbb-8ccc-ddddeeeeffff',
      [
        { id: 'e0000001', role: 'user', text: 'Which orchard rows still need netting?', ts: new Date(kept) },
        { id: 'e0000002', role: 'assistant', text: 'Rows four and seven.', ts: new Date(kept + 60_000) },
      ],
      ORCHARD,
    ) as Array<Record<string, unknown>>;
    for (const line of lines.slice(0, 2)) line.timestamp = new Date(kept - 1_000).toISOString();
    writeJsonl(join(openclawRoots, 'agents', 'main', 'sessions', 'c0ffee01-aaaa-4bbb-8ccc-ddddeeeeffff.jsonl'), lines);
    const prunedLast = conversation(claudeRoots, NEWEST, ORCHARD, now - 10 * DAY, 'Profile the slow CI matrix of the orchard');
    const env = { STEWARD_CLAUDE_ROOTS: claudeRoots, STEWARD_OPENCLAW_ROOTS: openclawRoots };

    let c = temp.open({ env });
    await c.call('Backfill.Run', { all: true });
    const key = await keyOf(c, ORCHARD);
    expect((await listed(c, ORCHARD)).lastActivityAt).toBe(prunedLast);
    await temp.close();

    writeFileSync(join(temp.home.dir, 'config.json'), JSON.stringify({ providers: { claude: { backfill: { window_days: 5 } } } }));
    c = temp.open({ env });
    expect(await c.capture.prune({ manual: false })).toMatchObject({ removedConversations: 1, complete: true });
    const [left] = (await c.call('Sessions.List', { projectKey: key })).sessions;
    expect(left?.provider).toBe('openclaw');
    const project = await listed(c, ORCHARD);
    expect(project.sessions).toBe(1);
    expect(project.lastActivityAt).toBe(left?.lastAt);
    expect(project.lastActivityAt).toBeLessThan(prunedLast);

    expect(await c.call('Sweeper.Run', { projectKey: key, force: true })).toMatchObject({ outcome: 'ok' });
    const notes = await c.call('Projects.Get', { projectKey: key });
    expect(notes.overview).toContain(upTo(left!.lastAt!));
    expect(notes.changelog).not.toMatch(new RegExp(`^## ${localDay(prunedLast)}$`, 'm'));
  });
});

describe('the projects Steward says it holds conversations from', () => {
  it('are those that still hold one: a project whose conversations are all forgotten stays listed but is not counted', async () => {
    const roots = join(temp.home.dir, 'claude-roots');
    const now = Date.now();
    conversation(roots, OLD, ORCHARD, now - 3 * DAY, 'Add retries with backoff to the orchard sync job');
    conversation(roots, KITCHEN_SESSION, KITCHEN, now - 2 * DAY, 'Write a recipe for apple crumble');
    conversation(roots, SHED_SESSION, SHED, now - DAY, 'List the tools in the shed');
    const c = temp.open({ env: { STEWARD_CLAUDE_ROOTS: roots } });
    await c.call('Backfill.Run', { all: true });
    expect(await c.call('Cache.Stats', {})).toMatchObject({ conversations: 3, projects: 3 });

    await c.call('Forget.Session', { sessionId: SHED_SESSION });
    expect((await c.call('Projects.List', {})).projects.map((p) => [p.cwd, p.sessions])).toEqual([
      [KITCHEN, 1],
      [ORCHARD, 1],
      [SHED, 0],
    ]);
    expect(await c.call('Cache.Stats', {})).toMatchObject({ conversations: 2, projects: 2 });
  });
});
