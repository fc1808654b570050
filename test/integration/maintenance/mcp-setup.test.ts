import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwner, type Owner } from '../../../core/index.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { connectMcp, type ToolResult } from '../../support/mcp.js';
import { seed, TOKEN } from './sync-rig.js';

// `steward mcp` driven over stdio against a loopback fake forge.

describe('steward mcp: maintenance_plan and enable_cache_maintenance', () => {
  let home: TempHome;
  let forge: FakeForge;
  let client: Client;
  let owner: Owner | undefined;
  let env: Record<string, string>;
  let base: string;
  const outputs: ToolResult[] = [];

  async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    outputs.push(result);
    return result;
  }

  beforeAll(async () => {
    home = tempHome('steward-mcp-setup-');
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    base = await forge.start();
    seed(forge, 12);
    const all = { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CODEX_ROOTS: '', STEWARD_GEMINI_ROOTS: '', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    env = Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => typeof e[1] === 'string'));
    ({ client } = await connectMcp(env));
  });

  afterAll(async () => {
    await client?.close();
    await owner?.stop();
    await forge?.stop();
    home?.cleanup();
  });

  it('advertises the setup tools; neither accepts a path', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['maintenance_status', 'maintenance_plan', 'enable_cache_maintenance']));
    for (const name of ['maintenance_plan', 'enable_cache_maintenance']) {
      const properties = Object.keys((byName.get(name)!.inputSchema as { properties: Record<string, unknown> }).properties);
      expect(properties.filter((p) => /(^|_)(path|cache|file|dir|folder)(_|$)/i.test(p))).toEqual([]);
    }
    expect(byName.get('maintenance_plan')!.annotations?.readOnlyHint).toBe(true);
  });

  it('hands starting Steward back to a person when no owner runs, and enrolls nothing', async () => {
    const args = { repo: 'acme/widgets', base_url: base, collections: ['issues', 'issue-comments'] };
    const plan = await call('maintenance_plan', args);
    expect(plan.isError).toBeFalsy();
    const planned = plan.structuredContent as { plan_id: string; status: string; effects: Array<{ class: string; needs_person: boolean; description: string }> };
    expect(planned.status).toBe('confirmation_required');
    expect(planned.effects.filter((e) => e.needs_person).map((e) => e.class)).toEqual(['local_service_change', 'local_service_change']);
    const refused = await call('enable_cache_maintenance', { ...args, plan_id: planned.plan_id, idempotency_key: 'agent-1', write_mode: 'live' });
    expect(refused.isError).toBeFalsy();
    expect(refused.structuredContent).toMatchObject({
      applied: false,
      status: 'confirmation_required',
      handoff: expect.stringMatching(/^steward maintenance enable --repo acme\/widgets --base-url http:\/\/127\.0\.0\.1:\d+\/api\/v3 .* --yes --idempotency-key agent-1$/),
    });
    expect(existsSync(join(home.dir, 'managed-caches.json'))).toBe(false);
    const invalid = await call('enable_cache_maintenance', { ...args, plan_id: planned.plan_id, idempotency_key: 'agent-1', write_mode: 'dry-run' });
    expect(invalid.isError).toBe(true);
  });

  it('with an owner running, an agent enrolls an already-ready setup, replays its key, and gets typed refusals', async () => {
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env, port: 0, logToStderr: false });
    const args = { repo: 'acme/widgets', base_url: base, collections: ['issues', 'issue-comments'] };

    // Start at login is a person's decision: the agent's apply waits for them, and the owner says so.
    const withLogin = (await call('maintenance_plan', args)).structuredContent as { plan_id: string };
    const waiting = await call('enable_cache_maintenance', { ...args, plan_id: withLogin.plan_id, idempotency_key: 'agent-2', write_mode: 'live' });
    expect(waiting.structuredContent).toMatchObject({ applied: false, status: 'confirmation_required', needs: [expect.stringContaining('start at login')] });
    expect((await owner.core.call('Maintenance.Waiting', {})).waiting).toMatchObject([{ repo: `${new URL(base).host}/acme/widgets` }]);
    expect((await owner.core.call('App.Info', {})).status.attention).toMatchObject([{ kind: 'plan-waiting', place: 'maintenance' }]);
    expect(existsSync(join(home.dir, 'xdg', 'autostart'))).toBe(false);

    const quiet = { ...args, service_install: false };
    const plan = (await call('maintenance_plan', quiet)).structuredContent as { plan_id: string; effects: Array<{ needs_person: boolean }> };
    expect(plan.effects.some((e) => e.needs_person)).toBe(false);
    const stale = await call('enable_cache_maintenance', { ...quiet, plan_id: withLogin.plan_id, idempotency_key: 'agent-3', write_mode: 'live' });
    expect(stale.isError).toBe(true);
    expect(stale.content[0]!.text).toMatch(/^stale_plan: /);

    const applied = await call('enable_cache_maintenance', { ...quiet, plan_id: plan.plan_id, idempotency_key: 'agent-3', write_mode: 'live', wait_for_first_pass: true });
    expect(applied.isError).toBeFalsy();
    const out = applied.structuredContent as { registration_id: string; enrollment: Record<string, boolean>; initial_jobs: Array<{ stage: string; lane: string }>; detached: boolean };
    expect(out).toMatchObject({ applied: true, enrollment: { completed: true, created: true, replayed: false }, detached: false, service_installed: false });
    expect(out.initial_jobs.map((j) => `${j.stage}/${j.lane}`)).toEqual(['sync/head', 'sync/tail']);

    const replay = await call('enable_cache_maintenance', { ...quiet, plan_id: plan.plan_id, idempotency_key: 'agent-3', write_mode: 'live' });
    expect(replay.structuredContent).toMatchObject({ applied: true, registration_id: out.registration_id, enrollment: { replayed: true } });
    const conflict = await call('enable_cache_maintenance', { ...quiet, sync: 'head', plan_id: plan.plan_id, idempotency_key: 'agent-3', write_mode: 'live' });
    expect(conflict.isError).toBe(true);
    expect(conflict.content[0]!.text).toMatch(/^idempotency_conflict: /);
    expect(readdirSync(join(home.dir, 'caches')).filter((n) => n.endsWith('.db'))).toHaveLength(1);

    const status = await call('maintenance_status', { repo: 'acme/widgets' });
    expect(status.structuredContent).toMatchObject({ registrations: [{ registrationId: out.registration_id, enabled: true }] });
    for (const result of outputs) {
      const text = JSON.stringify(result);
      expect(text).not.toContain(home.dir);
      expect(text).not.toContain(TOKEN);
    }
  });
});
