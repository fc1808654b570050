import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import type { Db } from '../../../core/store/index.js';
import { IDS, ORCHARD, SUBAGENT_SESSION, historyOwnerPerTest } from '../../support/history.js';
import { expectIndexExact } from '../../support/search-index.js';

const owner = historyOwnerPerTest();

const count = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;

/** The sessions a query finds, once each, sorted. */
const hitsFor = async (c: Core, query: string) => [...new Set((await c.call('Search.Query', { query })).hits.map((h) => h.sessionId))].sort();
const orchardOf = async (c: Core) => (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD);

describe('unforgetting a project', () => {
  it('lifts its tombstone; the next backfill brings back the project, its conversations and their index rows, exactly', async () => {
    const { c } = owner.open('steward-unforget-');
    await c.call('Backfill.Run', { all: true });
    const orchard = (await orchardOf(c))!;
    const sessionsBefore = (await c.call('Sessions.List', { projectKey: orchard.projectKey })).sessions.map((s) => s.sessionId);
    expect(sessionsBefore).toEqual([IDS.config, IDS.pruning]);
    const partsBefore = count(c.gateway, 'SELECT COUNT(*) FROM parts');

    const forgotten = await c.call('Forget.Project', { projectKey: orchard.projectKey });
    expect(forgotten).toMatchObject({ kind: 'project', id: orchard.projectKey, removedSessions: 3 });
    expect(await orchardOf(c)).toBeUndefined();
    expect(await hitsFor(c, 'parseConfig')).toEqual([]);

    expect(await c.call('Forget.Lift', { kind: 'project', id: orchard.projectKey })).toEqual({ lifted: true, nextCheck: 'all' });
    expect(await c.call('Forget.Lift', { kind: 'project', id: orchard.projectKey })).toEqual({ lifted: false });
    expect((await c.call('Forget.List', {})).tombstones).toEqual([]);
    // Lifting only lets it back in: nothing is imported until a backfill reads its files.
    expect(await orchardOf(c)).toBeUndefined();

    const backfill = await c.call('Backfill.Run', { all: true });
    // Every part it forgot is written again, none held back.
    const claude = backfill.providers.find((p) => p.provider === 'claude')!;
    expect(claude.partsWritten).toBe(forgotten.removedParts);
    expect(claude.withheld?.forgotten ?? 0).toBe(0);
    expect(await orchardOf(c)).toMatchObject({ projectKey: orchard.projectKey, name: 'orchard' });
    expect((await c.call('Sessions.List', { projectKey: orchard.projectKey })).sessions.map((s) => s.sessionId)).toEqual(sessionsBefore);
    expect(await hitsFor(c, 'parseConfig')).toEqual([IDS.config]);
    expect(await hitsFor(c, 'frost')).toEqual([IDS.pruning, SUBAGENT_SESSION].sort());
    expect(count(c.gateway, 'SELECT COUNT(*) FROM parts')).toBe(partsBefore);
    expectIndexExact(c.gateway);
  });
});
