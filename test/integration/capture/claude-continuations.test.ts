import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, tickOf, type CaptureHarness } from './harness.js';

/**
 * A Claude Code conversation continued in a new one (`--resume`, `--continue`, `--fork-session`, a
 * Desktop continuation; reference §5.6): the new file `<newId>.jsonl` holds the original's lines,
 * copied with their `uuid` and `sessionId`, then its own, whose first line's `parentUuid` is the last
 * copied line's uuid. Some versions (#8524) copied nothing: the first line's `parentUuid` then names a
 * message only the original's file holds. Either way the continuation links back to the one it
 * continued, as a branch (a conversation of its own), and the original keeps its messages.
 */
const CWD = '/work/shop';
const ORIGINAL = '0a0a0a0a-1111-4222-8333-000000000001';
const CONTINUED = '0b0b0b0b-1111-4222-8333-000000000002';
const FORKED = '0c0c0c0c-1111-4222-8333-000000000003';
const T0 = Date.now() - 3_600_000;

type Line = Record<string, unknown>;

/** `n` lines of one session, each following the one before (`parentUuid`), the first following `after`. */
function chain(sessionId: string, tag: number, texts: readonly string[], after: string | null, start: number): Line[] {
  let parent = after;
  return texts.map((text, i) => {
    const uuid = `${tag.toString(16).padStart(8, '0')}-0000-4000-8000-${(i + 1).toString(16).padStart(12, '0')}`;
    const line = claudeLine({ sessionId, cwd: CWD, type: i % 2 === 0 ? 'user' : 'assistant', text, ts: new Date(T0 + (start + i) * 60_000), uuid, extra: { parentUuid: parent, gitBranch: 'main' } });
    parent = uuid;
    return line;
  });
}

const lastUuid = (lines: readonly Line[]) => lines[lines.length - 1]!.uuid as string;

const original = chain(ORIGINAL, 0xa, ['The checkout page flickers after hydration', 'The cart total renders twice: a hydration mismatch.', 'Fix it', 'Done: the total now renders on the client only.'], null, 0);
const title = { type: 'ai-title', aiTitle: 'Checkout hydration bug', sessionId: ORIGINAL };
const continued = chain(CONTINUED, 0xb, ['Now add a test for it', 'Added checkout.hydration.test.tsx.'], lastUuid(original), 10);
const forked = chain(FORKED, 0xc, ['Try it with server components instead', 'Moved the total into a server component.'], lastUuid(continued), 20);

const fileOf = (root: string, sessionId: string) => join(root, 'projects', '-work-shop', `${sessionId}.jsonl`);

const parentOf = (c: CaptureHarness, sessionId: string) =>
  c.db.prepare('SELECT parent_session_id AS parent, parent_kind AS kind FROM sessions WHERE session_id = ?').get(sessionId);
const partsOf = (c: CaptureHarness, sessionId: string) => c.count('SELECT COUNT(*) FROM parts WHERE session_id = ?', sessionId);

let h: CaptureHarness | undefined;
let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await h?.close();
  await core?.shutdown();
  home?.cleanup();
  [h, home, core] = [undefined, undefined, undefined];
});

describe('Claude: a continued conversation links to the one it continued', () => {
  it('the copy shape: the continuation is a branch of the original, in Sessions.List and Sessions.Get; the original keeps its messages', async () => {
    home = tempHome('steward-continuations-');
    const root = join(home.dir, 'claude');
    writeJsonl(fileOf(root, ORIGINAL), [...original, title]);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    for (const other of ['STEWARD_CLAUDE_DESKTOP_ROOTS', 'STEWARD_OPENCLAW_ROOTS', 'STEWARD_CODEX_ROOTS', 'STEWARD_GEMINI_ROOTS']) home.env[other] = join(home.dir, 'none');
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Backfill.Run', { all: true });
    const before = (await core.call('Sessions.Get', { sessionId: ORIGINAL })).session.messages;
    expect(before).toBe(4);

    writeJsonl(fileOf(root, CONTINUED), [...original, ...continued]);
    await core.call('Backfill.Run', { all: true });

    const got = await core.call('Sessions.Get', { sessionId: CONTINUED });
    expect(got.session).toMatchObject({ parentSessionId: ORIGINAL, parentKind: 'branch', messages: 2 });
    const listed = (await core.call('Sessions.List', {})).sessions;
    expect(listed.find((s) => s.sessionId === CONTINUED)).toMatchObject({ parentSessionId: ORIGINAL, parentKind: 'branch' });
    expect(listed.find((s) => s.sessionId === ORIGINAL)).toMatchObject({ parentSessionId: null, parentKind: null, messages: before, title: 'Checkout hydration bug' });
    expect((await core.call('Sessions.Get', { sessionId: ORIGINAL })).session.messages).toBe(before);
  });

  it('the copy shape read before the original, in one tick: linked, and read again from the start it stays so', async () => {
    const c = (h = captureHarness());
    writeJsonl(fileOf(c.claudeRoot, CONTINUED), [...original, ...continued]);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
    expect(parentOf(c, ORIGINAL)).toEqual({ parent: null, kind: null });
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), [...original, title]);
    c.db.exec('UPDATE file_checkpoints SET parser_version = parser_version - 1');
    await c.restart();
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
    expect([partsOf(c, ORIGINAL), partsOf(c, CONTINUED)]).toEqual([4, 2]);
  });

  it('the copy shape written in two steps (a tick between the copied lines and the first new one) still links', async () => {
    const c = (h = captureHarness());
    const file = fileOf(c.claudeRoot, CONTINUED);
    writeJsonl(file, original);
    await tickOf(c, 'claude');
    writeJsonl(file, [...original, ...continued]);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
  });

  it('the parentUuid-only shape, the original read first: linked through the message it follows', async () => {
    const c = (h = captureHarness());
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), [...original, title]);
    await tickOf(c, 'claude');
    writeJsonl(fileOf(c.claudeRoot, CONTINUED), continued);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
    expect(parentOf(c, ORIGINAL)).toEqual({ parent: null, kind: null });
    expect(partsOf(c, ORIGINAL)).toBe(4);
  });

  it('the parentUuid-only shape, the original read after it: linked by the tick that reads the original', async () => {
    const c = (h = captureHarness());
    writeJsonl(fileOf(c.claudeRoot, CONTINUED), continued);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: null, kind: null });
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), [...original, title]);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
  });

  it('the parentUuid-only shape, both files in one tick, whichever is read first: linked', async () => {
    const c = (h = captureHarness());
    writeJsonl(fileOf(c.claudeRoot, CONTINUED), continued);
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), [...original, title]);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
  });

  it('a fork of a fork links to the nearer one, in either shape', async () => {
    const c = (h = captureHarness());
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), original);
    writeJsonl(fileOf(c.claudeRoot, CONTINUED), continued);
    // The fork copies both conversations it descends from, then goes on from the continuation's last line.
    writeJsonl(fileOf(c.claudeRoot, FORKED), [...original, ...continued, ...forked]);
    await tickOf(c, 'claude');
    expect(parentOf(c, FORKED)).toEqual({ parent: CONTINUED, kind: 'branch' });
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });

    const d = captureHarness();
    try {
      writeJsonl(fileOf(d.claudeRoot, ORIGINAL), original);
      writeJsonl(fileOf(d.claudeRoot, CONTINUED), continued);
      writeJsonl(fileOf(d.claudeRoot, FORKED), forked);
      await tickOf(d, 'claude');
      expect(parentOf(d, FORKED)).toEqual({ parent: CONTINUED, kind: 'branch' });
      expect(parentOf(d, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
    } finally {
      await d.close();
    }
  });

  it("a subagent's transcript keeps its parent, whatever its first line's parentUuid names", async () => {
    const c = (h = captureHarness());
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), original);
    writeJsonl(fileOf(c.claudeRoot, CONTINUED), continued);
    const sub = claudeLine({ sessionId: CONTINUED, agentId: 'a1b2c3', cwd: CWD, text: 'Find the test helpers', ts: new Date(T0 + 30 * 60_000), extra: { parentUuid: lastUuid(original) } });
    writeJsonl(join(c.claudeRoot, 'projects', '-work-shop', CONTINUED, 'subagents', 'agent-a1b2c3.jsonl'), [sub]);
    await tickOf(c, 'claude');
    expect(parentOf(c, `${CONTINUED}:agent-a1b2c3`)).toEqual({ parent: CONTINUED, kind: 'subagent' });
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
  });

  it('a line that follows one of its own session never makes it its own parent', async () => {
    const c = (h = captureHarness());
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), original);
    await tickOf(c, 'claude');
    // A copy of the original's later lines alone (its start cut off): they follow a line of their own session.
    writeJsonl(join(c.claudeRoot, 'projects', '-work-shop', 'elsewhere.jsonl'), original.slice(2));
    await tickOf(c, 'claude');
    expect(parentOf(c, ORIGINAL)).toEqual({ parent: null, kind: null });
  });
});

describe('Claude: a continuation waiting for its original across a restart', () => {
  it('is linked by the next read of its own file once the original is stored (the claim rides in its checkpoint)', async () => {
    const c = (h = captureHarness());
    const file = fileOf(c.claudeRoot, CONTINUED);
    writeJsonl(file, continued);
    await tickOf(c, 'claude');
    // A new owner process: what the last one waited for in memory is gone.
    await c.restart();
    writeJsonl(fileOf(c.claudeRoot, ORIGINAL), original);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: null, kind: null });
    // The continuation goes on: its read resumes from its checkpoint, past the first line, and still says what it follows.
    writeJsonl(file, [...continued, ...chain(CONTINUED, 0xd, ['And run it in CI'], lastUuid(continued), 12)]);
    await tickOf(c, 'claude');
    expect(parentOf(c, CONTINUED)).toEqual({ parent: ORIGINAL, kind: 'branch' });
  });
});
