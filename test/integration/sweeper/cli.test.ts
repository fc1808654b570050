import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSweeperRun, formatSweptAll } from '../../../core/cli/commands/sweeper.js';
import { runCli } from '../../../core/cli/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';
import { captureIo as io } from '../../support/cli.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

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
    expect(second.out).toBe('skipped (no-activity)\n');
    const forced = io(home.env);
    expect(await runCli(['sweeper', 'run', key, '--force'], forced)).toBe(0);
    expect(forced.out).toBe('nochange: overview unchanged, no changelog entry (nothing new since the last sweep) — offline\n');

    const show = io(home.env);
    expect(await runCli(['sweeper', 'show', key], show)).toBe(0);
    expect(show.out).toMatch(/^cli-sweeper-project — last sweep \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2}) \(nochange\)\n\n# cli-sweeper-project\n/);
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
    expect(JSON.parse(unknown.out)).toEqual({ error: { code: 'not_found', message: expect.stringContaining('No project') } });
  });
});
