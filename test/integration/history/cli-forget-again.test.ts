import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { runIn } from '../../support/cli.js';
import { historyHome, IDS, SUBAGENT_SESSION } from '../../support/history.js';
import { tempHome, type TempHome } from '../../support/home.js';

// A tester's forget/unforget findings, as a person meets them on the command line: a Codex branch
// survives forgetting the rollout it forked from; forgetting what is forgotten already is nothing to
// do (a project by its name too, a subagent of a forgotten conversation too); and unforgetting what is
// not forgotten answers alike whether it is named by id, key, folder or name.

const today = () => localDay(Date.now());

describe('forgetting a Codex rollout another was forked from', () => {
  const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
  const PARENT = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
  const FORK = '019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c';
  let home: TempHome;
  const cli = (...argv: string[]) => runIn(home.env, ...argv);
  const place = (file: string) => copyFileSync(join(FIXTURES, file), join(home.dir, 'codex', 'sessions', '2026', '07', '13', file));
  const PARENT_FILE = `rollout-2026-07-13T18-41-30-${PARENT}.jsonl`;
  const FORK_FILE = `rollout-2026-07-13T19-20-00-${FORK}.jsonl`;

  beforeEach(() => {
    home = tempHome('steward-cli-forget-fork-');
    mkdirSync(join(home.dir, 'codex', 'sessions', '2026', '07', '13'), { recursive: true });
    home.env.STEWARD_CODEX_ROOTS = join(home.dir, 'codex');
  });

  afterEach(() => home?.cleanup());

  it('deletes the rollout alone (no subagent said), keeps the fork through a backfill, and lists the rollout alone', async () => {
    place(PARENT_FILE);
    place(FORK_FILE);
    expect((await cli('backfill', '--all')).code).toBe(0);
    expect((await cli('sessions', 'show', FORK)).out).toContain('branched from');
    const forgot = await cli('forget', '--session', PARENT);
    expect(forgot).toMatchObject({ code: 0, err: '' });
    expect(forgot.out).toMatch(/^Forgot conversation [\w-]+: deleted it from Steward\. /);
    expect((await cli('sessions', 'show', FORK)).code).toBe(0);

    // The fork's file replays the rollout's lines: reading it again brings back the fork, never the rollout.
    expect((await cli('backfill', '--all')).code).toBe(0);
    const fork = await cli('sessions', 'show', FORK);
    expect(fork.code).toBe(0);
    expect(fork.out).toContain('make the retry count configurable');
    expect((await cli('sessions', 'show', PARENT)).err).toContain('You forgot this conversation');
    const listed = JSON.parse((await cli('forget', '--list', '--json')).out) as { tombstones: Array<{ id: string }> };
    expect(listed.tombstones.map((t) => t.id)).toEqual([PARENT]);

    // The fork is forgettable on its own.
    expect((await cli('forget', '--session', FORK)).out).toMatch(/: deleted it from Steward\. /);
  });

  it('a fork first seen after its rollout was forgotten is imported, holding its own lines only', async () => {
    place(PARENT_FILE);
    expect((await cli('backfill', '--all')).code).toBe(0);
    expect((await cli('forget', '--session', PARENT)).code).toBe(0);
    place(FORK_FILE);
    expect((await cli('backfill', '--all')).code).toBe(0);
    const fork = await cli('sessions', 'show', FORK);
    expect(fork.code).toBe(0);
    expect(fork.out).toContain('make the retry count configurable');
    // The rollout's lines the fork replays stay out with the rollout.
    expect((await cli('sessions', 'show', PARENT)).err).toContain('You forgot this conversation');
    expect(fork.out).not.toContain('AGENTS.md');
  });
});

describe('forgetting and unforgetting what is (not) forgotten', () => {
  let home: TempHome;
  const cli = (...argv: string[]) => runIn(home.env, ...argv);

  beforeAll(async () => {
    ({ home } = historyHome('steward-cli-forget-again-'));
    expect((await cli('backfill', '--all')).code).toBe(0);
  });

  afterAll(() => home?.cleanup());

  it('a project forgotten by its name, forgotten again by that name or its key, is nothing more to do', async () => {
    const key = (JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ name: string; projectKey: string }> }).projects.find((p) => p.name === 'kitchen')!.projectKey;
    expect((await cli('forget', '--project', 'kitchen')).code).toBe(0);
    const said = `You forgot project kitchen (${key}) on ${today()}: nothing more to do. It stays out of future imports; \`steward unforget --project ${key}\` lifts that.\n`;
    expect(await cli('forget', '--project', 'kitchen')).toEqual({ code: 0, out: said, err: '' });
    expect(await cli('forget', '--project', key)).toEqual({ code: 0, out: said, err: '' });
    expect(JSON.parse((await cli('forget', '--project', 'kitchen', '--json')).out)).toMatchObject({ alreadyForgotten: { kind: 'project', id: key } });
    expect((await cli('unforget', '--project', 'kitchen')).code).toBe(0);
  });

  it('a subagent of a forgotten conversation, forgotten again, is nothing more to do', async () => {
    expect((await cli('forget', '--session', IDS.pruning)).code).toBe(0);
    expect(await cli('forget', '--session', SUBAGENT_SESSION)).toEqual({
      code: 0,
      out: `You forgot the conversation this subagent belongs to on ${today()}: nothing more to do. It stays out of future imports; \`steward unforget --session ${IDS.pruning}\` lifts that.\n`,
      err: '',
    });
    expect((await cli('unforget', '--session', IDS.pruning)).code).toBe(0);
  });

  it('unforget of what is not forgotten changes nothing and exits 0, named by id, key, folder or name alike', async () => {
    const cases: Array<[string, string, string]> = [
      ['--session', 'nope', 'Nothing was forgotten under that conversation id.\n'],
      ['--project', 'p_0123456789abcdef', 'Nothing was forgotten under that project key.\n'],
      ['--project', '/home/ana/src/never-forgotten', 'Nothing was forgotten under that project folder.\n'],
      ['--project', 'nope', 'Nothing was forgotten under that project name.\n'],
      // A stored project that is not forgotten: nothing to lift either.
      ['--project', 'orchard', 'Nothing was forgotten under that project name.\n'],
    ];
    for (const [option, text, out] of cases) {
      expect(await cli('unforget', option, text)).toEqual({ code: 0, out, err: '' });
      expect(await cli('unforget', option, text, '--json')).toEqual({ code: 0, out: expect.stringContaining('"lifted": false'), err: '' });
    }
  });
});
