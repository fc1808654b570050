import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { openclawLines, writeJsonl } from '../../support/transcripts.js';

/**
 * A conversation branched from another (OpenClaw's `parentSession`, Codex's `forked_from_id`) is a
 * conversation of its own: forgetting the one it branched from removes that one and its subagents,
 * never the branch, and the tombstone keeps the branch's re-import alone too.
 */
const TRUNK = 'oc:main:trunk-1';
const BRANCH = 'oc:main:branch-1';

let home: TempHome;
let core: Core;

beforeEach(async () => {
  home = tempHome('steward-forget-branch-');
  const sessions = join(home.dir, 'openclaw', 'agents', 'main', 'sessions');
  writeJsonl(join(sessions, 'trunk-1.jsonl'), openclawLines('trunk-1', [{ id: 'a0000001', text: 'Plan the beds' }]));
  const [header, ...rest] = openclawLines('branch-1', [{ id: 'b0000001', text: 'Try raised beds instead' }]) as Array<Record<string, unknown>>;
  writeJsonl(join(sessions, 'branch-1.jsonl'), [{ ...header, parentSession: 'trunk-1' }, ...rest]);
  home.env.STEWARD_OPENCLAW_ROOTS = join(home.dir, 'openclaw');
  for (const other of ['STEWARD_CLAUDE_ROOTS', 'STEWARD_CLAUDE_DESKTOP_ROOTS', 'STEWARD_CODEX_ROOTS', 'STEWARD_GEMINI_ROOTS']) home.env[other] = join(home.dir, 'none');
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterEach(async () => {
  await core.shutdown();
  home.cleanup();
});

const stored = async (sessionId: string) => (await core.call('Sessions.Get', { sessionId }).then(() => true, () => false));

describe('forgetting a conversation another was branched from', () => {
  it('removes it alone, keeps the branch, and keeps the branch through a backfill that reads both files again', async () => {
    expect((await core.call('Sessions.Get', { sessionId: BRANCH })).session).toMatchObject({ parentSessionId: TRUNK, parentKind: 'branch' });

    const result = await core.call('Forget.Session', { sessionId: TRUNK });
    expect(result.removedSessions).toBe(1);
    expect(await stored(TRUNK)).toBe(false);
    expect(await stored(BRANCH)).toBe(true);

    await core.call('Backfill.Run', { all: true });
    expect(await stored(TRUNK)).toBe(false);
    expect((await core.call('Sessions.Get', { sessionId: BRANCH })).messages.length).toBeGreaterThan(0);
  });

  it('a branch is imported again once its own tombstone is lifted, though the conversation it branched from stays forgotten', async () => {
    await core.call('Forget.Session', { sessionId: TRUNK });
    await core.call('Forget.Session', { sessionId: BRANCH });
    expect(await stored(BRANCH)).toBe(false);
    const lift = await core.call('Forget.Lift', { kind: 'session', id: BRANCH });
    // Nothing else keeps it out: its trunk's forget is not its own.
    expect(lift).toMatchObject({ lifted: true });
    expect(lift.stillOut).toBeUndefined();
    await core.call('Backfill.Run', { all: true });
    expect(await stored(BRANCH)).toBe(true);
    expect(await stored(TRUNK)).toBe(false);
  });

  it('a branch forgotten first goes alone, and a fresh import of the branch is kept out while its trunk stays', async () => {
    await core.call('Forget.Session', { sessionId: BRANCH });
    await core.call('Backfill.Run', { all: true });
    expect(await stored(BRANCH)).toBe(false);
    expect(await stored(TRUNK)).toBe(true);
  });
});
