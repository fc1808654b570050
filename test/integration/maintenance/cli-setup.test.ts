import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { resolveHome } from '../../../core/config/index.js';
import { operationKeyOf } from '../../../core/maintenance/index.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { captureIo, type CapturedIo } from '../../support/cli.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

interface PlanOut {
  plan_id: string;
  status: string;
  action: string;
  effects: Array<{ class: string; description: string }>;
}
interface AppliedOut {
  registration_id: string;
  history: string;
  initial_jobs: Array<{ stage: string; lane: string }>;
}
/** What the verbs print with --json: a plan, a plan with its apply, a status, or an error. */
type Out = PlanOut & {
  plan: PlanOut;
  applied: AppliedOut;
  error: { code: string };
  registrations: Array<Record<string, unknown>>;
  conflicts: unknown[];
  registration: { enabled: boolean };
  stopped: boolean;
};

/**
 * `steward maintenance plan|enable|resume`, `steward stop` and `steward service uninstall`, driven
 * through the real CLI against a loopback fake forge. Where the CLI would start `steward serve` in
 * the background, this test starts the same owner in this process (startOwner), so the CLI reaches
 * it over its real loopback endpoint.
 */
describe('steward maintenance plan and enable', () => {
  let home: TempHome | undefined;
  let forge: FakeForge | undefined;
  let owner: Owner | undefined;
  let launches = 0;
  afterEach(async () => {
    await owner?.stop();
    await forge?.stop();
    home?.cleanup();
    home = forge = owner = undefined;
    launches = 0;
  });

  async function cli(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<CapturedIo & { code: number; json: () => Out }> {
    return cliAnswering(env, undefined, ...argv);
  }

  /** The CLI in a terminal where a person answers each question with `answer` (undefined: nobody can answer). */
  async function cliAnswering(env: NodeJS.ProcessEnv, answer: boolean | undefined, ...argv: string[]): Promise<CapturedIo & { code: number; json: () => Out; asked: string[] }> {
    const io = captureIo(env);
    const asked: string[] = [];
    if (answer !== undefined) {
      io.interactive = () => true;
      io.confirm = async (question) => {
        asked.push(question);
        return answer;
      };
    }
    io.launchOwner = async (launchEnv) => {
      launches += 1;
      owner = await startOwner({ home: resolveHome(launchEnv), env: launchEnv, port: 0, logToStderr: false });
    };
    const code = await runCli(argv, io);
    return Object.assign(io, { code, json: () => JSON.parse(io.out) as Out, asked });
  }

  it('plans read-only, applies only what was confirmed, starts the owner, replays after a restart, updates policy in place, and is undone by stop and service uninstall', async () => {
    home = tempHome('steward-setup-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 30);
    const env = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    const repo = ['--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues,issue-comments'];
    const autostart = join(home.dir, 'xdg', 'autostart', 'steward.desktop');

    const planned = await cli(env, 'maintenance', 'plan', ...repo, '--format', 'json');
    expect(planned.code).toBe(0);
    const plan = planned.json();
    expect(plan).toMatchObject({ status: 'confirmation_required', action: 'create', repo: `${new URL(forge!.base).host}/acme/widgets`, data_boundary: 'local_process', config_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(plan.plan_id).toMatch(/^plan_/);
    expect(plan.effects.map((e) => e.class)).toEqual(['inspect', 'local_config_write', 'local_service_change', 'local_service_change', 'job_enqueue', 'job_enqueue']);
    expect(plan.effects[2]!.description).toContain('Starts Steward in the background');
    expect(plan.effects[3]!.description).toContain('start at login');
    expect(existsSync(join(home.dir, 'managed-caches.json'))).toBe(false);
    expect(existsSync(join(home.dir, 'caches'))).toBe(false);
    expect((await cli(env, 'maintenance', 'plan', ...repo, '--format', 'json')).json().plan_id).toBe(plan.plan_id);
    const text = await cli(env, 'maintenance', 'plan', ...repo);
    expect(text.out).toContain('* Starts Steward in the background');
    expect(text.out).toContain('data boundary local_process');

    // Nobody can answer here: a confirmation must come as --yes with a key.
    const unconfirmed = await cli(env, 'maintenance', 'enable', ...repo, '--json');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.json().error).toMatchObject({ code: 'confirmation_required', handoff: expect.stringContaining('--idempotency-key') });
    expect((await cli(env, 'maintenance', 'enable', ...repo, '--yes')).code).toBe(2);
    expect(launches).toBe(0);

    const enabled = await cli(env, 'maintenance', 'enable', ...repo, '--yes', '--idempotency-key', 'setup-1', '--plan-id', plan.plan_id, '--json');
    expect(enabled.code).toBe(0);
    expect(launches).toBe(1);
    const applied = enabled.json().applied;
    expect(applied).toMatchObject({ enrollment: { completed: true, created: true, cache_created: true, updated: false, replayed: false }, service_installed: true, repo: `${new URL(forge!.base).host}/acme/widgets` });
    expect(applied.initial_jobs.map((j) => `${j.stage}/${j.lane}`)).toEqual(['sync/head', 'sync/tail']);
    // Thirty items fit one tail window, so the first pass honestly reaches the end of history.
    expect(applied).toMatchObject({ history: 'complete', status: 'ready', registration_state: 'ready' });
    expect(readFileSync(autostart, 'utf8')).toContain('X-Steward-Managed=true');
    const registrationId = applied.registration_id;
    const caches = readdirSync(join(home.dir, 'caches')).filter((n) => n.endsWith('.db'));
    expect(caches).toHaveLength(1);

    // Stopped and started again, the same key replays: nothing is created twice.
    const stopped = await cli(env, 'stop', '--json');
    expect(stopped.json()).toMatchObject({ stopped: true, running: false });
    await owner!.stopped;
    owner = undefined;
    expect((await cli(env, 'stop')).out).toBe('Steward is not running.\n');
    const replayed = await cli(env, 'maintenance', 'enable', ...repo, '--yes', '--idempotency-key', 'setup-1', '--json');
    expect(replayed.code).toBe(0);
    expect(launches).toBe(2);
    expect(replayed.json().applied).toMatchObject({ registration_id: registrationId, enrollment: { replayed: true, cache_created: false } });
    expect(readdirSync(join(home.dir, 'caches')).filter((n) => n.endsWith('.db'))).toEqual(caches);
    const reused = await cli(env, 'maintenance', 'enable', ...repo, '--sync', 'head', '--yes', '--idempotency-key', 'setup-1', '--json');
    expect(reused.code).toBe(1);
    expect(reused.json().error.code).toBe('idempotency_conflict');

    // A plan made before the service state changed is stale, and nothing is applied.
    const before = (await cli(env, 'maintenance', 'plan', ...repo, '--sync', 'head', '--format', 'json')).json();
    expect((await cli(env, 'service', 'uninstall')).code).toBe(0);
    expect(existsSync(autostart)).toBe(false);
    const stale = await cli(env, 'maintenance', 'enable', ...repo, '--sync', 'head', '--yes', '--idempotency-key', 'change-1', '--plan-id', before.plan_id, '--json');
    expect(stale.code).toBe(1);
    expect(stale.json().error.code).toBe('stale_plan');
    expect(existsSync(autostart)).toBe(false);

    // A policy change is an update of the same registration: still active, one record, no conflict.
    const change = await cli(env, 'maintenance', 'enable', ...repo, '--sync', 'head', '--no-service-install', '--yes', '--idempotency-key', 'change-2', '--json');
    expect(change.code).toBe(0);
    expect(change.json().plan.effects.map((e) => e.description)).toContain(
      `Changes what is synced for ${new URL(forge!.base).host}/acme/widgets from recent changes and all history to recent changes only.`,
    );
    expect(change.json().applied).toMatchObject({ registration_id: registrationId, enrollment: { created: false, updated: true }, service_installed: false, history: 'recent_only' });
    expect(existsSync(autostart)).toBe(false);
    const status = (await cli(env, 'service', 'maintenance', '--format', 'json')).json();
    expect(status.registrations).toHaveLength(1);
    expect(status.conflicts).toHaveLength(0);
    expect(status.registrations[0]).toMatchObject({ registrationId, enabled: true, policy: { sync: 'head', collections: ['issues', 'issue-comments'] } });

    // `resume` is its own verb now; `enable --registration` plans for that registration.
    expect((await cli(env, 'maintenance', 'disable', '--registration', registrationId)).code).toBe(0);
    const resumePlan = (await cli(env, 'maintenance', 'plan', '--registration', registrationId, '--no-service-install', '--format', 'json')).json();
    expect(resumePlan).toMatchObject({ action: 'resume', status: 'confirmation_required' });
    const resumed = await cli(env, 'maintenance', 'resume', '--registration', registrationId, '--json');
    expect(resumed.json().registration.enabled).toBe(true);

    for (const output of [planned, text, enabled, replayed, change]) {
      expect(output.out + output.err).not.toContain(TOKEN);
      expect(output.out + output.err).not.toContain(home.dir);
    }
    expect((await cli(env, 'stop')).out).toMatch(/^Stopped Steward \(pid \d+\)\.\n$/);
    owner = undefined;
  });

  it('blocks a plan without a forge token and says how to store one; usage errors change nothing', async () => {
    home = tempHome('steward-setup-');
    const env = { ...home.env, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    const plan = (await cli(env, 'maintenance', 'plan', '--repo', 'acme/widgets', '--format', 'json')).json();
    expect(plan).toMatchObject({ status: 'blocked', blocker: { code: 'token_missing', remediation: expect.stringContaining('steward secrets set GITHUB_TOKEN') } });
    const enable = await cli(env, 'maintenance', 'enable', '--repo', 'acme/widgets', '--yes', '--idempotency-key', 'k');
    expect(enable.code).toBe(1);
    expect(enable.err).toContain('steward secrets set GITHUB_TOKEN');
    expect(launches).toBe(0);
    expect((await cli(env, 'maintenance', 'plan')).code).toBe(2);
    expect((await cli(env, 'maintenance', 'plan', '--repo', 'acme/widgets', '--registration', 'reg_x')).code).toBe(2);
    expect((await cli(env, 'maintenance', 'plan', '--repo', 'acme/widgets', '--sync', 'sometimes')).code).toBe(2);
    expect((await cli(env, 'rag', 'enable', '--repo', 'acme/widgets', '--forge', 'gitea')).code).toBe(2);
    expect(existsSync(join(home.dir, 'managed-caches.json'))).toBe(false);
  });

  it('says why a first pass failed for a refused token, keeps what was applied, and exits 1', async () => {
    home = tempHome('steward-setup-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 3);
    const env = { ...home.env, GITHUB_TOKEN: 'not-the-token', STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    const enable = await cli(env, 'maintenance', 'enable', '--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues', '--no-service-install', '--yes', '--idempotency-key', 'wrong-1');
    expect(enable.out).toContain('The plan was applied and the registration is kept, but its first pass failed: the forge refused the token: set a new one with `steward secrets set GITHUB_TOKEN`.');
    expect(enable.out).not.toContain('forge_unauthorized');
    expect(enable.code).toBe(1);
  });

  it('in a terminal, shows the plan and asks; a yes applies it under a key derived from that plan, a no changes nothing', async () => {
    home = tempHome('steward-setup-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 5);
    const env = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    const args = ['rag', 'enable', '--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues', '--no-service-install'];
    const no = await cliAnswering(env, false, ...args);
    expect(no.asked).toEqual(['Apply this plan?']);
    expect(no.out).toContain('search indexing on, profile default');
    expect(no.out).toContain('Indexes the cache');
    expect(no.out.trimEnd().endsWith('Not applied.')).toBe(true);
    expect(launches).toBe(0);
    expect(existsSync(join(home.dir, 'managed-caches.json'))).toBe(false);

    const plan = (await cli(env, 'maintenance', 'plan', '--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues', '--rag', 'maintain', '--no-service-install', '--format', 'json')).json();
    const yes = await cliAnswering(env, true, ...args);
    expect(yes.code).toBe(0);
    expect(yes.out).toContain('Applied ');
    const receipts = (JSON.parse(readFileSync(join(home.dir, 'managed-caches.json'), 'utf8')) as { receipts: Array<{ key: string; operation: string }> }).receipts;
    expect(receipts).toEqual([expect.objectContaining({ key: operationKeyOf(plan.plan_id), operation: 'setup' })]);
    const status = (await cli(env, 'service', 'maintenance', '--format', 'json')).json();
    expect(status.registrations[0]).toMatchObject({ policy: { rag: 'maintain', collections: ['issues'] } });
  });
});
