import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSweeperRun, formatSweptAll } from '../../../core/cli/commands/sweeper.js';
import { runCli } from '../../../core/cli/index.js';
import { localTime } from '../../../core/cli/output.js';
import { FakeModelServer } from './fake-models.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';
import { captureIo as io } from '../../support/cli.js';

let home: TempHome | undefined;
let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
  home?.cleanup();
  home = undefined;
});

/** A temp home with one captured Claude session per folder name, backfilled; the projects' keys by name. */
async function captured(prefix: string, ...folders: string[]): Promise<Record<string, string>> {
  home = tempHome(prefix);
  const claude = join(home.dir, 'roots', 'claude');
  mkdirSync(claude, { recursive: true });
  home.env.STEWARD_CLAUDE_ROOTS = claude;
  folders.forEach((folder, i) => claudeSession(claude, `s-${i}`, 4, { cwd: `/work/${folder}` }));
  expect(await runCli(['backfill', '--all'], io(home.env))).toBe(0);
  const list = io(home.env);
  await runCli(['projects', '--json'], list);
  return Object.fromEntries((JSON.parse(list.out) as { projects: Array<{ projectKey: string; name: string }> }).projects.map((p) => [p.name, p.projectKey]));
}

describe('steward sweeper run|show', () => {
  it('sweeps a captured project, then reports the gate; show prints the overview', async () => {
    home = tempHome('steward-cli-sweeper-');
    const claude = join(home.dir, 'roots', 'claude');
    mkdirSync(claude, { recursive: true });
    home.env.STEWARD_CLAUDE_ROOTS = claude;
    claudeSession(claude, 'cli-s', 4, { cwd: '/work/cli-sweeper-project' });
    expect(await runCli(['backfill', '--all'], io(home.env))).toBe(0);
    const list = io(home.env);
    await runCli(['projects', '--json'], list);
    const key = (JSON.parse(list.out) as { projects: Array<{ projectKey: string }> }).projects[0]!.projectKey;

    const first = io(home.env);
    expect(await runCli(['sweeper', 'run', key, '--json'], first)).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ outcome: 'ok', mode: 'offline', overview: 'written' });
    const second = io(home.env);
    expect(await runCli(['sweeper', 'run', key], second)).toBe(0);
    expect(second.out).toBe('skipped: Nothing new since the last sweep: the notes are current. Add --force to sweep anyway.\n');
    const forced = io(home.env);
    expect(await runCli(['sweeper', 'run', key, '--force'], forced)).toBe(0);
    expect(forced.out).toMatch(/^nochange: overview unchanged, no changelog entry \(nothing new since the last sweep\) — offline; notes in .+\n$/);
    expect(forced.out).toContain(`notes in ${home.dir}`);

    const show = io(home.env);
    expect(await runCli(['sweeper', 'show', key], show)).toBe(0);
    expect(show.out).toMatch(/^cli-sweeper-project — last sweep \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2}) \(nochange\)\nnotes: .+\n\n# cli-sweeper-project\n/);
    expect(show.out).toContain(`notes: ${home.dir}`);
    // By the name `steward projects` prints, as --project takes it.
    const byName = io(home.env);
    expect(await runCli(['sweeper', 'show', 'cli-sweeper-project'], byName)).toBe(0);
    expect(byName.out).toBe(show.out);
  });

  it('says what a run did without zero clauses: no "0 new facts", no "0 model calls"', () => {
    const run = { projectKey: 'p_0123456789abcdef', outcome: 'ok', reason: null, mode: 'offline', model: null, calls: 0, tokensIn: 0, tokensOut: 0, durationMs: 5, overview: 'written', changelog: 'appended', factsAdded: 0 } as const;
    expect(formatSweeperRun(run)).toBe('ok: overview written, changelog appended — offline\n');
    expect(formatSweeperRun({ ...run, mode: 'anthropic', model: 'claude-x', calls: 2, factsAdded: 1 })).toBe('ok: overview written, changelog appended, 1 new fact — anthropic claude-x, 2 model calls\n');
    expect(formatSweptAll({ projects: 3, ok: 2, nochange: 0, skipped: 0, failed: 1, paused: 0, calls: 4 })).toBe('swept 3: 2 updated, 1 failed — 4 model calls\n');
    expect(formatSweptAll({ projects: 2, ok: 2, nochange: 0, skipped: 0, failed: 0, paused: 0, calls: 0 })).toBe('swept 2: 2 updated\n');
  });

  it('says a skip in words, with when a backoff ends and that --force exists; a success says where the notes are', () => {
    const run = { projectKey: 'p_0123456789abcdef', outcome: 'skipped', reason: 'backoff', mode: 'offline', model: null, calls: 0, tokensIn: 0, tokensOut: 0, durationMs: 0, overview: 'none', changelog: 'none', factsAdded: 0 } as const;
    const at = Date.UTC(2026, 11, 3, 19, 40);
    expect(formatSweeperRun(run, { nextAttemptAt: at })).toBe(`skipped: Waiting after recent failures before trying again at ${localTime(at)}. Add --force to sweep now.\n`);
    expect(formatSweeperRun(run)).toBe('skipped: Waiting after recent failures before trying again. Add --force to sweep now.\n');
    expect(formatSweeperRun({ ...run, reason: 'disabled' })).toBe('skipped: Writing project notes is turned off in config.json.\n');
    const ok = { ...run, outcome: 'ok', reason: null, overview: 'written', changelog: 'appended' } as const;
    expect(formatSweeperRun(ok, { notesPath: '/home/me/.steward/projects/recipes' })).toBe('ok: overview written, changelog appended — offline; notes in /home/me/.steward/projects/recipes\n');
    // A kept edit of the person's is said in its own line.
    const kept = { ...ok, overview: 'preserved', note: 'Your edit of OVERVIEW.md was kept: the lines you added are now in its manual block, which every sweep keeps as it is.' } as const;
    expect(formatSweeperRun(kept)).toBe(`ok: overview preserved, changelog appended — offline\n${kept.note}\n`);
  });

  it('names each project of a sweep of all with its outcome in words', () => {
    const results = [
      { projectKey: 'p_0000000000000001', name: 'alpha', outcome: 'ok', reason: null, message: null },
      { projectKey: 'p_0000000000000002', name: 'beta', outcome: 'failed', reason: null, message: 'The model endpoint answered HTTP 404: check the base URL and the model name' },
      { projectKey: 'p_0000000000000003', name: 'gamma', outcome: 'paused', reason: null, message: "Today's budget of 0 model calls is spent" },
      { projectKey: 'p_0000000000000004', name: 'delta', outcome: 'skipped', reason: 'scratch', message: null },
    ] as const;
    expect(formatSweptAll({ projects: 4, ok: 1, nochange: 0, skipped: 1, failed: 1, paused: 1, calls: 2, results: [...results] })).toBe(
      [
        'swept 4: 1 updated, 1 skipped, 1 failed, 1 paused — 2 model calls',
        '  alpha: updated',
        '  beta: failed — The model endpoint answered HTTP 404: check the base URL and the model name',
        "  gamma: paused — Today's budget of 0 model calls is spent",
        '  delta: skipped — This is a scratch project; it is never swept.',
        '',
      ].join('\n'),
    );
  });

  it('a failing endpoint: --all names the project and the reason and exits 1; show says why, when next and where the notes are', async () => {
    const keys = await captured('steward-cli-fail-', 'recipes');
    fake = await new FakeModelServer().start();
    fake.script({ status: 404, body: { error: { message: 'model not found' } } });
    writeFileSync(join(home!.dir, 'config.json'), JSON.stringify({ sweeper: { curator: 'openai-compatible', model: 'm', base_url: `${fake.url}/v1` } }));
    const all = io(home!.env);
    expect(await runCli(['sweeper', 'run', '--all', '--yes'], all)).toBe(1);
    expect(all.out).toMatch(/\nswept 1: 1 failed\n {2}recipes: failed — The model endpoint.* answered HTTP 404: check the base URL and the model name\n$/);

    const show = io(home!.env);
    expect(await runCli(['sweeper', 'show', 'recipes'], show)).toBe(0);
    const [head] = show.out.split('\n\n');
    expect(head).toMatch(/^recipes — last sweep .+ \(failed\)\nfailed: The model endpoint.* answered HTTP 404: check the base URL and the model name\nnext attempt: \d{4}-\d{2}-\d{2} \d{2}:\d{2} .+ \(after 1 failure; --force tries now\)\nnotes: .+$/);
    expect(head).toContain(`notes: ${home!.dir}`);

    const again = io(home!.env);
    expect(await runCli(['sweeper', 'run', keys.recipes!], again)).toBe(0);
    expect(again.out).toMatch(/^skipped: Waiting after recent failures before trying again at \d{4}-\d{2}-\d{2} \d{2}:\d{2} .+\. Add --force to sweep now\.\n$/);
  });

  it('show says when the folder is ignored', async () => {
    const keys = await captured('steward-cli-ignored-', 'ignored-one');
    writeFileSync(join(home!.dir, 'config.json'), JSON.stringify({ sweeper: { ignore: ['/work/ignored-one'] } }));
    const show = io(home!.env);
    expect(await runCli(['sweeper', 'show', keys['ignored-one']!], show)).toBe(0);
    expect(show.out).toMatch(/^ignored-one — never swept\nignored: This folder is on the list of folders whose notes Steward never writes \(Settings\)\.\nnotes: .+\n\n\(no OVERVIEW\.md yet\)\n$/);
  });

  it('--all says the sweeper is turned off, and that today\'s model calls are spent, instead of offering a sweep', async () => {
    await captured('steward-cli-off-', 'off-one');
    writeFileSync(join(home!.dir, 'config.json'), JSON.stringify({ sweeper: { enabled: false } }));
    const off = io(home!.env);
    expect(await runCli(['sweeper', 'run', '--all', '--yes'], off)).toBe(0);
    expect(off.out).toBe('The sweeper is turned off ("sweeper": {"enabled": false} in config.json): nothing was swept.\n');

    writeFileSync(join(home!.dir, 'config.json'), JSON.stringify({ sweeper: { curator: 'openai-compatible', model: 'm', base_url: 'http://127.0.0.1:9/v1', daily_model_calls: 0 } }));
    const spent = io(home!.env);
    expect(await runCli(['sweeper', 'run', '--all', '--yes'], spent)).toBe(0);
    expect(spent.out).toBe("Not run: today's model calls are spent (0 spent; the daily budget is 0): remote curation resumes tomorrow, or when you raise the daily budget (sweeper.daily_model_calls in config.json).\n");
  });

  it('exit 1 with a typed error for a name no project has, as for an unknown project key', async () => {
    home = tempHome('steward-cli-sweeper-');
    const bad = io(home.env);
    expect(await runCli(['sweeper', 'run', 'nope'], bad)).toBe(1);
    expect(bad.err).toBe('steward: sweeper run: no project is called "nope"; `steward projects` lists each project\'s name and key\n');
    const badJson = io(home.env);
    expect(await runCli(['sweeper', 'run', 'nope', '--json'], badJson)).toBe(1);
    expect(JSON.parse(badJson.out)).toEqual({ error: { code: 'not_found', message: 'sweeper run: no project is called "nope"; `steward projects` lists each project\'s name and key' } });
    const unknown = io(home.env);
    expect(await runCli(['sweeper', 'run', 'p_0123456789abcdef', '--json'], unknown)).toBe(1);
    expect(JSON.parse(unknown.out)).toEqual({ error: { code: 'not_found', message: expect.stringContaining('sweeper run: no stored project has the key p_0123456789abcdef') } });
  });
});
