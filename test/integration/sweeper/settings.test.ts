import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { runCli } from '../../../core/cli/index.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';
import { FakeModelServer } from './fake-models.js';

let home: TempHome;
let core: Core | undefined;
let fake: FakeModelServer | undefined;
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  await fake?.stop();
  fake = undefined;
  home.cleanup();
});

/** Ollama's `GET /api/tags`, as the server answers it. */
const TAGS = {
  models: [
    { name: 'qwen2.5-coder:7b', model: 'qwen2.5-coder:7b', modified_at: '2026-11-20T10:00:00Z', size: 4_683_087_332, digest: 'sha256:aa', details: { family: 'qwen2', parameter_size: '7.6B', quantization_level: 'Q4_K_M' } },
    { name: 'llama3.2:latest', model: 'llama3.2:latest', modified_at: '2026-11-01T10:00:00Z', size: 2_019_393_189, digest: 'sha256:bb', details: { family: 'llama', parameter_size: '3.2B', quantization_level: 'Q4_K_M' } },
  ],
};

function open(env: NodeJS.ProcessEnv = {}): Core {
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, ...env } });
  return core;
}

describe('a local Ollama server as a curator', () => {
  it('offers its models as an OpenAI-compatible curator on the local network, and chooses nothing by itself', async () => {
    home = tempHome('steward-ollama-');
    fake = await new FakeModelServer().start();
    fake.script({ body: TAGS });
    const c = open({ STEWARD_OLLAMA_URL: fake.url });
    const offer = await c.call('Settings.LocalModels', {});
    expect(offer).toEqual({ available: true, baseUrl: `${fake.url}/v1`, models: ['llama3.2:latest', 'qwen2.5-coder:7b'], dataBoundary: 'local_network', message: expect.stringContaining('not to the internet') });
    expect(fake.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/tags']);
    expect((await c.call('Settings.Get', {})).sweeper).toMatchObject({ curator: 'offline', dataBoundary: 'local_process' });
    const chosen = await c.call('Settings.SetCurator', { curator: 'openai-compatible', model: 'llama3.2:latest', baseUrl: offer.baseUrl });
    expect(chosen.sweeper).toMatchObject({ curator: 'openai-compatible', model: 'llama3.2:latest', dataBoundary: 'local_network' });
  });

  it('says so when none answers', async () => {
    home = tempHome('steward-ollama-');
    fake = await new FakeModelServer().start();
    const url = fake.url;
    await fake.stop();
    fake = undefined;
    const offer = await open({ STEWARD_OLLAMA_URL: url }).call('Settings.LocalModels', {});
    expect(offer).toMatchObject({ available: false, models: [], message: 'No Ollama server answered on this computer.' });
  });
});

describe('the daily budget in Settings', () => {
  it('defaults to 200 model calls, is changed through Settings.SetBudget, and lands in config.json', async () => {
    home = tempHome('steward-budget-');
    const c = open();
    expect((await c.call('Settings.Get', {})).sweeper.budget).toEqual({ limit: 200, usedToday: 0 });
    expect((await c.call('Settings.SetBudget', { dailyModelCalls: 40 })).sweeper.budget).toEqual({ limit: 40, usedToday: 0 });
    await expect(c.call('Settings.SetBudget', { dailyModelCalls: -1 })).rejects.toMatchObject({ code: 'invalid_params' });
    await c.shutdown();
    expect((await open().call('Settings.Get', {})).sweeper.budget.limit).toBe(40);
  });
});

describe('notes as served', () => {
  it('a secret a note still holds (written before a rule existed) is redacted on the way out', async () => {
    home = tempHome('steward-serve-');
    const claude = join(home.dir, 'roots', 'claude');
    mkdirSync(claude, { recursive: true });
    claudeSession(claude, 'serve-1', 4, { cwd: '/work/serve-project' });
    const c = open({ STEWARD_CLAUDE_ROOTS: claude });
    await c.call('Backfill.Run', { all: true });
    const [project] = (await c.call('Projects.List', {})).projects;
    const got = await c.call('Projects.Get', { projectKey: project!.projectKey });
    const paths = projectPaths(home.dir, got.slug);
    mkdirSync(paths.dir, { recursive: true });
    const stripe = `sk_live_${'51HxQ2eLkTqW8vNz3Rb7Yc0Pd4Fg6Hj'}`;
    writeFileSync(paths.overview, `# serve-project\n\nThe key is ${stripe}\n`);
    writeFileSync(paths.changelog, `# Changelog\n\n## 2026-11-01\n\n- used ${stripe}\n`);
    const served = await c.call('Projects.Get', { projectKey: project!.projectKey });
    expect(`${served.overview}${served.changelog}`).not.toContain('sk_live_');
    expect(served.overview).toContain('[REDACTED]');
  });
});

describe('steward sweeper run --all', () => {
  it('names the count and the curator, asks, and runs only when confirmed', async () => {
    home = tempHome('steward-cli-all-');
    const claude = join(home.dir, 'roots', 'claude');
    mkdirSync(claude, { recursive: true });
    home.env.STEWARD_CLAUDE_ROOTS = claude;
    claudeSession(claude, 'all-1', 4, { cwd: '/work/all-one' });
    claudeSession(claude, 'all-2', 4, { cwd: '/work/all-two' });
    expect(await runCli(['backfill', '--all'], captureIo(home.env))).toBe(0);
    // Where nobody can answer, refused as forget and cache prune refuse: a script must notice (exit 1).
    const asked = captureIo(home.env);
    expect(await runCli(['sweeper', 'run', '--all'], asked)).toBe(1);
    expect(asked.out).toBe('');
    expect(asked.err).toBe('steward: Sweep 2 projects with the offline curator: nothing leaves this computer. Nothing was swept. Pass --yes to sweep them.\n');
    const json = captureIo(home.env);
    expect(await runCli(['sweeper', 'run', '--all', '--json'], json)).toBe(1);
    // A script asking --json still gets the plan, inside the refusal.
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'confirmation_required', remediation: 'Pass --yes to sweep them.', details: { plan: { projects: 2, curator: 'offline' } } } });
    // In a terminal it asks; a no changes nothing and is no failure.
    const declined = Object.assign(captureIo(home.env), { interactive: () => true, confirm: () => Promise.resolve(false) });
    expect(await runCli(['sweeper', 'run', '--all'], declined)).toBe(0);
    expect(declined.err).toBe('Sweep 2 projects with the offline curator: nothing leaves this computer.\n');
    expect(declined.out).toBe('Nothing was swept.\n');
    const yes = captureIo(home.env);
    expect(await runCli(['sweeper', 'run', '--all', '--yes'], yes)).toBe(0);
    // Only what happened: no zero outcomes, no "0 model calls" from the offline curator.
    expect(yes.out).toMatch(/\nswept 2: 2 updated\n {2}all-(one|two): updated\n {2}all-(one|two): updated\n$/);
    const again = captureIo(home.env);
    expect(await runCli(['sweeper', 'run', '--all', '--yes'], again)).toBe(0);
    expect(again.out).toBe('No project has activity that is not curated yet; nothing to sweep.\n');
  });
});
