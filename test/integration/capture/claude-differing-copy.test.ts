import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SKIP_WORDS } from '../../../core/api/index.js';
import { formatSweepResult } from '../../../core/cli/commands/sweep.js';
import { skippedLines } from '../../../renderer/src/components/words.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const S = 'aaaaaaaa-0000-4000-8000-000000000001';
/** A resumed conversation's file: its name sorts after S's, so it is read after S's in a run. */
const T = 'bbbbbbbb-0000-4000-8000-000000000002';
/** One whose name sorts before S's: read first in every run. */
const EARLY = '00000000-0000-4000-8000-000000000009';
const U1 = 'cccccccc-0000-4000-8000-000000000003';
const U2 = 'cccccccc-0000-4000-8000-000000000004';

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');
const backfill = async (c: CaptureHarness) => byProvider(await c.driver.backfill({ all: true }), 'claude');
const texts = (c: CaptureHarness, session: string) => c.db.prepare('SELECT text FROM parts WHERE session_id = ? ORDER BY part_id').pluck().all(session);
const rows = (c: CaptureHarness) => c.db.prepare('SELECT part_id, session_id, text FROM parts ORDER BY part_id').all();

/**
 * Claude Code session S (`-work-p/S.jsonl`): a prompt and an answer of two blocks. A resumed or forked
 * session's file copies them with their `uuid` and `sessionId` (reference §5.6), then adds a line of
 * its own; `differ` has its copy of the answer say something else in one block.
 */
function fixture(c: CaptureHarness, copyName: string, differ: boolean, copySession = S) {
  const dir = join(c.claudeRoot, 'projects', '-work-p');
  const ts = new Date(Date.now() - 3_600_000);
  const later = new Date(ts.getTime() + 1_000);
  const ask = (sessionId: string) => claudeLine({ sessionId, cwd: '/work/p', uuid: U1, ts, text: 'why does the login form reset?' });
  const answer = (sessionId: string, tail: string) =>
    claudeLine({ sessionId, type: 'assistant', cwd: '/work/p', uuid: U2, ts: later, content: [{ type: 'thinking', thinking: 'look at the form state' }, { type: 'text', text: tail }] });
  const original = 'the state is recreated on every render: keep it in a ref';
  return {
    writeOwn: () => writeJsonl(join(dir, `${S}.jsonl`), [ask(S), answer(S, original)]),
    writeCopy: () =>
      writeJsonl(join(dir, `${copyName}.jsonl`), [ask(copySession), answer(copySession, differ ? 'the state is recre' : original), claudeLine({ sessionId: copyName, cwd: '/work/p', text: 'now add a test for it' })]),
    original,
  };
}

describe('Claude: a copy of a message in another file', () => {
  it('with the same words is a quiet dedup: nothing counted, nothing doubled, in either order and after a re-read', async () => {
    const c = (h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } }));
    const f = fixture(c, T, false);
    f.writeOwn();
    f.writeCopy();
    const first = await claude(c);
    expect(first).toMatchObject({ read: 2, partsWritten: 4 });
    expect(first.skipped ?? {}).toEqual({});
    const stored = rows(c);
    // Read again from their start (a manual import), and after a restart with no checkpoints.
    const again = await backfill(c);
    expect(again).toMatchObject({ read: 2, partsWritten: 0 });
    expect(again.skipped ?? {}).toEqual({});
    c.db.prepare('DELETE FROM file_checkpoints').run();
    await c.restart();
    expect((await claude(c)).skipped ?? {}).toEqual({});
    expect(rows(c)).toEqual(stored);
    // The copy read first (its name sorts before S's), in a fresh store: still nothing counted.
    const d = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    try {
      const g = fixture(d, EARLY, false);
      g.writeOwn();
      g.writeCopy();
      const read = await claude(d);
      expect(read).toMatchObject({ read: 2, partsWritten: 4 });
      expect(read.skipped ?? {}).toEqual({});
    } finally {
      await d.close();
    }
  });

  it('with different words is counted once per line, in the tick, telemetry, the CLI and the panel; the version kept is not replaced', async () => {
    const c = (h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } }));
    const f = fixture(c, T, true);
    f.writeOwn();
    f.writeCopy();
    const stats = await claude(c);
    // S's prompt and two answer blocks, T's own line; the copy's answer (one block of it differing) is one line counted.
    expect(stats).toMatchObject({ read: 2, partsWritten: 4 });
    expect(stats.skipped).toEqual({ differing_copy: 1 });
    expect(texts(c, S)).toEqual(['why does the login form reset?', 'look at the form state', f.original]);
    const [entry] = c.telemetry.recent(1, 'sweep.tick');
    expect((entry?.data as { providers: Array<{ skipped: unknown }> }).providers[0]!.skipped).toEqual({ differing_copy: 1 });
    expect(formatSweepResult({ providers: [stats] })).toContain(`1 line held nothing to import (1 ${SKIP_WORDS.differing_copy})`);
    expect(skippedLines([stats])).toContain(`1 ${SKIP_WORDS.differing_copy}`);
    // Nothing changed: nothing read, nothing counted.
    expect((await claude(c)).skipped ?? {}).toEqual({});
  });

  it('keeps idempotency: a re-read of both files, from their start or after a restart, adds nothing and counts the copy once per read', async () => {
    const c = (h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } }));
    const f = fixture(c, T, true);
    f.writeOwn();
    f.writeCopy();
    await claude(c);
    const stored = rows(c);
    const again = await backfill(c);
    expect(again).toMatchObject({ read: 2, partsWritten: 0, skipped: { differing_copy: 1 } });
    const [entry] = c.telemetry.recent(1, 'backfill.run');
    expect(JSON.stringify(entry?.data)).toContain('"differing_copy":1');
    c.db.prepare('DELETE FROM file_checkpoints').run();
    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 2, partsWritten: 0, skipped: { differing_copy: 1 } });
    expect(rows(c)).toEqual(stored);
  });

  it('the copy read in a later tick, or before the own file in the same first import, is counted the same', async () => {
    const c = (h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } }));
    const f = fixture(c, T, true);
    f.writeOwn();
    await claude(c);
    f.writeCopy();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 1, skipped: { differing_copy: 1 } });
    expect(texts(c, S)).toEqual(['why does the login form reset?', 'look at the form state', f.original]);

    const d = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    try {
      const g = fixture(d, EARLY, true);
      g.writeOwn();
      g.writeCopy();
      // The copy is stored first, then the conversation's own file puts its own words back: the copy's are counted.
      expect(await claude(d)).toMatchObject({ read: 2, skipped: { differing_copy: 1 } });
      expect(texts(d, S)).toEqual(['why does the login form reset?', 'look at the form state', g.original]);
      const stored = rows(d);
      expect(await backfill(d)).toMatchObject({ read: 2, partsWritten: 0, skipped: { differing_copy: 1 } });
      expect(rows(d)).toEqual(stored);
    } finally {
      await d.close();
    }
  });

  it('a line written again in its own file under the same uuid is counted when its words differ', async () => {
    const c = (h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } }));
    const ts = new Date(Date.now() - 3_600_000);
    const line = (text: string) => claudeLine({ sessionId: S, cwd: '/work/p', uuid: U1, ts, text });
    writeJsonl(join(c.claudeRoot, 'projects', '-work-p', `${S}.jsonl`), [line('run the tests'), line('run the tests'), line('run the tests again')]);
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 1, skipped: { differing_copy: 1 } });
    expect(texts(c, S)).toEqual(['run the tests']);
  });

  it('a copy under another session id (a fork that relabels its lines) is counted when its words differ, and not when they do not', async () => {
    const c = (h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } }));
    const f = fixture(c, T, true, T);
    f.writeOwn();
    f.writeCopy();
    const stats = await claude(c);
    expect(stats).toMatchObject({ read: 2, partsWritten: 4, skipped: { differing_copy: 1 } });
    expect(c.count('SELECT COUNT(*) FROM parts WHERE session_id = ?', T)).toBe(1);

    const d = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    try {
      const g = fixture(d, T, false, T);
      g.writeOwn();
      g.writeCopy();
      const same = await claude(d);
      expect(same).toMatchObject({ read: 2, partsWritten: 4 });
      expect(same.skipped ?? {}).toEqual({});
    } finally {
      await d.close();
    }
  });
});
