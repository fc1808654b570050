import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppStatus, PAUSED_TEXT, statusLines } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { Core } from '../../../core/core.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { createRepositoryCache } from '../../../core/maintenance/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';
import { anthropicError, FakeModelServer } from '../sweeper/fake-models.js';

/** The one status model, fed by the real rooms: what works, what is paused, what needs the person, what failed. */
let home: TempHome;
const cores: Core[] = [];
let owner: Owner | undefined;

afterEach(async () => {
  await owner?.stop();
  owner = undefined;
  for (const core of cores.splice(0)) await core.shutdown();
  home?.cleanup();
});

function withClaudeRoot(): { env: NodeJS.ProcessEnv; root: string } {
  home = tempHome('steward-status-');
  const root = join(home.dir, 'roots', 'claude');
  mkdirSync(root, { recursive: true });
  return { env: { ...home.env, STEWARD_CLAUDE_ROOTS: root }, root };
}

function open(env: NodeJS.ProcessEnv): { core: Core; statuses: AppStatus[] } {
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env });
  cores.push(core);
  const statuses: AppStatus[] = [];
  core.events.subscribe((name, payload) => name === 'app.status' && statuses.push(AppStatus.parse(payload)));
  return { core, statuses };
}

describe('working, with what', () => {
  it('a sweep started by the CLI through the owner shows as importing, then up to date', async () => {
    const { env, root } = withClaudeRoot();
    for (let i = 0; i < 3; i += 1) claudeSession(root, `sess-${i}`, 4, { cwd: '/work/orchard' });
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env, port: 0, schedule: false });
    const statuses: AppStatus[] = [];
    owner.core.events.subscribe((name, payload) => name === 'app.status' && statuses.push(payload as AppStatus));

    const io = captureIo(env);
    expect(await runCli(['sweep'], io)).toBe(0);
    expect(io.out).toContain('claude: 3 transcript files, 3 read;');

    const working = statuses.filter((s) => s.state === 'working');
    expect(working.length).toBeGreaterThan(0);
    expect(working[0]!.working).toEqual([expect.objectContaining({ kind: 'import', place: 'telemetry' })]);
    expect(working.map((s) => s.message)).toContain('Importing new transcripts');
    expect(statuses.at(-1)).toMatchObject({ state: 'idle', message: 'Up to date', working: [], errors: [] });
  });
});

describe('paused, with what', () => {
  it('says once what waits, and keeps the pause visible under a more urgent headline', async () => {
    const { env } = withClaudeRoot();
    const { core } = open(env);
    const { status } = await core.call('App.SetPaused', { paused: true });
    expect(status).toMatchObject({ state: 'paused', message: PAUSED_TEXT, paused: true });
    expect(statusLines(status)).toEqual([PAUSED_TEXT]);

    core.gateway.pragma('query_only = ON');
    claudeSession(env.STEWARD_CLAUDE_ROOTS!, 'sess-x', 2);
    await core.call('Sweep.Tick', {});
    expect(core.status).toMatchObject({ state: 'error', paused: true });
    expect(statusLines(core.status)).toEqual([core.status.message, PAUSED_TEXT]);
    expect(statusLines(core.status).filter((line) => /paused/i.test(line))).toHaveLength(1);
  });
});

describe('failed and failing, with what', () => {
  it('a failed import is an error naming the provider; three in a row need the person; a clean tick clears both', async () => {
    const { env, root } = withClaudeRoot();
    claudeSession(root, 'sess-1', 2);
    const { core } = open(env);
    core.gateway.pragma('query_only = ON');

    await core.call('Sweep.Tick', {});
    expect(core.status).toMatchObject({ state: 'error', message: '1 of 1 Claude transcript file could not be imported (SQLITE_READONLY)', attention: [] });
    expect(core.status.errors).toEqual([{ kind: 'import-failed', subject: 'claude', text: '1 of 1 Claude transcript file could not be imported (SQLITE_READONLY)', place: 'telemetry' }]);
    await core.call('Sweep.Tick', {});
    expect(core.status.attention).toEqual([]);
    await core.call('Sweep.Tick', {});
    expect(core.status.attention).toEqual([{ kind: 'provider-failing', subject: 'claude', text: 'Claude transcripts have failed to import 3 times in a row', place: 'telemetry' }]);

    core.gateway.pragma('query_only = OFF');
    await core.call('Sweep.Tick', {});
    expect(core.status).toMatchObject({ state: 'idle', message: 'Up to date', errors: [], attention: [] });
  });
});

describe('the curator', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await new FakeModelServer().start();
  });
  afterAll(() => fake.stop());

  async function gardenProject(core: Core, env: NodeJS.ProcessEnv): Promise<string> {
    const cwd = join(home.dir, 'work', 'garden');
    mkdirSync(cwd, { recursive: true });
    const base = Date.now() - 60_000;
    writeJsonl(join(env.STEWARD_CLAUDE_ROOTS!, 'projects', '-work-garden', 'sess-1.jsonl'), [
      claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(base), text: 'Add a watering schedule' }),
      claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(base + 1_000), type: 'assistant', text: 'Added it.' }),
    ]);
    await core.call('Backfill.Run', {});
    await core.call('Settings.SetCurator', { curator: 'anthropic', anthropicBaseUrl: fake.url });
    return (await core.call('Projects.List', {})).projects[0]!.projectKey;
  }

  it('a failing curator is an error naming the project, not a green "Ready"', async () => {
    const { env } = withClaudeRoot();
    const { core, statuses } = open({ ...env, ANTHROPIC_API_KEY: 'sk-ant-api03-status-test-0123456789abcdef' });
    const projectKey = await gardenProject(core, env);
    fake.script(anthropicError(400, 'invalid_request_error', 'model not found'));

    await expect(core.call('Sweeper.Run', { projectKey })).rejects.toMatchObject({ code: 'sweep_failed' });
    expect(statuses.some((s) => s.working.some((item) => item.kind === 'curate' && item.text === 'Curating notes for garden'))).toBe(true);
    expect(core.status.state).toBe('error');
    expect(core.status.errors).toEqual([expect.objectContaining({ kind: 'curator-failed', subject: projectKey, place: 'projects' })]);
    expect(core.status.message).toMatch(/^Curating notes for garden failed: /);
  });

  it('a paused curator needs the person until the curator is chosen again', async () => {
    const { env } = withClaudeRoot();
    const { core } = open({ ...env, ANTHROPIC_API_KEY: 'sk-ant-api03-status-test-0123456789abcdef' });
    const projectKey = await gardenProject(core, env);
    fake.script(anthropicError(401, 'authentication_error', 'invalid x-api-key'));

    await expect(core.call('Sweeper.Run', { projectKey })).rejects.toMatchObject({ code: 'curator_paused' });
    expect(core.status).toMatchObject({ state: 'attention', errors: [] });
    expect(core.status.attention).toEqual([expect.objectContaining({ kind: 'curator-paused', subject: 'anthropic', place: 'settings' })]);
    expect(core.status.message).toMatch(/^The Anthropic curator is paused: /);

    // A restart keeps the pause (sweeper-pauses.json), so the status says so from the first moment.
    await core.shutdown();
    cores.splice(0);
    expect(open(env).core.status.attention).toEqual([expect.objectContaining({ kind: 'curator-paused' })]);
    await cores[0]!.call('Settings.SetCurator', { curator: 'offline' });
    expect(cores[0]!.status).toMatchObject({ state: 'idle', attention: [] });
  });
});

describe('maintenance', () => {
  it('an identity conflict needs the person, by repository, and resolving it clears it', async () => {
    const { env } = withClaudeRoot();
    const caches = join(home.dir, 'user-caches');
    mkdirSync(caches);
    const original = join(caches, 'widgets.db');
    createRepositoryCache(original, [{ repoId: 'github.com/acme/widgets', aliases: ['acme/widgets'] }]);
    const { core } = open(env);
    await core.call('Maintenance.Enroll', { cachePath: original, repo: 'acme/widgets', idempotencyKey: 'status-k1' });
    copyFileSync(original, join(caches, 'copy.db'));
    await expect(core.call('Maintenance.Enroll', { cachePath: join(caches, 'copy.db'), repo: 'acme/widgets', idempotencyKey: 'status-k2' })).rejects.toMatchObject({ code: 'cache_clone_conflict' });

    const [conflict] = (await core.call('Conflicts.List', {})).conflicts;
    expect(core.status).toMatchObject({ state: 'attention', message: 'A cache conflict over github.com/acme/widgets needs your choice' });
    expect(core.status.attention).toEqual([{ kind: 'conflict', subject: conflict!.conflictId, text: 'A cache conflict over github.com/acme/widgets needs your choice', place: 'conflicts' }]);
    expect(JSON.stringify(core.status)).not.toContain(caches);

    const plan = await core.call('Conflicts.Plan', { conflictId: conflict!.conflictId, candidateId: conflict!.candidates[0]!.candidateId });
    await core.call('Conflicts.Apply', { planId: plan.planId, idempotencyKey: 'status-resolve' });
    expect(core.status.attention).toEqual([]);
  });
});
