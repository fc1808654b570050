import { existsSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay, partHolderOf } from '../../../core/api/index.js';
import { Core } from '../../../core/index.js';
import { runIn } from '../../support/cli.js';
import { historyHome, IDS, ORCHARD, SUBAGENT_SESSION } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// What the CLI says when what was asked for is not all there, or not there: a message Steward cut
// short says so, and each miss says its own reason (found by a new user's QA session).

const LONG = '5d0c3e2a-1b4f-4c6d-8e9f-0a1b2c3d4e5f';
const LONG_CHARS = 54_009;

let home: TempHome;

beforeAll(async () => {
  const made = historyHome('steward-cli-miss-');
  home = made.home;
  const { fixture } = made;
  // A message longer than the 32 KiB Steward keeps of each.
  writeJsonl(join(fixture.claudeRoot, 'projects', '-work-orchard', `${LONG}.jsonl`), [
    claudeLine({ sessionId: LONG, cwd: ORCHARD, ts: new Date(Date.now() - 3_600_000), text: 'Paste the whole log, please.' }),
    claudeLine({ sessionId: LONG, cwd: ORCHARD, ts: new Date(Date.now() - 3_500_000), type: 'assistant', text: 'log '.repeat(LONG_CHARS / 4).slice(0, LONG_CHARS - 3) + 'end' }),
  ]);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('steward sessions show, of a message Steward cut short', () => {
  it('says it was cut short, in the words an export says it', async () => {
    const shown = await cli('sessions', 'show', LONG, '--limit', '2');
    expect(shown.code).toBe(0);
    const note = `(cut short: Steward kept only the start of its ${(54_009).toLocaleString('en-US')} characters)`;
    expect(shown.out).toContain(note);
    expect((await cli('sessions', 'export', LONG)).out).toContain(`_${note}_`);
    // Once, under the message it is about: the short message says nothing of the kind.
    expect(shown.out.split(note)).toHaveLength(2);
  });
});

describe('steward sessions show --part, of a part in one of its subagents', () => {
  it('names the subagent the part is in and the command that opens it there', async () => {
    const sub = JSON.parse((await cli('sessions', 'show', SUBAGENT_SESSION, '--json')).out) as { messages: Array<{ parts: Array<{ partId: string }> }> };
    const partId = sub.messages[1]!.parts[0]!.partId;
    const shown = await cli('sessions', 'show', IDS.pruning, '--part', partId);
    expect(shown.code).toBe(1);
    expect(shown.err).toBe(`steward: That part is in the subagent conversation ${SUBAGENT_SESSION} of this one; \`steward sessions show ${SUBAGENT_SESSION} --part ${partId}\` opens it there\n`);
    // A part in no conversation of it is said as before.
    expect((await cli('sessions', 'show', IDS.pruning, '--part', 'no-such-part')).err).toContain('That part is not in this conversation');
  });

  it("is named by Sessions.Get's not_found itself, in a typed field (details.heldBy), so the CLI asks no subagent in turn", async () => {
    const sub = JSON.parse((await cli('sessions', 'show', SUBAGENT_SESSION, '--json')).out) as { messages: Array<{ parts: Array<{ partId: string }> }> };
    const partId = sub.messages[1]!.parts[0]!.partId;
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    try {
      const held = await core.call('Sessions.Get', { sessionId: IDS.pruning, partId }).catch((e: unknown) => e);
      expect(partHolderOf(held)).toBe(SUBAGENT_SESSION);
      const nowhere = await core.call('Sessions.Get', { sessionId: IDS.pruning, partId: 'no-such-part' }).catch((e: unknown) => e);
      expect(partHolderOf(nowhere)).toBeUndefined();
    } finally {
      await core.shutdown();
    }
  });
});

describe('steward context, when there are no notes to print', () => {
  const context = (...argv: string[]) => cli('context', ...argv);
  const user = () => home.env.HOME!;

  it('reads a relative --cwd from the folder the command runs in, as every command does', async () => {
    // The project orchard, named from here: its notes are what is looked for, never a usage error.
    const fromHere = await context('--cwd', relative(process.cwd(), join(ORCHARD, 'src')));
    expect(fromHere.code).toBe(1);
    expect(fromHere.err).toContain('no notes for orchard yet');
    expect((await context('--cwd', 'relative/dir')).err).not.toContain('absolute folder');
  });

  it('says a filesystem root or the home folder is too wide to be a project', async () => {
    mkdirSync(user(), { recursive: true });
    for (const folder of ['/', user()]) {
      const said = await context('--cwd', folder);
      expect(said.code).toBe(1);
      expect(said.err).toContain('is a filesystem root or your home folder');
      expect(said.err).not.toContain('sweeper writes them');
    }
  });

  it('says a --home that holds no Steward data is none', async () => {
    const said = await context('--home', join(home.dir, 'nonexistent'), '--cwd', ORCHARD);
    expect(said.code).toBe(1);
    expect(said.err).toContain('--home: that folder holds no Steward data');
    // Said without opening, let alone making, a store there.
    expect(existsSync(join(home.dir, 'nonexistent'))).toBe(false);
  });

  it('says Steward knows no project containing a folder, and how notes come for one it knows', async () => {
    expect(await context('--cwd', '/work/nowhere/deep')).toEqual({ code: 1, out: '', err: 'steward: Steward knows no project containing that folder yet\n' });
    const known = await context('--cwd', join(ORCHARD, 'src'));
    expect(known.code).toBe(1);
    expect(known.err).toContain('no notes for orchard yet. The sweeper writes them');
    expect(known.err).toContain('`steward sweeper run orchard`');
  });
});

describe('steward search --session, of a forgotten conversation', () => {
  it('says it was forgotten, when, and the way back, as sessions show does', async () => {
    expect((await cli('forget', '--session', IDS.kitchen)).code).toBe(0);
    const said = `steward: You forgot this conversation on ${localDay(Date.now())}; \`steward unforget --session ${IDS.kitchen}\` brings it back\n`;
    expect(await cli('search', 'pumpkin', '--session', IDS.kitchen)).toEqual({ code: 1, out: '', err: said });
    expect((await cli('sessions', 'show', IDS.kitchen)).err).toBe(said);
    expect((await cli('search', 'pumpkin', '--session', 'no-such-id')).err).toContain('give the whole id');
  });
});
