import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { historyHome, IDS, SUBAGENT_SESSION } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

/**
 * Over the contract, as on the command line: an id Steward holds nothing under is refused (not_found)
 * unless `notStored` says it is meant, and nothing is tombstoned; an id already forgotten is not refused.
 */
const UNKNOWN_SESSION = 'zzz';
const UNKNOWN_PROJECT = 'p_0000000000000000';

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = historyHome('steward-forget-not-stored-').home;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core.shutdown();
  home.cleanup();
});

const tombstoned = async () => (await core.call('Forget.List', {})).tombstones.map((t) => `${t.kind}:${t.id}`);

describe('Forget.Session and Forget.Project of an id Steward holds nothing under', () => {
  it('are refused with not_found, in plain words, and tombstone nothing', async () => {
    await expect(core.call('Forget.Session', { sessionId: UNKNOWN_SESSION })).rejects.toMatchObject({
      code: 'not_found',
      message: 'No stored conversation has that id, so nothing was forgotten.',
      // The call's own param, not the CLI's flag (the CLI says --not-stored: cli-walk.test.ts).
      details: { remediation: expect.stringContaining('notStored: true') },
    });
    await expect(core.call('Forget.Project', { projectKey: UNKNOWN_PROJECT, scrub: true })).rejects.toMatchObject({
      code: 'not_found',
      message: 'No stored project has that key, so nothing was forgotten.',
    });
    expect(await tombstoned()).toEqual([]);
    expect((await core.call('Forget.ScrubStatus', {})).pending).toBe(false);
  });

  it('with notStored: true, tombstone the id all the same', async () => {
    expect(await core.call('Forget.Session', { sessionId: UNKNOWN_SESSION, notStored: true })).toMatchObject({ removedSessions: 0, removedParts: 0 });
    expect(await core.call('Forget.Project', { projectKey: UNKNOWN_PROJECT, notStored: true, name: 'newproj' })).toMatchObject({ removedSessions: 0 });
    expect(await tombstoned()).toEqual(expect.arrayContaining([`session:${UNKNOWN_SESSION}`, `project:${UNKNOWN_PROJECT}`]));
    // Already forgotten: forgetting it again without notStored is nothing to refuse.
    await core.call('Forget.Session', { sessionId: UNKNOWN_SESSION });
    await core.call('Forget.Project', { projectKey: UNKNOWN_PROJECT });
    for (const [kind, id] of [
      ['session', UNKNOWN_SESSION],
      ['project', UNKNOWN_PROJECT],
    ] as const)
      await core.call('Forget.Lift', { kind, id });
  });

  it('a conversation forgotten with its parent or its project is not refused (the CLI forgets it again with --scrub)', async () => {
    await core.call('Forget.Session', { sessionId: IDS.pruning });
    expect(await core.call('Forget.Session', { sessionId: SUBAGENT_SESSION })).toMatchObject({ removedSessions: 0 });
    expect(await tombstoned()).toContain(`session:${SUBAGENT_SESSION}`);
  });
});
