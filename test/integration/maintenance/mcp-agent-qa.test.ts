import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { createRepositoryCache } from '../../../core/maintenance/cache.js';
import { FakeForge } from '../../support/fake-forge.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { connectInProcess, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { seed, TOKEN } from './sync-rig.js';

// What an agent-QA session found calling the repository and project tools over MCP: each answer
// says what is wrong in the agent's own terms and what to do next, without sending it round in circles.

let home: TempHome;
let caches: TempHome;
let forge: FakeForge;
let base: string;
let core: Core;
let client: Client;

const PROJECTS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

beforeAll(async () => {
  home = tempHome('steward-mcp-agent-qa-');
  caches = tempHome('steward-mcp-agent-qa-caches-');
  forge = new FakeForge({ shape: 'github', token: TOKEN });
  base = await forge.start();
  seed(forge, 4);
  const root = join(home.dir, 'roots', 'claude');
  // Five projects, each active an hour after the one before: echo is the newest.
  PROJECTS.forEach((name, i) => {
    const cwd = join(home.env.HOME!, 'src', name);
    mkdirSync(cwd, { recursive: true });
    writeJsonl(join(root, 'projects', name, `${name}.jsonl`), [claudeLine({ sessionId: `s-${name}`, cwd, ts: new Date(Date.now() - (PROJECTS.length - i) * 3_600_000), text: `working on ${name}` })]);
  });
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, GITHUB_TOKEN: TOKEN, STEWARD_CLAUDE_ROOTS: root } });
  await core.call('Backfill.Run', {});
  client = await connectInProcess(core, { home: home.env.HOME!, stewardHome: home.dir });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await core?.shutdown();
  await forge?.stop();
  home?.cleanup();
  caches?.cleanup();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
const text = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');

describe('enable_cache_maintenance with a plan_id', () => {
  const args = () => ({ repo: 'acme/widgets', base_url: base, collections: ['issues'] });

  it('says a plan_id Steward never made is unknown (not_found), not stale, and changes nothing', async () => {
    const result = await call('enable_cache_maintenance', { ...args(), plan_id: 'bogus', idempotency_key: 'qa-1', write_mode: 'live' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^not_found: No plan has that id; make one with maintenance_plan/);
    expect(text(result)).not.toMatch(/stale_plan|Something changed/);
    expect((await core.call('Maintenance.List', {})).registrations).toEqual([]);
  });

  it('keeps stale_plan for a real plan that no longer matches the request', async () => {
    const planned = (await call('maintenance_plan', args())).structuredContent as { plan_id: string };
    expect(planned.plan_id).toMatch(/^plan_/);
    const result = await call('enable_cache_maintenance', { ...args(), collections: ['issues', 'pulls'], plan_id: planned.plan_id, idempotency_key: 'qa-2', write_mode: 'live' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^stale_plan: /);
  });
});

describe('maintenance_plan for a forge with no default address', () => {
  it('names the MCP argument base_url, never the CLI flag', async () => {
    const result = await call('maintenance_plan', { repo: 'acme/widgets', forge: 'gitea' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^invalid_params: base_url /);
    expect(text(result)).toContain('https://HOST/api/v1');
    expect(text(result)).not.toContain('--base-url');
  });
});

describe('maintenance_status in plain words', () => {
  it('says how many repositories Steward maintains, each one\'s state and what to do next, with no JSON in the text', async () => {
    const none = await call('maintenance_status', {});
    expect(none.content).toHaveLength(1);
    expect(text(none)).toMatch(/^Steward maintains no repository yet\. /);
    expect(text(none)).not.toMatch(/registry|writer|registration|[{}]/);

    const cache = join(caches.dir, 'widgets.db');
    createRepositoryCache(cache, [{ repoId: 'github.com/acme/widgets', aliases: ['acme/widgets'] }]);
    await core.call('Maintenance.Enroll', { cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'qa-enroll' });
    const one = await call('maintenance_status', {});
    expect(one.content).toHaveLength(1);
    const words = text(one);
    expect(words).toMatch(/^Steward maintains 1 repository\.\n/);
    expect(words).toMatch(/github\.com\/acme\/widgets \(reg_\w+\): not synced yet; /);
    expect(words).not.toMatch(/registry|writer|fingerprint|generation|[{}]/);
    // The whole status is still there for a program: in the structured content.
    expect(one.structuredContent).toMatchObject({ registrations: [{ canonicalRepoId: 'github.com/acme/widgets' }] });
  });
});

describe('list_projects and project_overview', () => {
  it('are annotated read-only like every other read tool', async () => {
    const { tools } = await client.listTools();
    // idempotentHint is MCP's only for a tool that writes: a read tool leaves it out (READ_ONLY).
    for (const name of ['list_projects', 'project_overview']) expect(tools.find((t) => t.name === name)!.annotations, name).toEqual({ readOnlyHint: true, openWorldHint: false });
  });

  it('pages list_projects by last activity, newest first, with a cursor for the rest', async () => {
    const first = await call('list_projects', { limit: 2 });
    expect(first.isError).toBeFalsy();
    const page1 = first.structuredContent as { projects: Array<{ name: string }>; next_cursor: string | null };
    expect(page1.projects.map((p) => p.name)).toEqual(['echo', 'delta']);
    expect(page1.next_cursor).toEqual(expect.any(String));
    expect(text(first)).toContain('next_cursor');
    const second = (await call('list_projects', { limit: 2, cursor: page1.next_cursor })).structuredContent as typeof page1;
    expect(second.projects.map((p) => p.name)).toEqual(['charlie', 'bravo']);
    const third = (await call('list_projects', { limit: 2, cursor: second.next_cursor })).structuredContent as typeof page1;
    expect(third.projects.map((p) => p.name)).toEqual(['alpha']);
    expect(third.next_cursor).toBeNull();
    const bad = await call('list_projects', { cursor: 'not-a-cursor' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^invalid_params: /);
  });

  it('gives a sane default page', async () => {
    const { tools } = await client.listTools();
    const limit = (tools.find((t) => t.name === 'list_projects')!.inputSchema.properties as Record<string, { maximum?: number }>).limit;
    expect(limit?.maximum).toBeLessThanOrEqual(100);
    const all = (await call('list_projects', {})).structuredContent as { projects: unknown[] };
    expect(all.projects).toHaveLength(PROJECTS.length);
  });

  it('says why a project has no overview yet and how to read its history meanwhile', async () => {
    const result = await call('project_overview', { cwd: join(home.env.HOME!, 'src', 'bravo') });
    expect(result.isError).toBeFalsy();
    const words = text(result);
    expect(words).toMatch(/No overview has been written for bravo yet/);
    expect(words).toMatch(/curator/);
    expect(words).toMatch(/new activity/);
    expect(words).toMatch(/model/);
    const key = (result.structuredContent as { projectKey: string }).projectKey;
    expect(words).toContain(`search_transcripts with project_key "${key}"`);
  });
});
