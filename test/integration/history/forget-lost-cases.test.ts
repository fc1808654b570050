import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { formatUnforget } from '../../../core/cli/commands/unforget.js';
import { formatForget, lostWarning } from '../../../core/cli/commands/forget.js';
import { IDS, ORCHARD, SUBAGENT_SESSION, historyOwnerPerTest, type HistoryFixture } from '../../support/history.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Forget.Lost after an attack on it: what a forget deletes with a conversation (its subagents), files
 * that still exist but no longer hold it (emptied, replaced, a fork's copy), and an upgraded store's
 * conversations whose files were never recorded.
 */

const owner = historyOwnerPerTest();
const opened = owner.open;

const orchardDir = (f: HistoryFixture) => join(f.claudeRoot, 'projects', '-work-orchard');

/**
 * Conversation A (three lines) and B, a fork holding copies of A's first two lines, both read; then A's
 * own file deleted and found gone by a walk. Returns A's id.
 */
async function forkWithOriginGone(c: Core, fixture: HistoryFixture): Promise<string> {
  const [a, b] = ['aaaaaaaa-1111-4111-8111-111111111111', 'bbbbbbbb-2222-4222-8222-222222222222'];
  const t = Date.now() - 3_600_000;
  const lineA = (n: number) => claudeLine({ sessionId: a, cwd: ORCHARD, ts: new Date(t + n * 60_000), uuid: `aaaaaaaa-0000-4000-8000-00000000000${n}`, text: `words ${n} of A` });
  writeJsonl(join(orchardDir(fixture), `${a}.jsonl`), [lineA(1), lineA(2), lineA(3)]);
  writeJsonl(join(orchardDir(fixture), `${b}.jsonl`), [lineA(1), lineA(2), claudeLine({ sessionId: b, cwd: ORCHARD, ts: new Date(t + 600_000), uuid: 'bbbbbbbb-0000-4000-8000-000000000001', text: 'B goes on' })]);
  await c.call('Sweep.Tick', {});
  rmSync(join(orchardDir(fixture), `${a}.jsonl`));
  await c.call('Sweep.Tick', {});
  return a;
}
const ONE_LOST = { conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
/** Its own transcript on disk, one subagent's gone: lost for good all the same, but only the subagent. */
const SUBAGENT_LOST = { conversations: 1, lost: 1, onlySubagentsLost: 1, subagentsLost: 1, unknown: 0 };

describe('what forgetting a conversation loses for good', () => {
  it('counts a conversation lost when only its subagent transcript is gone: the forget deletes that subagent too', async () => {
    const { c, fixture } = opened('steward-lost-subagent-');
    await c.call('Sweep.Tick', {});
    rmSync(join(orchardDir(fixture), IDS.pruning), { recursive: true });
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lost', { kind: 'session', id: SUBAGENT_SESSION })).toEqual(ONE_LOST);
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual(SUBAGENT_LOST);
    const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
    expect(await c.call('Forget.Lost', { kind: 'project', id: orchard.projectKey })).toEqual({ conversations: 2, lost: 1, onlySubagentsLost: 1, subagentsLost: 1, unknown: 0 });
  });

  it('says of one whose subagent alone is gone that the subagent is lost, not its own transcript', () => {
    const warning = lostWarning('session', SUBAGENT_LOST, 'p1');
    expect(warning).toContain("1 of its subagents' transcripts is no longer on disk: Steward holds their only copy; forgetting deletes them for good.");
    expect(warning).not.toContain("p1's transcript is no longer on disk");
    const done = formatForget({ kind: 'session', id: 'p1', removedParts: 9, removedSessions: 2, notesRemoved: false }, undefined, undefined, SUBAGENT_LOST);
    expect(done).not.toMatch(/Its transcript was no longer on disk|so it cannot be brought back/);
    expect(done).toContain("1 of its subagents' transcripts was no longer on disk: that subagent cannot be brought back.");
    // Its own transcript is on disk: the way back is said, as Unforget then says it comes back.
    expect(done).toContain('steward unforget --session p1');
    const project = lostWarning('project', { conversations: 5, lost: 3, onlySubagentsLost: 2, subagentsLost: 4, unknown: 0 }, 'orchard');
    expect(project).toContain('1 of its 5 conversations has no transcript left on disk, and 2 more have subagents whose transcripts are no longer on disk');
  });

  it('counts it lost when its file is emptied, or replaced by another conversation, at the same path', async () => {
    const { c, fixture } = opened('steward-lost-rewritten-');
    await c.call('Sweep.Tick', {});
    writeFileSync(join(orchardDir(fixture), `${IDS.pruning}.jsonl`), '');
    const other = claudeLine({ sessionId: 'ffffffff-0000-4000-8000-000000000001', cwd: ORCHARD, ts: new Date(), uuid: 'ffffffff-0000-4000-8000-000000000099', text: 'something else' });
    writeJsonl(join(orchardDir(fixture), `${IDS.config}.jsonl`), [other]);
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual(ONE_LOST);
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.config })).toEqual(ONE_LOST);
  });

  it('does not count a file holding a copy of some of its lines (a fork) as holding it', async () => {
    const { c, fixture } = opened('steward-lost-copy-');
    const a = await forkWithOriginGone(c, fixture);
    expect(await c.call('Forget.Lost', { kind: 'session', id: a })).toEqual(ONE_LOST);
  });

  it('a fork read again after its origin is gone still holds only a copy of it', async () => {
    const { c, fixture } = opened('steward-lost-copy-again-');
    const a = await forkWithOriginGone(c, fixture);
    // Read from its start again (an import on request reads every file): it meets A's copied lines.
    await c.call('Backfill.Run', { all: true });
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lost', { kind: 'session', id: a })).toEqual(ONE_LOST);
  });

  it('a file moved keeps a conversation a whole read found missing from it missing', async () => {
    const { c, fixture } = opened('steward-lost-moved-');
    await c.call('Sweep.Tick', {});
    const other = claudeLine({ sessionId: 'ffffffff-0000-4000-8000-000000000001', cwd: ORCHARD, ts: new Date(), uuid: 'ffffffff-0000-4000-8000-000000000099', text: 'something else' });
    writeJsonl(join(orchardDir(fixture), `${IDS.config}.jsonl`), [other]);
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.config })).toEqual(ONE_LOST);
    // A move keeps the file's name (MovedFiles): here to another project folder.
    const moved = join(fixture.claudeRoot, 'projects', '-work-orchard-moved');
    mkdirSync(moved);
    renameSync(join(orchardDir(fixture), `${IDS.config}.jsonl`), join(moved, `${IDS.config}.jsonl`));
    await c.call('Sweep.Tick', {});
    expect(await c.call('Forget.Lost', { kind: 'session', id: IDS.config })).toEqual(ONE_LOST);
  });
});

describe('a store upgraded from before Steward recorded which files hold a conversation', () => {
  /** Its holds as before step 21, and the store one step back, so opening it runs step 27. */
  function beforeStep27(dir: string, sessionId: string): void {
    const db = new Database(join(dir, 'gateway.db'));
    try {
      db.prepare("DELETE FROM file_holds WHERE id = ? OR id LIKE ? || ':%'").run(sessionId, sessionId);
      db.pragma('user_version = 26');
    } finally {
      db.close();
    }
  }

  it('step 27 records the holds its files name, so a file deleted after the upgrade is lost', async () => {
    const { c, fixture } = opened('steward-lost-step27-');
    await c.call('Sweep.Tick', {});
    await c.shutdown();
    beforeStep27(owner.home().dir, IDS.pruning);
    const core = owner.reopen();
    expect(await core.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual({ conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 });
    rmSync(join(orchardDir(fixture), IDS.pruning), { recursive: true });
    await core.call('Sweep.Tick', {});
    // Its subagent's hold came from its path (`<id>/subagents/agent-<agentId>.jsonl`).
    expect(await core.call('Forget.Lost', { kind: 'session', id: SUBAGENT_SESSION })).toEqual(ONE_LOST);
    expect(await core.call('Forget.Lost', { kind: 'session', id: IDS.pruning })).toEqual(SUBAGENT_LOST);
  });

  it('an Unforget of one no file is known to hold says it comes back only if its transcript is still on disk', async () => {
    const { c } = opened('steward-lost-unknown-unforget-');
    await c.call('Sweep.Tick', {});
    const db = new Database(join(owner.home().dir, 'gateway.db'));
    db.prepare("DELETE FROM file_holds WHERE id = ? OR id LIKE ? || ':%'").run(IDS.pruning, IDS.pruning);
    db.close();
    await c.call('Forget.Session', { sessionId: IDS.pruning });
    const lifted = await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning });
    expect(lifted).toEqual({ lifted: true, ifOnDisk: true });
    expect(formatUnforget(lifted, { kind: 'session', id: IDS.pruning }, 'conversation id')).toContain('imports that conversation again if its transcript is still on disk.');
  });
});
