import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { join } from 'node:path';
import { historyHome, IDS, OPENCLAW_CWD, OPENCLAW_SESSION, ORCHARD, SUBAGENT_SESSION, type HistoryFixture } from '../../support/history.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import type { TempHome } from '../../support/home.js';

// What a new person's first walk through the CLI met: a typo that forgot nothing but stayed in the
// list, a search that said "No matches." of a conversation that is not there, errors in the words of
// the contract rather than the command's, and two conventions for one kind of mistake.

let home: TempHome;
let fixture: HistoryFixture;

beforeAll(async () => {
  ({ home, fixture } = historyHome('steward-cli-walk-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);
const tombstones = async () => (JSON.parse((await cli('forget', '--list', '--json')).out) as { tombstones: Array<{ kind: string; id: string }> }).tombstones;

describe('steward forget with an id Steward holds nothing under', () => {
  it('refuses a mistyped conversation id with a typed error naming --not-stored, and tombstones nothing', async () => {
    const typo = await cli('forget', '--session', 'nope');
    expect(typo).toEqual({
      code: 1,
      out: '',
      err: 'steward: No stored conversation has that id, so nothing was forgotten. Give the whole id, as `steward sessions list` prints it; to forget a conversation Steward has not imported (keeping it out of future imports), add --not-stored.\n',
    });
    const json = await cli('forget', '--session', 'nope', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'not_found', remediation: expect.stringContaining('--not-stored') } });
    expect(await tombstones()).toEqual([]);
  });

  it('refuses an unknown project key the same way', async () => {
    const typo = await cli('forget', '--project', 'p_0123456789abcdef');
    expect(typo.code).toBe(1);
    expect(typo.err).toBe(
      "steward: No stored project has that key, so nothing was forgotten. `steward projects` lists each project's name and key; to forget a project Steward has not imported (keeping it out of future imports), add --not-stored.\n",
    );
    expect(await tombstones()).toEqual([]);
  });

  it('with --not-stored, keeps out an id not imported yet, as the contract does', async () => {
    const meant = await cli('forget', '--session', 'not-imported-yet', '--not-stored');
    expect(meant.code).toBe(0);
    expect(meant.out).toMatch(/^Forgot conversation not-imported-yet: nothing was stored under that id/);
    const project = await cli('forget', '--project', 'p_0123456789abcdef', '--not-stored');
    expect(project.code).toBe(0);
    expect(await tombstones()).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'session', id: 'not-imported-yet' }), expect.objectContaining({ kind: 'project', id: 'p_0123456789abcdef' })]),
    );
    for (const [kind, id] of [
      ['session', 'not-imported-yet'],
      ['project', 'p_0123456789abcdef'],
    ] as const)
      expect((await cli('unforget', `--${kind}`, id)).code).toBe(0);
    // --not-stored says something of an id to forget; --list names none.
    expect((await cli('forget', '--list', '--not-stored')).code).toBe(2);
  });

  it('names a project never imported by its folder: --not-stored keeps out the key capture would give it', async () => {
    expect((await cli('forget', '--help')).out.replace(/\s+/g, ' ')).toContain('--project <project> the project to forget (its name or key, as `steward projects` lists them, or its folder)');
    const refused = await cli('forget', '--project', '/home/ana/src/newproj');
    expect(refused.code).toBe(1);
    expect(await tombstones()).toEqual([]);
    const kept = await cli('forget', '--project', '/home/ana/src/newproj/', '--not-stored');
    expect(kept.code).toBe(0);
    // The key capture derives from that folder (p_ + sha256 of the normalized path, cut to 16 digits).
    const key = `p_${createHash('sha256').update('/home/ana/src/newproj').digest('hex').slice(0, 16)}`;
    expect(await tombstones()).toEqual([expect.objectContaining({ kind: 'project', id: key })]);
    expect((await cli('unforget', '--project', key)).code).toBe(0);
  });
});

describe('steward search --session with an id no conversation has', () => {
  it('says no stored conversation has that id, with the exit code of `sessions show`', async () => {
    const search = await cli('search', '--session', 'nope', 'apple');
    const show = await cli('sessions', 'show', 'nope');
    expect(search).toEqual({ code: 1, out: '', err: show.err });
    expect(search.err).toMatch(/^steward: No stored conversation has that id/);
    // A stored one with no match is still "No matches.".
    const none = await cli('search', '--session', IDS.kitchen, 'zzyzx');
    expect({ code: none.code, out: none.out }).toEqual({ code: 0, out: 'No matches.\n' });
  });
});

describe('steward search --project with a key no project has', () => {
  it('says no stored project has that key (not_found, exit 1), as an unknown project name does', async () => {
    const search = await cli('search', '--project', 'p_0123456789abcdef', 'apple');
    expect(search).toEqual({
      code: 1,
      out: '',
      err: "steward: --project: no stored project has the key p_0123456789abcdef (it may have been forgotten); `steward projects` lists each project's name and key\n",
    });
    const json = await cli('search', '--project', 'p_0123456789abcdef', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'not_found' } });
    expect((await cli('search', '--project', 'no-such-project', 'apple')).code).toBe(1);
    // A stored one with no match is still "No matches.".
    const { projects } = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string }> };
    const none = await cli('search', '--project', projects[0]!.projectKey, 'zzyzx');
    expect({ code: none.code, out: none.out }).toEqual({ code: 0, out: 'No matches.\n' });
  });
});

describe('steward search labels a subagent’s prompt as the panel and exports do', () => {
  it('"Main agent", not "user"', async () => {
    const { code, out } = await cli('search', 'frost', 'dates', '--session', SUBAGENT_SESSION, '--role', 'user');
    expect(code).toBe(0);
    expect(out).toMatch(/ {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+ {2}Main agent: Find the first frost dates/);
    expect(out).not.toMatch(/ user: /);
  });
});

describe('errors in the words of the command, one prefix, one exit-code convention', () => {
  it('--repo that is no repository says so of --repo (usage, exit 2)', async () => {
    const { code, out, err } = await cli('search', 'apple', '--repo', 'bad');
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toBe('steward: --repo expects OWNER/NAME (or a canonical id such as github.com/OWNER/NAME), got "bad"\n');
  });

  it('a negative --limit is said to need a positive whole number', async () => {
    for (const [argv, max] of [
      [['sessions', 'list', '--limit', '-1'], 200],
      [['sessions', 'list', '--limit', '0'], 200],
      [['search', 'apple', '--limit', '1.5'], 100],
      [['search', 'apple', '--limit', '500'], 100],
    ] as const) {
      const { code, err } = await cli(...argv);
      expect({ argv, code, err }).toEqual({ argv, code: 2, err: `steward: --limit must be a positive whole number, at most ${max}, got ${JSON.stringify(argv[argv.length - 1])}\n` });
    }
    expect((await cli('backfill', '--days', '-3')).err).toBe('steward: --days must be a whole number from 0 to 36500, got "-3"\n');
  });

  it('commander’s own complaints start with steward:, as every other error', async () => {
    const unknown = await cli('sessions', 'list', '--nope');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe("steward: unknown option '--nope' (see `steward sessions list --help`)\n");
    const missing = await cli('sessions', 'show');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^steward: missing required argument 'id' \(/);
  });

  it('search --help names the column filters the syntax takes', async () => {
    const help = (await cli('search', '--help')).out.replace(/\s+/g, ' ');
    expect(help).toContain('column:word searches one column: body:, thinking:, tool_input:, tool_output:');
  });

  it('--help says the exit codes', async () => {
    const { out } = await cli('--help');
    expect(out).toContain('Exit codes: 0 success; 1 failure, among them an id or a name Steward holds nothing under (not_found); 2 usage error');
  });
});

describe('steward unforget of what was forgotten with --not-stored and never met since', () => {
  it('does not say nothing would come: no check has found a transcript of it yet, and the next check or a backfill imports one (review of QA s49)', async () => {
    expect((await cli('forget', '--project', '/home/ana/src/neverseen', '--not-stored')).code).toBe(0);
    const lifted = await cli('unforget', '--project', 'neverseen');
    expect(lifted.code).toBe(0);
    expect(lifted.out).toBe(
      "Lifted. Steward never stored that project, and no check has found a transcript of it yet: the next check imports one inside the regular checks' window; `steward backfill --all` brings in older ones.\n",
    );
    expect(lifted.out).not.toMatch(/nothing of it|nothing to import/);
    expect((await cli('forget', '--session', 'never-seen-either', '--not-stored')).code).toBe(0);
    const json = JSON.parse((await cli('unforget', '--session', 'never-seen-either', '--json')).out) as Record<string, unknown>;
    expect(json).toEqual({ lifted: true, neverStored: true });
  });

  it('forgotten with --not-stored and unforgotten before any check met its transcript: the next check imports it', async () => {
    const id = 'c0ffee00-1111-4222-8333-444455556666';
    writeJsonl(join(fixture.claudeRoot, 'projects', '-work-orchard', `${id}.jsonl`), [
      claudeLine({ sessionId: id, cwd: ORCHARD, ts: new Date(Date.now() - 60_000), uuid: `${id.slice(0, 8)}-0000-4000-8000-000000000001`, text: 'Which rootstock suits quince?' }),
    ]);
    expect((await cli('forget', '--session', id, '--not-stored')).code).toBe(0);
    const lifted = await cli('unforget', '--session', id);
    expect(lifted.code).toBe(0);
    expect(lifted.out).not.toMatch(/nothing of it|nothing to import/);
    expect(lifted.out).toContain('the next check imports one');
    // The next check (a backfill of the regular window, run from the CLI) brings it in.
    expect((await cli('backfill', '--json')).code).toBe(0);
    const shown = await cli('sessions', 'show', id, '--json');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('Which rootstock suits quince?');
  });
});

describe('steward forget --project of a project that holds no conversations', () => {
  it('says it removed the empty project (its row was there, though nothing was stored in it), and exits 0', async () => {
    // A project whose only conversation was forgotten stays listed, empty: its notes are the person's.
    expect((await cli('forget', '--session', OPENCLAW_SESSION)).code).toBe(0);
    const listed = (JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ name: string; projectKey: string; sessions: number }> }).projects;
    const empty = listed.find((p) => p.name === 'openclaw-workspace');
    expect(empty).toMatchObject({ sessions: 0 });

    const forgot = await cli('forget', '--project', OPENCLAW_CWD);
    expect({ code: forgot.code, err: forgot.err }).toEqual({ code: 0, err: '' });
    expect(forgot.out).toBe(
      `Removed the empty project openclaw-workspace (${empty!.projectKey}); it held no conversations. It stays out of future imports; \`steward unforget --project ${empty!.projectKey}\` lifts that.\n`,
    );
    expect(forgot.out).not.toContain('nothing was stored');
    const after = (JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string }> }).projects;
    expect(after.map((p) => p.projectKey)).not.toContain(empty!.projectKey);
    expect((await cli('unforget', '--project', empty!.projectKey)).code).toBe(0);
    expect((await cli('unforget', '--session', OPENCLAW_SESSION)).code).toBe(0);
  });
});
