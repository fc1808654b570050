import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { runIn } from '../../support/cli.js';
import { historyHome, IDS, SUBAGENT_SESSION } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

// What the CLI says of what the person forgot: that they forgot it, when, and the way back, not a
// guess ("may have been pruned or forgotten") or that nothing is called so.

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-forgotten-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);
const today = () => localDay(Date.now());

describe('steward forget with none of its forms', () => {
  it('names every form it takes', async () => {
    for (const argv of [['forget'], ['forget', '--session', IDS.pruning, '--project', 'orchard']]) {
      const { code, err } = await cli(...argv);
      expect(code).toBe(2);
      expect(err).toContain('--session ID or --project PROJECT (either with --scrub to wipe the disk too), --scrub alone (wipes what earlier forgets deleted), or --list');
    }
    // unforget has the two forms only.
    expect((await cli('unforget')).err).toContain('unforget takes exactly one of --session ID or --project PROJECT');
  });
});

describe('a forgotten conversation or project, asked for again', () => {
  it('sessions show and export say it was forgotten, when, and how to bring it back; a subagent names its parent', async () => {
    expect((await cli('forget', '--session', IDS.pruning)).code).toBe(0);
    const said = `steward: You forgot this conversation on ${today()}; \`steward unforget --session ${IDS.pruning}\` brings it back\n`;
    for (const argv of [
      ['sessions', 'show', IDS.pruning],
      ['sessions', 'export', IDS.pruning],
    ]) {
      expect(await cli(...argv)).toEqual({ code: 1, out: '', err: said });
    }
    expect((await cli('sessions', 'show', SUBAGENT_SESSION)).err).toBe(
      `steward: You forgot the conversation this subagent belongs to on ${today()}; \`steward unforget --session ${IDS.pruning}\` brings both back\n`,
    );
    // An id nobody forgot is said as before.
    expect((await cli('sessions', 'show', 'no-such-id')).err).toMatch(/No stored conversation has that id.*give the whole id/);
  });

  it('sessions list --project of a forgotten project says it was forgotten and how to unforget it', async () => {
    const key = (JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ name: string; projectKey: string }> }).projects.find((p) => p.name === 'kitchen')!.projectKey;
    expect((await cli('forget', '--project', 'kitchen')).code).toBe(0);
    expect(await cli('sessions', 'list', '--project', 'kitchen')).toEqual({
      code: 1,
      out: '',
      err: `steward: --project: you forgot the project "kitchen" on ${today()}; \`steward unforget --project kitchen\` brings it back\n`,
    });
    expect((await cli('search', 'anything', '--project', key)).err).toBe(`steward: --project: you forgot the project ${key} on ${today()}; \`steward unforget --project ${key}\` brings it back\n`);
    expect((await cli('sessions', 'list', '--project', 'no-such-project')).err).toContain('no project is called "no-such-project"');
  });
});

describe('forgetting what is forgotten already, and a project forgotten by its folder', () => {
  it('forget says a conversation or project is forgotten already, since when, and changes nothing', async () => {
    const session = IDS.config;
    expect((await cli('forget', '--session', session)).code).toBe(0);
    const again = await cli('forget', '--session', session);
    expect(again).toEqual({ code: 0, out: `You forgot conversation ${session} on ${today()}: nothing more to do. It stays out of future imports; \`steward unforget --session ${session}\` lifts that.\n`, err: '' });
    expect(JSON.parse((await cli('forget', '--session', session, '--json')).out)).toMatchObject({ alreadyForgotten: { kind: 'session', id: session } });
    // --not-stored asks to keep out what is not stored: it is kept out already.
    expect((await cli('forget', '--session', session, '--not-stored')).out).toContain('nothing more to do');
    // --scrub still has work to do: the disk is wiped of what the forget deleted (a reviewer's finding).
    const scrubbed = await cli('forget', '--session', session, '--scrub');
    expect(scrubbed.code).toBe(0);
    expect(scrubbed.out).toContain('Wiped from the disk too');
  });

  it('a folder never imported is forgotten under its own name, listed so, and lifted by its folder or its name', async () => {
    const folder = '/home/ana/src/secretproj';
    // Named by its folder, a project not stored says so in the words of a folder.
    const refused = await cli('forget', '--project', folder);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('No stored project is in that folder');
    const first = await cli('forget', '--project', folder, '--not-stored');
    expect(first.code).toBe(0);
    // Called by the folder's own name from the first answer on, as the list calls it.
    expect(first.out).toMatch(/^Forgot project secretproj \(p_[0-9a-f]+\): nothing was stored\./);
    const listed = (await cli('forget', '--list')).out;
    expect(listed).toMatch(/^project {2}p_[0-9a-f]+ {2}.+ {2}secretproj$/m);
    expect((await cli('forget', '--project', folder, '--not-stored')).out).toContain('You forgot project secretproj (p_');
    // Never imported, and no transcript of it met since: nothing comes back, "again" or not (QA findings; README: nothing left to import).
    const NEVER_STORED = "Lifted. Steward never stored that project, and no check has found a transcript of it yet: the next check imports one inside the regular checks' window; `steward backfill --all` brings in older ones.\n";
    expect(await cli('unforget', '--project', folder)).toMatchObject({ code: 0, out: NEVER_STORED });
    expect((await cli('forget', '--project', `${folder}/`, '--not-stored')).code).toBe(0);
    expect(await cli('unforget', '--project', 'secretproj')).toMatchObject({ code: 0, out: NEVER_STORED });
    expect((await cli('forget', '--list')).out).not.toContain('secretproj');
  });
});
