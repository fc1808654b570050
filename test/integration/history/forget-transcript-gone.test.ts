import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatUnforget } from '../../../core/cli/commands/unforget.js';
import { IDS, ORCHARD, historyOwnerPerTest, type HistoryFixture } from '../../support/history.js';

/**
 * QA B1: a conversation whose transcript the agent deleted (Claude Code after 30 days) is held by
 * Steward alone. Forget.Lost says so before a forget, and an Unforget of it promises no import.
 */

const owner = historyOwnerPerTest();
const opened = owner.open;

/**
 * A store upgraded from before Steward recorded which files hold a conversation (migration 21): its
 * rows were imported by an earlier version, and its file, unchanged since, was never read again.
 */
function holdsNeverRecorded(dir: string, sessionId: string): void {
  const db = new Database(join(dir, 'gateway.db'));
  try {
    // Its subagents' too (`<id>:agent-…`), imported with it.
    db.prepare("DELETE FROM file_holds WHERE id = ? OR id LIKE ? || ':%'").run(sessionId, sessionId);
  } finally {
    db.close();
  }
}

/** What Claude Code's clean-up removes: the conversation's file and its folder of subagents. */
function deletePruning(fixture: HistoryFixture): void {
  const dir = join(fixture.claudeRoot, 'projects', '-work-orchard');
  rmSync(join(dir, `${IDS.pruning}.jsonl`));
  rmSync(join(dir, IDS.pruning), { recursive: true });
}

describe('forgetting a conversation whose transcript is gone from disk', () => {
  it('says nothing is lost while the transcript is on disk', async () => {
    const { c } = opened('steward-lost-present-');
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual({ conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
    const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
    expect(await c.call('Forget.Lost', { kind: 'project', id: orchard.projectKey })).toEqual({ conversations: 2, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
    expect(await c.call('Forget.Lost', { kind: 'session', id: 'not-a-stored-id' })).toEqual({ conversations: 0, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
  });

  it('counts it lost once its file is deleted, before a check and after one forgot the file', async () => {
    const { c, fixture } = opened('steward-lost-deleted-');
    await c.call('Sweep.Tick', {});
    deletePruning(fixture);
    const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual({ conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
    expect(await c.call('Forget.Lost', { kind: 'project', id: orchard.projectKey })).toEqual({ conversations: 2, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
    // A check's complete walk forgets the vanished file's checkpoint, but not that it held it: still lost.
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual({ conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.config })).toEqual({ conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
  });

  it('an Unforget of it says nothing is left to import, and promises no backfill', async () => {
    const { c, fixture } = opened('steward-lost-unforget-');
    await c.call('Sweep.Tick', {});
    deletePruning(fixture);
    await c.call('Forget.Session', { sessionId: IDS.pruning });
    const lifted = await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning });
    expect(lifted).toEqual({ lifted: true, nothingLeft: true });
    const words = formatUnforget(lifted, { kind: 'session', id: IDS.pruning }, 'conversation id');
    expect(words).not.toContain('backfill');
    expect(words).toContain('nothing of it is left to import');
  });

  it('an Unforget of one whose transcript is on disk still says the next check brings it back', async () => {
    const { c } = opened('steward-lost-unforget-present-');
    await c.call('Sweep.Tick', {});
    await c.call('Forget.Session', { sessionId: IDS.pruning });
    expect(await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning })).toEqual({ lifted: true, nextCheck: 'all' });
  });

  describe('on a store upgraded from before Steward recorded which files hold a conversation', () => {
    it('does not call one whose file is on disk lost: whether its transcript is there is not known', async () => {
      const { c } = opened('steward-lost-upgraded-');
      await c.call('Sweep.Tick', {});
      holdsNeverRecorded(owner.home().dir, IDS.pruning);
      expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual({ conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 1 });
      const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
      expect(await c.call('Forget.Lost', { kind: 'project', id: orchard.projectKey })).toEqual({ conversations: 2, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 1 });
      // A check meanwhile finds its file unchanged, so reads nothing: still not known, never called lost.
      await c.call('Sweep.Tick', {});
      expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual({ conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 1 });
    });

    it('an Unforget of one no file is known to hold does not say nothing is left', async () => {
      const { c } = opened('steward-lost-upgraded-unforget-');
      await c.call('Sweep.Tick', {});
      holdsNeverRecorded(owner.home().dir, IDS.pruning);
      await c.call('Forget.Session', { sessionId: IDS.pruning });
      const lifted = await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning });
      expect(lifted.nothingLeft).toBeUndefined();
    });

    it('one whose file was recorded, then deleted and found gone by a walk, is lost', async () => {
      const { c, fixture } = opened('steward-lost-upgraded-gone-');
      await c.call('Sweep.Tick', {});
      holdsNeverRecorded(owner.home().dir, IDS.config);
      deletePruning(fixture);
      await c.call('Sweep.Tick', {});
      expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual({ conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
      const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
      expect(await c.call('Forget.Lost', { kind: 'project', id: orchard.projectKey })).toEqual({ conversations: 2, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 1 });
    });
  });
});
