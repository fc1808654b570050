import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { SearchIndex, SessionEraser } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { recordingGate } from '../../support/gate.js';
import { IDS, KITCHEN, ORCHARD, SUBAGENT_SESSION, historyOwnerPerTest } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';
import { expectIndexExact } from '../../support/search-index.js';

const DAY = 86_400_000;
const owner = historyOwnerPerTest();

/** The history home's Core, after `prepare` adds to the home (a config.json, a transcript). */
const open = (prepare?: (home: TempHome) => void): Core => owner.open('steward-forget-', prepare).c;
const withConfig = (config: unknown) => (home: TempHome) => writeFileSync(join(home.dir, 'config.json'), JSON.stringify(config));

const count = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;

/** The sessions a query finds, once each, sorted. */
const hitsFor = async (c: Core, query: string) => [...new Set((await c.call('Search.Query', { query })).hits.map((h) => h.sessionId))].sort();

describe('forgetting a session', () => {
  it('deletes its parts, index rows, counts and subagents; a tick and a backfill leave it out; unforget and a backfill bring it back', async () => {
    const c = open();
    await c.call('Backfill.Run', { all: true });
    expectIndexExact(c.gateway);
    expect(await hitsFor(c, 'frost')).toContain(IDS.pruning);

    const result = await c.call('Forget.Session', { sessionId: IDS.pruning });
    expect(result).toEqual({ kind: 'session', id: IDS.pruning, removedParts: 11, removedSessions: 2, notesRemoved: false });
    expect(count(c.gateway, 'SELECT COUNT(*) FROM parts WHERE session_id IN (?, ?)', IDS.pruning, SUBAGENT_SESSION)).toBe(0);
    expect(count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE session_id IN (?, ?)', IDS.pruning, SUBAGENT_SESSION)).toBe(0);
    expectIndexExact(c.gateway);
    expect(await hitsFor(c, 'frost')).toEqual([]);
    expect((await c.call('Sessions.List', {})).sessions.map((s) => s.sessionId)).not.toContain(IDS.pruning);
    expect((await c.call('Forget.List', {})).tombstones).toEqual([{ kind: 'session', id: IDS.pruning, label: 'Winter pruning plan', createdAt: expect.any(Number) }]);

    // Its files are still on disk: neither a scheduled tick nor a backfill imports it, and both say why.
    const tick = await c.call('Sweep.Tick', {});
    expect(tick.providers.find((p) => p.provider === 'claude')).toMatchObject({ partsWritten: 0 });
    const backfill = await c.call('Backfill.Run', { all: true });
    expect(backfill.providers.find((p) => p.provider === 'claude')).toMatchObject({ partsWritten: 0, withheld: { forgotten: 11, excluded: 0 } });
    expect(count(c.gateway, 'SELECT COUNT(*) FROM parts WHERE session_id IN (?, ?)', IDS.pruning, SUBAGENT_SESSION)).toBe(0);
    expect(await hitsFor(c, 'frost')).toEqual([]);

    expect(await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning })).toEqual({ lifted: true, nextCheck: 'all' });
    expect(await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning })).toEqual({ lifted: false });
    const again = await c.call('Backfill.Run', { all: true });
    expect(again.providers.find((p) => p.provider === 'claude')?.partsWritten).toBe(11);
    expect(await hitsFor(c, 'frost')).toEqual([IDS.pruning, SUBAGENT_SESSION].sort());
    expectIndexExact(c.gateway);
  });

  it('deletes in short batches, each inside the WAL checkpoint thread\'s disk gate, waiting while a checkpoint holds it', async () => {
    const c = open();
    await c.call('Backfill.Run', { all: true });
    const { gate, calls } = recordingGate(1);
    const erased = await new SessionEraser(c.gateway, new SearchIndex(c.gateway), gate).erase([IDS.pruning], 4);
    expect(erased).toEqual({ parts: 11, sessions: 2 });
    // What the index had left to merge first, in merge pieces of their own (one here: nothing was
    // left), then one part (see the first-piece test), then the other 10 parts and the 2 session rows,
    // 4 at most per batch; after each, a merge of the index in a turn of the gate of its own.
    expect(calls.join(' ')).toBe('start busy enter leave start enter leave enter leave start enter leave enter leave enter leave enter leave enter leave enter leave');
    expectIndexExact(c.gateway);
  });

  it('holds across a restart: the tombstone is stored, not remembered', async () => {
    let c = open();
    await c.call('Backfill.Run', { all: true });
    await c.call('Forget.Session', { sessionId: IDS.kitchen });
    await c.shutdown();
    c = owner.reopen();
    await c.call('Sweep.Tick', {});
    await c.call('Backfill.Run', { all: true });
    expect(await hitsFor(c, 'crumble')).toEqual([]);
  });

  it('a tick after its transcript grew still leaves it out, and counts what it held back', async () => {
    const c = open();
    await c.call('Backfill.Run', { all: true });
    await c.call('Forget.Session', { sessionId: IDS.pruning });
    // The manual backfill left checkpoints: this tick reads nothing.
    await c.call('Sweep.Tick', {});
    const file = join(owner.home().env.STEWARD_CLAUDE_ROOTS!, 'projects', '-work-orchard', `${IDS.pruning}.jsonl`);
    appendJsonl(file, [claudeLine({ sessionId: IDS.pruning, cwd: ORCHARD, text: 'Should the quince get the same treatment?' })]);
    const tick = await c.call('Sweep.Tick', {});
    expect(tick.providers.find((p) => p.provider === 'claude')).toMatchObject({ read: 1, partsWritten: 0, withheld: { forgotten: 1, excluded: 0 } });
    expect(count(c.gateway, 'SELECT COUNT(*) FROM parts WHERE session_id = ?', IDS.pruning)).toBe(0);
    expect(await hitsFor(c, 'quince')).toEqual([]);
    expectIndexExact(c.gateway);
  });

  it('forgetting a subagent alone keeps its parent', async () => {
    const c = open();
    await c.call('Backfill.Run', { all: true });
    await c.call('Forget.Session', { sessionId: SUBAGENT_SESSION });
    await c.call('Backfill.Run', { all: true });
    expect(await hitsFor(c, '"frost usually"')).toEqual([]);
    expect((await c.call('Sessions.Get', { sessionId: IDS.pruning })).subagents).toEqual([]);
    expectIndexExact(c.gateway);
  });
});

describe('forgetting a project', () => {
  it('deletes its conversations, its row and its notes, and keeps it out of later imports', async () => {
    const c = open();
    await c.call('Backfill.Run', { all: true });
    const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
    await c.call('Sweeper.Run', { projectKey: orchard.projectKey, force: true });
    const notes = join(owner.home().dir, 'projects');
    const slugDir = (await c.call('Projects.Get', { projectKey: orchard.projectKey })).slug;
    expect(existsSync(join(notes, slugDir, 'OVERVIEW.md'))).toBe(true);

    const result = await c.call('Forget.Project', { projectKey: orchard.projectKey });
    expect(result).toMatchObject({ kind: 'project', id: orchard.projectKey, removedSessions: 3, notesRemoved: true });
    expect(existsSync(join(notes, slugDir))).toBe(false);
    expect((await c.call('Projects.List', {})).projects.map((p) => p.cwd)).not.toContain(ORCHARD);
    expect(await hitsFor(c, 'parseConfig')).toEqual([]);
    expectIndexExact(c.gateway);

    const backfill = await c.call('Backfill.Run', { all: true });
    expect(backfill.providers.find((p) => p.provider === 'claude')?.withheld?.forgotten).toBe(result.removedParts);
    expect((await c.call('Projects.List', {})).projects.map((p) => p.cwd)).not.toContain(ORCHARD);
    expect((await c.call('Forget.List', {})).tombstones).toEqual([{ kind: 'project', id: orchard.projectKey, label: 'orchard', createdAt: expect.any(Number) }]);
    // Other projects are untouched.
    expect(await hitsFor(c, 'crumble')).toEqual([IDS.kitchen]);
  });
});

describe('excluding a folder', () => {
  it('never captures sessions whose folder matches capture.exclude, and counts what it held back', async () => {
    const c = open(withConfig({ capture: { exclude: [`${KITCHEN}/**`] } }));
    const result = await c.call('Backfill.Run', { all: true });
    expect(result.providers.find((p) => p.provider === 'claude')?.withheld).toEqual({ forgotten: 0, excluded: 3 });
    expect((await c.call('Projects.List', {})).projects.map((p) => p.cwd)).not.toContain(KITCHEN);
    expect(await hitsFor(c, 'crumble')).toEqual([]);
    expect(await hitsFor(c, 'frost')).toContain(IDS.pruning);
  });

  it('rejects a malformed exclude list with a message naming the key', () => {
    expect(() => open(withConfig({ capture: { exclude: 'not-a-list' } }))).toThrow(/capture\.exclude/);
  });
});

describe('retention keeps the index exact', () => {
  it('prunes old parts with their index rows and counts', async () => {
    const old = Date.now() - 400 * DAY;
    const c = open((home) => {
      // Claude's root alone: the OpenClaw session stays out of what retention prunes.
      home.env.STEWARD_OPENCLAW_ROOTS = '';
      writeJsonl(join(home.env.STEWARD_CLAUDE_ROOTS!, 'projects', '-work-orchard', 'ancient.jsonl'), [
        claudeLine({ sessionId: 'ancient', cwd: ORCHARD, ts: new Date(old), text: 'an ancient note about grafting' }),
        claudeLine({ sessionId: 'ancient', cwd: ORCHARD, ts: new Date(old + 1000), type: 'assistant', text: 'grafting works best in spring' }),
      ]);
    });
    await c.call('Backfill.Run', { all: true });
    expect(await hitsFor(c, 'grafting')).toEqual(['ancient']);
    const report = await c.call('Cache.Prune', {});
    expect(report).toMatchObject({ removedParts: 2, removedSessions: 1 });
    expect(await hitsFor(c, 'grafting')).toEqual([]);
    expectIndexExact(c.gateway);
  });
});
