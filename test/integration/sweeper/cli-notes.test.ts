import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectNotes } from '../../../core/sweeper/notes-state.js';
import { runCli } from '../../../core/cli/index.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { FakeModelServer } from './fake-models.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';
import { captureIo as io, runIn } from '../../support/cli.js';

let home: TempHome | undefined;
let fake: FakeModelServer | undefined;
let owner: Owner | undefined;
afterEach(async () => {
  await owner?.stop();
  owner = undefined;
  await fake?.stop();
  fake = undefined;
  home?.cleanup();
  home = undefined;
});

interface Listed {
  projectKey: string;
  name: string;
  notes: { state: string; words: string } | null;
}

/** A temp home with one captured Claude session per folder name (under /work), backfilled. */
async function captured(prefix: string, ...folders: string[]): Promise<TempHome> {
  home = tempHome(prefix);
  const claude = join(home.dir, 'roots', 'claude');
  mkdirSync(claude, { recursive: true });
  home.env.STEWARD_CLAUDE_ROOTS = claude;
  folders.forEach((folder, i) => claudeSession(claude, `s-${i}`, 4, { cwd: `/work/${folder}` }));
  expect(await runCli(['backfill', '--all'], io(home.env))).toBe(0);
  return home;
}

async function listed(env: NodeJS.ProcessEnv): Promise<Record<string, Listed>> {
  const list = await runIn(env, 'projects', '--json');
  expect(list.code).toBe(0);
  return Object.fromEntries((JSON.parse(list.out) as { projects: Listed[] }).projects.map((p) => [p.name, p]));
}

/** Every sweep-state.json under STEWARD_HOME/projects: where a scratch mark would be written. */
const sweepState = (h: TempHome) => (existsSync(join(h.dir, 'projects')) ? readdirSync(join(h.dir, 'projects'), { recursive: true }).map(String).filter((f) => f.endsWith('sweep-state.json')) : []);

describe('steward projects: where each project\'s notes stand', () => {
  it('says current, none yet, failed, scratch and ignored in words, in text and --json, naming no endpoint and no path', async () => {
    const h = await captured('steward-cli-notes-', 'swept', 'fresh', 'broken', 'throwaway', 'hidden');
    expect((await runIn(h.env, 'sweeper', 'run', 'swept')).code).toBe(0);
    expect((await runIn(h.env, 'projects', 'scratch', 'throwaway')).code).toBe(0);
    fake = await new FakeModelServer().start();
    fake.script({ status: 404, body: { error: { message: 'model not found' } } });
    writeFileSync(join(h.dir, 'config.json'), JSON.stringify({ sweeper: { curator: 'openai-compatible', model: 'm', base_url: `${fake.url}/v1`, ignore: ['/work/hidden'] } }));
    expect((await runIn(h.env, 'sweeper', 'run', 'broken')).code).toBe(1);

    const byName = await listed(h.env);
    expect(byName.swept!.notes).toEqual({ state: 'current', words: 'Nothing new since the last sweep: the notes are current.' });
    expect(byName.fresh!.notes).toEqual({ state: 'none', words: 'No notes yet; `steward sweeper run` writes them now.' });
    expect(byName.broken!.notes!.state).toBe('failed');
    expect(byName.broken!.notes!.words).toMatch(/^The last sweep failed: the model answered with an error\. Waiting after recent failures before trying again at \d{4}-\d{2}-\d{2} \d{2}:\d{2} .+\.$/);
    expect(byName.throwaway!.notes).toEqual({ state: 'scratch', words: 'This is a scratch project; it is never swept.' });
    expect(byName.hidden!.notes).toEqual({ state: 'ignored', words: 'This folder is on the list of folders whose notes Steward never writes (Settings).' });

    const text = await runIn(h.env, 'projects');
    expect(text.code).toBe(0);
    expect(text.out).toContain('    notes: current — Nothing new since the last sweep: the notes are current.\n');
    expect(text.out).toContain('    notes: scratch — This is a scratch project; it is never swept.\n');
    expect(text.out).toContain('    notes: none — No notes yet; `steward sweeper run` writes them now.\n');
    expect(text.out).toMatch(/\n {4}notes: failed — The last sweep failed: the model answered with an error\./);
    for (const out of [text.out, JSON.stringify(Object.values(byName).map((p) => p.notes))]) {
      expect(out).not.toContain(new URL(fake.url).host);
      expect(out).not.toContain(h.dir);
      expect(out).not.toContain('http');
    }
  });

  it('says the sweeper is off rather than that every project waits', async () => {
    const h = await captured('steward-cli-notes-off-', 'one');
    writeFileSync(join(h.dir, 'config.json'), JSON.stringify({ sweeper: { enabled: false } }));
    expect((await listed(h.env)).one!.notes).toEqual({ state: 'off', words: 'Writing project notes is turned off in config.json.' });
  });

  it('a paused curator and a failure are said by their code, never by their message (which names the host)', () => {
    const state = { watermark: 1, scratch: false, lastSweepAt: 2, lastOutcome: 'paused', lastError: { code: 'spend_limit', message: 'The model provider at models.example.test refused' }, lastMode: 'anthropic', lastModel: 'm', consecutiveFailures: 1, nextAttemptAt: null, tokensIn: 0, tokensOut: 0, overviewPreserved: false } as const;
    const gate = { enabled: true, ignored: false, paused: false, now: 10 };
    const paused = projectNotes(5, state, gate);
    expect(paused).toEqual({ state: 'paused', words: 'Curation is paused (Settings says why); the notes are rebuilt once it resumes. The last sweep stopped: the model provider refused for billing or spend limits.' });
    const failed = projectNotes(5, { ...state, lastOutcome: 'failed', lastError: { code: 'internal', message: 'x at /home/me' } }, gate);
    expect(failed).toEqual({ state: 'failed', words: 'The last sweep failed: the sweep failed.' });
  });
});

describe('steward projects scratch | unscratch', () => {
  it('marks a project by name as the panel\'s switch does, says when it already was, and that a folder pattern still keeps notes away', async () => {
    const h = await captured('steward-cli-scratch-', 'recipes');
    const marked = await runIn(h.env, 'projects', 'scratch', 'recipes');
    expect(marked).toEqual({ code: 0, out: 'recipes: a scratch project; Steward never writes notes for it (its conversations stay searchable).\n', err: '' });
    expect((await runIn(h.env, 'projects', 'scratch', 'RECIPES')).out).toBe('recipes: already a scratch project; Steward never writes notes for it (its conversations stay searchable).\n');
    const skipped = await runIn(h.env, 'sweeper', 'run', 'recipes');
    expect(skipped.out).toBe('skipped: This is a scratch project; it is never swept.\n');

    writeFileSync(join(h.dir, 'config.json'), JSON.stringify({ sweeper: { ignore: ['/work/recipes'] } }));
    const json = await runIn(h.env, 'projects', 'unscratch', 'recipes', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ scratch: false, name: 'recipes', changed: true, ignored: true });
    const again = await runIn(h.env, 'projects', 'unscratch', 'recipes');
    expect(again.out).toBe(
      'recipes: already not a scratch project; its notes are curated again from its next activity (`steward sweeper run` curates it now).\n' +
        'Still no notes: This folder is on the list of folders whose notes Steward never writes (Settings).\n',
    );
  });

  it('an unknown project is a typed not_found (exit 1) and changes nothing', async () => {
    const h = await captured('steward-cli-scratch-bad-', 'recipes');
    const before = sweepState(h);
    const bad = await runIn(h.env, 'projects', 'scratch', 'nope');
    expect(bad).toEqual({ code: 1, out: '', err: 'steward: projects scratch: no project is called "nope"; `steward projects` lists each project\'s name and key\n' });
    const badJson = await runIn(h.env, 'projects', 'unscratch', 'nope', '--json');
    expect(badJson.code).toBe(1);
    expect(JSON.parse(badJson.out)).toEqual({ error: { code: 'not_found', message: 'projects unscratch: no project is called "nope"; `steward projects` lists each project\'s name and key' } });
    const unknownKey = await runIn(h.env, 'projects', 'scratch', 'p_0123456789abcdef', '--json');
    expect(unknownKey.code).toBe(1);
    expect(JSON.parse(unknownKey.out)).toEqual({ error: { code: 'not_found', message: expect.stringContaining('No stored project has the key p_0123456789abcdef') } });
    expect(sweepState(h)).toEqual(before);
    expect(existsSync(join(h.dir, 'projects', 'p_0123456789abcdef'))).toBe(false);
    expect((await listed(h.env)).recipes!.notes!.state).toBe('none');
    // The list itself still refuses what is not a verb of it.
    expect((await runIn(h.env, 'projects', 'nope')).code).toBe(2);
  });
});

describe('steward pause | resume', () => {
  it('pauses and resumes the running owner as the status bar does, and says when it already was', async () => {
    home = tempHome('steward-cli-pause-');
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, schedule: false });
    expect(await runIn(home.env, 'pause')).toEqual({ code: 0, out: 'Paused — scheduled imports and note curation wait until you resume.\n', err: '' });
    expect(owner.core.app.paused).toBe(true);
    expect((await runIn(home.env, 'pause')).out).toBe('Already paused — scheduled imports and note curation wait until you resume.\n');
    const resumed = await runIn(home.env, 'resume', '--json');
    expect(JSON.parse(resumed.out)).toMatchObject({ paused: false, changed: true, status: { paused: false } });
    expect(owner.core.app.paused).toBe(false);
    expect((await runIn(home.env, 'resume')).out).toBe('Not paused — scheduled imports and note curation run as scheduled.\n');
  });

  it('without a running Steward: a typed not_found that says how to start one', async () => {
    home = tempHome('steward-cli-pause-none-');
    const none = await runIn(home.env, 'pause', '--json');
    expect(none.code).toBe(1);
    expect(JSON.parse(none.out)).toEqual({ error: { code: 'not_found', message: 'Steward is not running, so nothing is scheduled to pause: start it with `npm start` or `steward serve`, then run `steward pause`.' } });
  });

  it('help names the new verbs', async () => {
    const help = await runIn({}, '--help');
    expect(help.out).toMatch(/\n {2}pause /);
    expect(help.out).toMatch(/\n {2}resume /);
    const projects = await runIn({}, 'projects', '--help');
    expect(projects.out).toMatch(/\n {2}scratch \[options\] <project> /);
    expect(projects.out).toMatch(/\n {2}unscratch \[options\] <project> /);
  });
});
