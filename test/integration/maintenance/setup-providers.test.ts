import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StewardError, type SetupRequest } from '../../../core/api/index.js';
import { runCli } from '../../../core/cli/index.js';
import { resolveHome } from '../../../core/config/index.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { captureIo } from '../../support/cli.js';
import { FakeOllama } from '../../support/fake-embedders.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

interface Effect {
  class: string;
  description: string;
  needs_person: boolean;
}
interface Out {
  plan_id: string;
  status: string;
  data_boundary: string;
  effects: Effect[];
  blocker: { code: string; remediation: string } | null;
  plan: { effects: Effect[] };
  applied: { model_downloaded: boolean; smoke: { provider: string; dimensions: number } | null; registration_id: string; initial_jobs: Array<{ stage: string; lane: string; state: string }> };
  error: { code: string; remediation?: string };
}

/**
 * Plans and applies with real embedding profiles from config.json, against a loopback fake forge and
 * a loopback fake Ollama (the real Ollama wire shapes: /api/tags, /api/pull, /api/embed).
 */
describe('setup plans with embedding profiles', () => {
  let home: TempHome | undefined;
  let forge: FakeForge | undefined;
  let ollama: FakeOllama | undefined;
  let owner: Owner | undefined;
  afterEach(async () => {
    await owner?.stop();
    await ollama?.stop();
    await forge?.stop();
    home?.cleanup();
    home = forge = ollama = owner = undefined;
  });

  async function cli(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<{ code: number; out: string; err: string; json: () => Out }> {
    const io = captureIo(env);
    io.launchOwner = async (launchEnv) => {
      owner = await startOwner({ home: resolveHome(launchEnv), env: launchEnv, port: 0, logToStderr: false });
    };
    const code = await runCli(argv, io);
    return { code, out: io.out, err: io.err, json: () => JSON.parse(io.out) as Out };
  }

  function configure(dir: string, profile: Record<string, unknown>): void {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ maintenance: { profiles: { local: profile } } }));
  }

  it('plans the download a missing Ollama model needs, performs it only when confirmed, smoke-tests the profile, then enrolls and indexes', async () => {
    home = tempHome('steward-setup-providers-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 8);
    ollama = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:aaaabbbbccccdddd0000' }).start();
    ollama.pulled = false;
    configure(home.dir, { provider: 'ollama', model: 'nomic-embed-text', endpoint: ollama.url });
    const env = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    const args = ['--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues,issue-comments', '--rag', 'maintain', '--profile', 'local', '--no-service-install'];

    const plan = (await cli(env, 'maintenance', 'plan', ...args, '--format', 'json')).json();
    expect(plan).toMatchObject({ status: 'confirmation_required', data_boundary: 'local_network', blocker: null });
    expect(plan.effects.filter((e) => e.class !== 'job_enqueue' && e.class !== 'local_config_write')).toEqual([
      { class: 'inspect', description: `Checks that ${new URL(forge!.base).host}/acme/widgets is not maintained yet and that its forge token is stored.`, needs_person: false },
      { class: 'inspect', description: 'Asks the embedding server at 127.0.0.1 which revision of nomic-embed-text it serves.', needs_person: false },
      expect.objectContaining({ class: 'local_service_change', needs_person: true }),
      { class: 'large_download', description: 'Asks the ollama server at 127.0.0.1 to download the model nomic-embed-text (often hundreds of megabytes).', needs_person: true },
      {
        class: 'provider_data_transfer',
        description: `Sends the text of ${new URL(forge!.base).host}/acme/widgets's issues and issue comments to the ollama embedding server at 127.0.0.1 (on this computer or its local network) to index it, starting with one short test request.`,
        needs_person: false,
      },
    ]);
    expect(ollama.pulls).toEqual([]);
    expect(ollama.calls).toEqual([]);

    const blocked = (await cli(env, 'maintenance', 'plan', ...args, '--no-model-download', '--format', 'json')).json();
    expect(blocked).toMatchObject({ status: 'blocked', blocker: { code: 'model_missing', remediation: expect.stringContaining('ollama pull nomic-embed-text') } });

    // An agent cannot confirm a download: the owner refuses before anything is pulled.
    owner = await startOwner({ home: resolveHome(env), env, port: 0, logToStderr: false });
    const request: SetupRequest = { repo: 'acme/widgets', baseUrl: base, policy: { collections: ['issues', 'issue-comments'], rag: 'maintain', profile: 'local' }, serviceInstall: false };
    const agentPlan = await owner.core.call('Maintenance.Plan', request);
    const refused = await owner.core.call('Maintenance.Apply', { ...request, planId: agentPlan.planId, idempotencyKey: 'agent', confirmedBy: 'agent' }).catch((e: unknown) => e);
    expect((refused as StewardError).code).toBe('confirmation_required');
    expect(ollama.pulls).toEqual([]);

    const enabled = await cli(env, 'rag', 'enable', ...args, '--yes', '--idempotency-key', 'k1', '--json');
    expect(enabled.err).toBe('');
    expect(enabled.code).toBe(0);
    const applied = enabled.json().applied;
    expect(applied).toMatchObject({ model_downloaded: true, smoke: { provider: 'ollama', dimensions: 64 } });
    expect(ollama.pulls).toEqual(['nomic-embed-text']);
    // The profile's own dimension probe, then the smoke request, both before anything was enrolled.
    expect(ollama.calls.slice(0, 2).map((c) => c.inputs)).toEqual([['dimension probe'], ['Steward checks that this embedding profile answers.']]);
    expect(applied.initial_jobs.map((j) => `${j.stage}/${j.lane} ${j.state}`)).toEqual(['sync/head succeeded', 'sync/tail succeeded', 'rag/index succeeded']);
    expect(ollama.inputsEmbedded).toBeGreaterThan(8);
    const status = (await owner.core.call('Maintenance.List', {})).registrations[0]!;
    expect(status).toMatchObject({ state: 'ready', policy: { rag: 'maintain', profile: 'local' } });
    expect((await owner.core.call('Repository.Search', { repo: 'acme/widgets', query: 'issue' })).hits.length).toBeGreaterThan(0);
  });

  it('makes a plan stale when the profile changes in config.json, blocks when the provider does not answer, and enrolls nothing when the smoke request fails', async () => {
    home = tempHome('steward-setup-providers-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 4);
    ollama = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 32, revision: 'sha256:1111222233334444' }).start();
    configure(home.dir, { provider: 'ollama', model: 'nomic-embed-text', endpoint: ollama.url });
    const env = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    const args = ['--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues', '--rag', 'maintain', '--profile', 'local', '--no-service-install'];

    const before = (await cli(env, 'maintenance', 'plan', ...args, '--format', 'json')).json();
    expect(before.effects.map((e) => e.class)).not.toContain('large_download');
    configure(home.dir, { provider: 'ollama', model: 'nomic-embed-text', endpoint: ollama.url, dimensions: 32 });
    const stale = await cli(env, 'maintenance', 'enable', ...args, '--yes', '--idempotency-key', 'k1', '--plan-id', before.plan_id, '--json');
    expect(stale.code).toBe(1);
    expect(stale.json().error.code).toBe('stale_plan');
    expect(owner).toBeUndefined();

    // The smoke request fails: typed, with the remedy, and nothing is enrolled.
    ollama.beforeReply = () => {
      throw new Error('model runner crashed');
    };
    const smoke = await cli(env, 'maintenance', 'enable', ...args, '--yes', '--idempotency-key', 'k2', '--json');
    expect(smoke.code).toBe(1);
    expect(smoke.json().error).toMatchObject({ code: 'embedder_failed', remediation: expect.stringContaining('ollama serve') });
    expect((await owner!.core.call('Maintenance.List', {})).registrations).toEqual([]);
    expect(existsSync(join(home.dir, 'caches'))).toBe(false);

    await ollama.stop();
    const down = (await cli(env, 'maintenance', 'plan', ...args, '--format', 'json')).json();
    expect(down).toMatchObject({ status: 'blocked', blocker: { code: 'embedder_unavailable', remediation: expect.stringContaining('ollama serve') } });
    ollama = undefined;
  });
});
