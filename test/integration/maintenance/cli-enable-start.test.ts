import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { resolveHome } from '../../../core/config/index.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { captureIo, type CapturedIo } from '../../support/cli.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

interface Out {
  plan_id: string;
  effects: Array<{ description: string }>;
  plan: { plan_id: string };
  applied: { plan_id: string };
  started_in_background?: boolean;
  error: { code: string };
}

/**
 * `steward maintenance enable` when no Steward runs: the plan shown is the plan applied (its id
 * included), and the person is told Steward now runs in the background and how to stop it. Where
 * the CLI would start `steward serve`, the same owner starts in this process.
 */
describe('steward maintenance enable starts Steward for the plan a person confirmed', () => {
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

  async function cli(env: NodeJS.ProcessEnv, answer: boolean | undefined, ...argv: string[]): Promise<CapturedIo & { code: number; json: () => Out }> {
    const io = captureIo(env);
    if (answer !== undefined) {
      io.interactive = () => true;
      io.confirm = async () => answer;
    }
    io.launchOwner = async (launchEnv) => {
      launches += 1;
      owner = await startOwner({ home: resolveHome(launchEnv), env: launchEnv, port: 0, logToStderr: false });
    };
    const code = await runCli(argv, io);
    return Object.assign(io, { code, json: () => JSON.parse(io.out) as Out });
  }

  async function rig(): Promise<{ env: NodeJS.ProcessEnv; repo: string[] }> {
    home = tempHome('steward-enable-start-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 3);
    const env = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    return { env, repo: ['--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues', '--no-service-install'] };
  }

  it('in a terminal, applies the id it showed and says in one line that Steward now runs in the background', async () => {
    const { env, repo } = await rig();
    const yes = await cli(env, true, 'maintenance', 'enable', ...repo);
    expect(yes.code).toBe(0);
    expect(launches).toBe(1);
    const shown = /^Plan (plan_\w+) /m.exec(yes.out)?.[1];
    expect(shown).toBeDefined();
    expect(yes.out).toContain(`Applied ${shown}:`);
    expect(yes.out.match(/plan_\w+/g)!.every((id) => id === shown)).toBe(true);
    const started = yes.out.split('\n').filter((line) => line.startsWith('Started Steward in the background'));
    expect(started).toHaveLength(1);
    expect(started[0]).toContain('`steward stop`');
  });

  it('plans and hears a no without setting up a Steward home', async () => {
    const { env, repo } = await rig();
    expect((await cli(env, undefined, 'maintenance', 'plan', ...repo)).code).toBe(0);
    const no = await cli(env, false, 'maintenance', 'enable', ...repo);
    expect(no.out.trimEnd().endsWith('Not applied.')).toBe(true);
    expect(readdirSync(env.STEWARD_HOME!)).toEqual([]);
    expect(launches).toBe(0);
  });

  it('with --yes, applies the --plan-id it was given and says so in JSON', async () => {
    const { env, repo } = await rig();
    const plan = (await cli(env, undefined, 'maintenance', 'plan', ...repo, '--format', 'json')).json();
    const enabled = await cli(env, undefined, 'maintenance', 'enable', ...repo, '--yes', '--idempotency-key', 'k1', '--plan-id', plan.plan_id, '--json');
    expect(enabled.code).toBe(0);
    expect(enabled.json()).toMatchObject({ plan: { plan_id: plan.plan_id }, applied: { plan_id: plan.plan_id }, started_in_background: true });
    expect(enabled.err).toMatch(/^Started Steward in the background.*`steward stop`/m);
  });

  it('never starts Steward for a plan that did not say it would', async () => {
    const { env, repo } = await rig();
    owner = await startOwner({ home: resolveHome(env), env, port: 0, logToStderr: false });
    const planned = (await cli(env, undefined, 'maintenance', 'plan', ...repo, '--format', 'json')).json();
    expect(planned.effects.map((e) => e.description).join(' ')).not.toContain('Starts Steward');
    await owner.stop();
    owner = undefined;
    const stale = await cli(env, undefined, 'maintenance', 'enable', ...repo, '--yes', '--idempotency-key', 'k2', '--plan-id', planned.plan_id, '--json');
    expect(stale.code).toBe(1);
    expect(stale.json().error.code).toBe('stale_plan');
    expect(launches).toBe(0);
  });
});
