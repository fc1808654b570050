import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, localDay, StewardError } from '../../../core/index.js';
import { runIn } from '../../support/cli.js';
import { historyHome } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

// A project key Steward holds nothing under (a typo, or a forgotten project's) is said to be one, in
// the same words by every verb that takes a key: "No conversations match." would say it was looked
// in, and "run a sweep or backfill first" would send the person to a backfill that already ran.

const UNKNOWN = 'p_0000000000000000';
const UNKNOWN_WORDS = `no stored project has the key ${UNKNOWN} (it may have been forgotten); \`steward projects\` lists each project's name and key`;

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-project-key-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);
const keyOf = async (name: string) =>
  (JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ name: string; projectKey: string }> }).projects.find((p) => p.name === name)!.projectKey;

describe('steward sessions list --project with a key no project has', () => {
  it('is not_found (exit 1) in the words steward search gives that key', async () => {
    const listed = await cli('sessions', 'list', '--project', UNKNOWN);
    expect(listed).toEqual({ code: 1, out: '', err: `steward: --project: ${UNKNOWN_WORDS}\n` });
    expect(listed).toEqual(await cli('search', 'x', '--project', UNKNOWN));
    const json = await cli('sessions', 'list', '--project', UNKNOWN, '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'not_found', message: `--project: ${UNKNOWN_WORDS}` } });
  });

  it('a stored project whose conversations the filter leaves out is still an empty list', async () => {
    const kitchen = await keyOf('kitchen');
    expect(await cli('sessions', 'list', '--project', kitchen, '--provider', 'openclaw')).toEqual({ code: 0, out: 'No conversations match.\n', err: '' });
    const json = await cli('sessions', 'list', '--project', kitchen, '--provider', 'openclaw', '--json');
    expect({ code: json.code, sessions: (JSON.parse(json.out) as { sessions: unknown[] }).sessions }).toEqual({ code: 0, sessions: [] });
  });
});

describe('steward sweeper show and Projects.Get with a key no project has', () => {
  it('say no stored project has that key (not_found), pointing at `steward projects`, not at a backfill that already ran', async () => {
    const shown = await cli('sweeper', 'show', UNKNOWN);
    // In the words `sessions list --project` and `sweeper show nosuch` use: prefixed by the verb, not capitalised.
    expect(shown).toEqual({ code: 1, out: '', err: `steward: sweeper show: ${UNKNOWN_WORDS}\n` });
    const json = await cli('sweeper', 'show', UNKNOWN, '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'not_found' } });
    expect(json.out).not.toContain('backfill');
  });

  it('Projects.Get answers the same typed not_found to a caller of the contract', async () => {
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    try {
      const missing = await core.call('Projects.Get', { projectKey: UNKNOWN }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(StewardError);
      expect(missing).toMatchObject({ code: 'not_found', message: `No stored project has the key ${UNKNOWN} (it may have been forgotten); \`steward projects\` lists each project's name and key` });
    } finally {
      await core.shutdown();
    }
  });
});

describe('steward sessions list --project with a forgotten project’s key', () => {
  it('says it was forgotten, when, and the way back, as steward search does (exit 1)', async () => {
    const orchard = await keyOf('orchard');
    expect((await cli('forget', '--project', orchard)).code).toBe(0);
    const listed = await cli('sessions', 'list', '--project', orchard);
    expect(listed).toEqual({
      code: 1,
      out: '',
      err: `steward: --project: you forgot the project ${orchard} on ${localDay(Date.now())}; \`steward unforget --project ${orchard}\` brings it back\n`,
    });
    expect(listed).toEqual(await cli('search', 'x', '--project', orchard));
  });

  it('steward sweeper show and run by that key say the same: when, and the way back', async () => {
    const orchard = (await cli('forget', '--list', '--json')).out.match(/p_[0-9a-f]{16}/)![0];
    const back = `you forgot the project ${orchard} on ${localDay(Date.now())}; \`steward unforget --project ${orchard}\` brings it back`;
    expect(await cli('sweeper', 'show', orchard)).toEqual({ code: 1, out: '', err: `steward: sweeper show: ${back}\n` });
    expect(await cli('sweeper', 'run', orchard)).toEqual({ code: 1, out: '', err: `steward: sweeper run: ${back}\n` });
    // By name, as before: the name it had.
    expect((await cli('sweeper', 'show', 'orchard')).err).toMatch(/^steward: sweeper show: you forgot the project "orchard" on /);
  });
});
