import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StewardError, SetupRequest } from '../../../core/api/index.js';
import { Core } from '../../../core/core.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { seed, TOKEN } from './sync-rig.js';

// A plan an agent could not confirm waits for a person across restarts and across processes.

type Caller = Pick<Core, 'call'>;

describe('plans waiting for a person survive a restart and reach the owner', () => {
  let home: TempHome;
  let forge: FakeForge;
  let env: Record<string, string>;
  let request: SetupRequest;
  const owners: Owner[] = [];

  beforeEach(async () => {
    home = tempHome('steward-waiting-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    const base = await forge.start();
    seed(forge, 3);
    const all = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    env = Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => typeof e[1] === 'string'));
    request = { repo: 'acme/widgets', baseUrl: base, policy: { collections: ['issues', 'issue-comments'] } };
  });

  afterEach(async () => {
    for (const owner of owners.splice(0)) await owner.stop();
    await forge?.stop();
    home?.cleanup();
  });

  async function start(): Promise<Owner> {
    const owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env, port: 0, logToStderr: false });
    owners.push(owner);
    return owner;
  }

  async function stop(owner: Owner): Promise<void> {
    owners.splice(owners.indexOf(owner), 1);
    await owner.stop();
  }

  /** What an agent's enable_cache_maintenance asks: it needs a person (start at login), so the plan waits. */
  async function agentAsks(core: Caller, key: string): Promise<void> {
    const plan = (await core.call('Maintenance.Plan', request)) as { planId: string };
    const refused = await core.call('Maintenance.Apply', { ...request, planId: plan.planId, idempotencyKey: key, confirmedBy: 'agent', detach: true }).catch((e: unknown) => e);
    expect((refused as StewardError).code).toBe('confirmation_required');
  }

  const waitingOf = async (core: Caller) => ((await core.call('Maintenance.Waiting', {})) as { waiting: Array<{ waitingId: string; repo: string; request: SetupRequest }> }).waiting;

  it('keeps a waiting plan across a restart of the owner, and a person confirms it there', async () => {
    let owner = await start();
    await agentAsks(owner.core, 'agent-1');
    expect(await waitingOf(owner.core)).toMatchObject([{ repo: `${new URL(forge.base).host}/acme/widgets` }]);
    await stop(owner);

    owner = await start();
    const waiting = await waitingOf(owner.core);
    expect(waiting).toMatchObject([{ repo: `${new URL(forge.base).host}/acme/widgets`, request: { repo: 'acme/widgets' } }]);
    expect((await owner.core.call('App.Info', {})) as unknown).toMatchObject({ status: { attention: [{ kind: 'plan-waiting', place: 'maintenance' }] } });

    // Bad input changes nothing.
    expect(await owner.core.call('Maintenance.Dismiss', { waitingId: 'wait_nothing' })).toEqual({ dismissed: false });
    await expect(owner.core.call('Maintenance.Dismiss', {})).rejects.toThrow();
    expect(await waitingOf(owner.core)).toEqual(waiting);

    // A person plans again from the waiting request and confirms it.
    const plan = (await owner.core.call('Maintenance.Plan', waiting[0]!.request)) as { planId: string };
    const applied = (await owner.core.call('Maintenance.Apply', { ...waiting[0]!.request, planId: plan.planId, idempotencyKey: 'person-1', confirmedBy: 'person', detach: true })) as { enrollment: { created: boolean } };
    expect(applied.enrollment.created).toBe(true);
    expect(await waitingOf(owner.core)).toEqual([]);
    await stop(owner);

    owner = await start();
    expect(await waitingOf(owner.core)).toEqual([]);
  });

  it('lists for the owner a plan another process recorded while no owner ran; a dismissal lasts', async () => {
    const agent = Core.open({ home: { dir: home.dir, kind: 'env' }, env, logToStderr: false });
    try {
      await agentAsks(agent, 'agent-1');
    } finally {
      await agent.shutdown();
    }

    let owner = await start();
    const waiting = await waitingOf(owner.core);
    expect(waiting).toMatchObject([{ repo: `${new URL(forge.base).host}/acme/widgets` }]);
    expect(await owner.core.call('Maintenance.Dismiss', { waitingId: waiting[0]!.waitingId })).toEqual({ dismissed: true });
    expect(await waitingOf(owner.core)).toEqual([]);
    await stop(owner);

    owner = await start();
    expect(await waitingOf(owner.core)).toEqual([]);
  });
});
