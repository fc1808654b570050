import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { StewardError } from '../../../core/api/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';

/** The sweeper over the real gateway: capture → trigger → Sweeper.Run → Projects.Get. */
let home: TempHome;
let core: Core;
let cwd: string;
let transcript: string;
const turns: string[][] = [];
const at: number[] = [];

function lines(sessionId: string, base: number) {
  return [
    claudeLine({ sessionId, cwd, ts: new Date(base), text: 'Add a watering schedule to the garden planner' }),
    claudeLine({
      sessionId,
      cwd,
      ts: new Date(base + 1_000),
      type: 'assistant',
      content: [
        { type: 'text', text: "I'll add a schedule module. We'll use a cron-like table instead of timers." },
        { type: 'tool_use', id: 'tu_1', name: 'Write', input: { file_path: join(cwd, 'src', 'schedule.ts'), content: 'export const x = 1;' } },
        { type: 'tool_use', id: 'tu_2', name: 'Bash', input: { command: 'npm test' } },
      ],
    }),
    claudeLine({ sessionId, cwd, ts: new Date(base + 2_000), content: [{ type: 'tool_result', tool_use_id: 'tu_2', content: 'FAIL schedule.test.ts\nsecret tool output', is_error: true }] }),
    claudeLine({ sessionId, cwd, ts: new Date(base + 3_000), text: '<command-name>/clear</command-name>' }),
    claudeLine({ sessionId, cwd, ts: new Date(base + 4_000), type: 'assistant', text: 'Next step: fix the failing schedule test.' }),
  ];
}

beforeEach(() => {
  home = tempHome('steward-sweeper-core-');
  const root = join(home.dir, 'roots', 'claude');
  cwd = join(home.dir, 'work', 'garden');
  mkdirSync(cwd, { recursive: true });
  transcript = join(root, 'projects', '-work-garden', 'sess-1.jsonl');
  writeJsonl(transcript, lines('sess-1', Date.parse('2026-11-29T09:00:00Z')));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: root } });
  turns.length = 0;
  at.length = 0;
  core.capture.onUserTurns((live) => {
    turns.push(live.map((t) => t.projectKey));
    at.push(...live.map((t) => t.at));
  });
});

afterEach(async () => {
  await core.shutdown();
  home.cleanup();
});

async function projectKey(): Promise<string> {
  const { projects } = await core.call('Projects.List', {});
  expect(projects).toHaveLength(1);
  return projects[0]!.projectKey;
}

describe('sweeper over the gateway cache', () => {
  it('sweeps a captured project offline and serves its notes through Projects.Get', async () => {
    await core.call('Backfill.Run', {});
    const key = await projectKey();
    const result = await core.call('Sweeper.Run', { projectKey: key });
    expect(result).toMatchObject({ outcome: 'ok', mode: 'offline', calls: 0, overview: 'written', changelog: 'appended' });
    const got = await core.call('Projects.Get', { projectKey: key });
    expect(got.overview).toContain('Add a watering schedule to the garden planner');
    expect(got.overview).toContain('`src/` schedule.ts');
    expect(got.overview).toContain('`npm test` failed: FAIL schedule.test.ts');
    expect(got.overview).not.toContain('secret tool output');
    expect(got.overview).not.toContain('/clear');
    // Dated by the activity (the transcript's day), not by the day the sweep ran.
    expect(got.changelog).toMatch(/^## 2026-11-29$/m);
    expect(got.claudeMd).toBeNull();
    expect(got.state).toMatchObject({ watermark: Date.parse('2026-11-29T09:00:04Z'), lastOutcome: 'ok', lastMode: 'offline' });
    // The endpoint's hash decides backoffs inside the sweeper; the contract never shows it.
    expect(got.state).not.toHaveProperty('lastEndpoint');
    expect(existsSync(join(home.dir, 'projects', got.slug, 'sweep-state.json'))).toBe(true);
    // Nothing is ever written inside the project's own folder.
    expect(readdirSync(cwd)).toEqual([]);
    await expect(core.call('Sweeper.Run', { projectKey: key })).resolves.toMatchObject({ outcome: 'skipped', reason: 'no-activity' });
    const telemetry = await core.call('Telemetry.Recent', { kind: 'sweeper.sweep' });
    expect(telemetry.entries[0]?.data).toMatchObject({ mode: 'offline', outcome: 'ok', calls: 0 });
  });

  it('reports live genuine user turns only: history imported now is not live work', async () => {
    await core.call('Backfill.Run', {});
    const key = await projectKey();
    // The fixture's turns were said days before this owner started: importing them triggers nothing.
    expect(turns).toEqual([]);
    const now = Date.now();
    appendJsonl(transcript, [
      claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(now - 2_000), type: 'assistant', text: 'Still here.' }),
      claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(now - 1_000), text: '<local-command-stdout>done</local-command-stdout>' }),
      claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(now - 900), text: '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>' }),
    ]);
    await core.call('Backfill.Run', {});
    expect(turns).toEqual([]);
    appendJsonl(transcript, [claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(now), text: 'Now add frost warnings' })]);
    await core.call('Backfill.Run', {});
    expect(turns).toEqual([[key]]);
    expect(at).toEqual([now]);
  });

  it('a history imported later (older than the last tick) is not live either', async () => {
    await core.call('Sweep.Tick', {});
    const old = join(home.dir, 'roots', 'claude', 'projects', '-work-garden', 'sess-old.jsonl');
    // Said a week ago, found only now (a new root, a restored backup): history, not work to curate.
    writeJsonl(old, [claudeLine({ sessionId: 'sess-old', cwd, ts: new Date(Date.now() - 7 * 86_400_000), text: 'Plan the seed catalogue' })]);
    await core.call('Sweep.Tick', {});
    expect(turns).toEqual([]);
  });

  it('a sweep that fails on a file error names the error code in its state and event, never a path', async () => {
    await core.call('Backfill.Run', {});
    const key = await projectKey();
    const { slug } = await core.call('Projects.Get', { projectKey: key });
    // A folder where OVERVIEW.md belongs: the atomic rename onto it fails with EISDIR.
    mkdirSync(join(home.dir, 'projects', slug, 'OVERVIEW.md'), { recursive: true });
    const failed: unknown[] = [];
    core.events.subscribe((name, payload) => name === 'sweeper.failed' && failed.push(payload));
    await expect(core.call('Sweeper.Run', { projectKey: key })).rejects.toMatchObject({ code: 'sweep_failed' });
    const { state } = await core.call('Projects.Get', { projectKey: key });
    expect(state.lastError).toEqual({ code: 'internal', message: 'The sweep failed unexpectedly (EISDIR); nothing was written' });
    expect(failed).toEqual([{ projectKey: key, code: 'internal', message: state.lastError!.message, paused: false }]);
    expect(JSON.stringify(state)).not.toContain(home.dir);
  });

  describe('a damaged sweep-state.json', () => {
    /** A captured project and where its sweep-state.json lives; `damage` writes over that file. */
    async function captured() {
      await core.call('Backfill.Run', {});
      const key = await projectKey();
      const dir = join(home.dir, 'projects', (await core.call('Projects.Get', { projectKey: key })).slug);
      const file = join(dir, 'sweep-state.json');
      const damage = (text: string) => {
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, text);
      };
      return { key, dir, file, damage };
    }

    it('is kept aside, reported degraded, and a scratch flag it still shows is kept', async () => {
      const { key, dir, file, damage } = await captured();
      await core.call('Projects.SetScratch', { projectKey: key, scratch: true });
      // Cut short mid-write (a full disk, a crash): the scratch flag is still there to read.
      const whole = readFileSync(file, 'utf8');
      const damaged = whole.slice(0, whole.indexOf('"lastSweepAt"') + 8);
      damage(damaged);

      const { state } = await core.call('Projects.Get', { projectKey: key });
      expect(state).toMatchObject({ scratch: true, degraded: { code: 'state_corrupt', scratch: 'recovered', keptAs: expect.stringMatching(/^sweep-state\.json\.corrupt-\d{4}-\d\d-\d\dT[\d-]+Z$/) as string } });
      expect(readFileSync(join(dir, state.degraded!.keptAs!), 'utf8')).toBe(damaged);
      // The fresh copy is written behind, like every state write.
      await core.sweeper.whenIdle();
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ scratch: true, degraded: state.degraded });
      await expect(core.call('Sweeper.Run', { projectKey: key, force: true })).resolves.toMatchObject({ outcome: 'skipped', reason: 'scratch' });
      // Read again: the same report, nothing more set aside.
      expect((await core.call('Projects.Get', { projectKey: key })).state.degraded).toEqual(state.degraded);
      expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toHaveLength(1);
    });

    it('holds a project as scratch when the damage hides the flag, until the user says otherwise', async () => {
      const { key, damage } = await captured();
      damage('\u0000\u0001 not json at all');
      expect((await core.call('Projects.Get', { projectKey: key })).state).toMatchObject({ scratch: true, degraded: { code: 'state_corrupt', scratch: 'assumed' } });
      await expect(core.call('Sweeper.Run', { projectKey: key })).resolves.toMatchObject({ outcome: 'skipped', reason: 'scratch' });
      await core.call('Projects.SetScratch', { projectKey: key, scratch: false });
      expect((await core.call('Projects.Get', { projectKey: key })).state).toMatchObject({ scratch: false, degraded: null });
      await expect(core.call('Sweeper.Run', { projectKey: key })).resolves.toMatchObject({ outcome: 'ok' });
    });

    it('leaves one that cannot be read at all in place, and holds the project as scratch', async () => {
      const { key, file } = await captured();
      mkdirSync(file, { recursive: true });
      expect((await core.call('Projects.Get', { projectKey: key })).state).toMatchObject({ scratch: true, degraded: { code: 'state_unreadable', keptAs: null, scratch: 'assumed' } });
      await expect(core.call('Sweeper.Run', { projectKey: key })).resolves.toMatchObject({ outcome: 'skipped', reason: 'scratch' });
      expect(statSync(file).isDirectory()).toBe(true);
    });

    it('keeps a project that was not scratch sweeping, and the next good sweep clears the report', async () => {
      const { key, damage } = await captured();
      // Valid JSON that breaks the schema is damage too.
      damage(JSON.stringify({ version: 1, watermark: 'soon', scratch: false }, null, 2));
      expect((await core.call('Projects.Get', { projectKey: key })).state).toMatchObject({ scratch: false, degraded: { code: 'state_corrupt', scratch: 'recovered' } });
      await expect(core.call('Sweeper.Run', { projectKey: key })).resolves.toMatchObject({ outcome: 'ok' });
      expect((await core.call('Projects.Get', { projectKey: key })).state.degraded).toBeNull();
    });
  });

  it('scratch projects are never swept; unknown projects are not_found', async () => {
    await core.call('Backfill.Run', {});
    const key = await projectKey();
    await expect(core.call('Projects.SetScratch', { projectKey: key, scratch: true })).resolves.toEqual({ projectKey: key, scratch: true });
    await expect(core.call('Sweeper.Run', { projectKey: key, force: true })).resolves.toMatchObject({ outcome: 'skipped', reason: 'scratch' });
    expect((await core.call('Projects.Get', { projectKey: key })).overview).toBeNull();
    const missing = await core.call('Sweeper.Run', { projectKey: 'p_0000000000000000' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StewardError);
    expect((missing as StewardError).code).toBe('not_found');
  });

  it('Settings.SetCurator writes config.json without keys; a key in the environment does not select a curator', async () => {
    await core.shutdown();
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, ANTHROPIC_API_KEY: 'sk-ant-api03-should-never-be-written' } });
    const before = await core.call('Settings.Get', {});
    expect(before.sweeper).toMatchObject({ curator: 'offline', keys: { anthropic: true, openai: false } });
    const after = await core.call('Settings.SetCurator', { curator: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(after.sweeper).toMatchObject({ curator: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://127.0.0.1:11434/v1' });
    const config = readFileSync(join(home.dir, 'config.json'), 'utf8');
    expect(JSON.parse(config)).toEqual({ sweeper: { curator: 'openai-compatible', model: 'llama3.2', base_url: 'http://127.0.0.1:11434/v1' } });
    expect(config).not.toContain('sk-ant');
    await expect(core.call('Settings.SetCurator', { curator: 'offline', baseUrl: 'not a url' })).rejects.toMatchObject({ code: 'invalid_params' });
  });
});
