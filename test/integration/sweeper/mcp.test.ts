import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { startOwner } from '../../../core/index.js';
import { createRepositoryCache } from '../../../core/maintenance/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { BIN, connectMcp, REPO, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';


let home: TempHome;
let env: Record<string, string>;
let cwd: string;
let overview: string;
let client: Client;
let stderr: () => string;

beforeAll(async () => {
  home = tempHome('steward-mcp-');
  const root = join(home.dir, 'roots', 'claude');
  cwd = join(home.dir, 'work', 'orchard');
  mkdirSync(cwd, { recursive: true });
  writeJsonl(join(root, 'projects', '-work-orchard', 'sess-1.jsonl'), [
    claudeLine({ sessionId: 'sess-1', cwd, ts: new Date('2026-11-29T08:00:00Z'), text: 'Plan the pruning calendar for the apple trees' }),
    claudeLine({ sessionId: 'sess-1', cwd, ts: new Date('2026-11-29T08:01:00Z'), type: 'assistant', text: 'Next step: add pear trees to the calendar.' }),
  ]);
  env = Object.fromEntries(Object.entries({ ...home.env, STEWARD_CLAUDE_ROOTS: root }).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env });
  try {
    await core.call('Backfill.Run', {});
    const { projects } = await core.call('Projects.List', {});
    await core.call('Sweeper.Run', { projectKey: projects[0]!.projectKey });
    overview = (await core.call('Projects.Get', { projectKey: projects[0]!.projectKey })).overview!;
  } finally {
    await core.shutdown();
  }
  ({ client, stderr } = await connectMcp(env));
});

afterAll(async () => {
  await client?.close();
  home?.cleanup();
});

describe('steward mcp', () => {
  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['enable_cache_maintenance', 'get_session', 'list_projects', 'maintenance_plan', 'maintenance_status', 'project_overview', 'search_repository', 'search_transcripts']);
  });

  it('project_overview returns the swept OVERVIEW for a folder inside the project', async () => {
    expect(overview).toContain('Plan the pruning calendar for the apple trees');
    const result = await client.callTool({ name: 'project_overview', arguments: { cwd: join(cwd, 'src', 'deep') } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: overview }]);
    expect(result.structuredContent).toMatchObject({ name: 'orchard', cwd, overview });
  });

  it('list_projects returns the project; an unknown folder is a tool error, not a crash', async () => {
    const list = await client.callTool({ name: 'list_projects', arguments: {} });
    expect(list.structuredContent).toMatchObject({ projects: [{ name: 'orchard', cwd }] });
    const unknown = await client.callTool({ name: 'project_overview', arguments: { cwd: join(home.dir, 'elsewhere') } });
    expect(unknown.isError).toBe(true);
    expect(stderr()).not.toMatch(/Error:/);
  });
});

/** The built CLI, as an operator would run it against the same STEWARD_HOME. */
function steward(...argv: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(process.execPath, [BIN, ...argv], { env, cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { code: failed.status, out: failed.stdout };
  }
}

describe('steward mcp: maintenance_status', () => {
  const hex = randomBytes(12).toString('hex');
  const secretDir = `ghp_${hex}${hex.slice(0, 12)}`;
  const secretFile = `sessionid=${hex}`;
  const outputs: ToolResult[] = [];
  let cache: string;
  let enrolled: { registrationId: string; cacheUuid: string; pathFingerprint: string };

  async function status(args: Record<string, unknown> = {}): Promise<ToolResult> {
    const result = (await client.callTool({ name: 'maintenance_status', arguments: args })) as ToolResult;
    outputs.push(result);
    return result;
  }

  beforeAll(() => {
    const dir = join(home.dir, 'user-data', secretDir);
    mkdirSync(dir, { recursive: true });
    cache = join(dir, `${secretFile}.db`);
    createRepositoryCache(cache, [{ repoId: 'github.com/acme/widgets', aliases: ['acme/widgets'] }]);
    const enroll = steward('maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--idempotency-key', 'mcp-1', '--format', 'json');
    expect(enroll.code).toBe(0);
    enrolled = JSON.parse(enroll.out) as typeof enrolled;
    expect(steward('service', 'reconcile', '--format', 'json').code).toBe(0);
  });

  it('is read-only and takes no path: only registration_id and repo', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'maintenance_status')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['registration_id', 'repo']);
    expect(tool.description).toMatch(/never shown/);
    const withPath = await status({ cache_path: cache });
    expect(withPath.isError).toBe(true);
    const pathAsRepo = await status({ repo: cache });
    expect(pathAsRepo.isError).toBe(true);
  });

  it('returns the sanitized status of the enrolled cache', async () => {
    const result = await status();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      registry: { state: 'ok', reason: null, version: 2 },
      registrations: [
        {
          registrationId: enrolled.registrationId,
          cacheUuid: enrolled.cacheUuid,
          pathFingerprint: enrolled.pathFingerprint,
          canonicalRepoId: 'github.com/acme/widgets',
          aliases: ['acme/widgets'],
          legacyIds: [],
          policy: { sync: 'head', rag: 'off', profile: 'default' },
          enabled: true,
          // No token in this environment: the pass ran no job and the status says why.
          state: 'waiting',
          waiting: { reason: 'token_missing', host: 'github.com', until: null },
          degraded: [],
          stages: { sync: { errorClass: null, failures: 0, lastSuccessAt: null }, rag: { errorClass: null } },
          generations: { content: expect.any(Number) },
          frontiers: expect.any(Array),
          collections: [expect.objectContaining({ collection: 'issues', items: 0, reason: 'token_missing' }), expect.objectContaining({ collection: 'issue-comments' })],
          jobs: [],
        },
      ],
      conflicts: [],
      retired: 0,
    });
    // The sentence alone: the status is in structuredContent, not repeated as JSON text.
    expect(result.content).toHaveLength(1);
    expect(result.content[0]!.text).toContain(`- github.com/acme/widgets (${enrolled.registrationId}): waiting; no token is stored: store one with \`steward secrets set GITHUB_TOKEN\``);
  });

  it('filters by repository or registration; a filter that matches nothing is an empty answer', async () => {
    for (const args of [{ repo: 'acme/widgets' }, { repo: 'github.com/Acme/Widgets' }, { registration_id: enrolled.registrationId }]) {
      expect((await status(args)).structuredContent!.registrations).toHaveLength(1);
    }
    const none = await status({ repo: 'acme/gadgets' });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent!.registrations).toEqual([]);
    expect(none.content[0]!.text).toContain('None of them matches that filter.');
  });

  it('shows a clone conflict with public-safe candidate evidence', async () => {
    const copy = join(home.dir, 'user-data', secretDir, `${secretFile}-copy.db`);
    copyFileSync(cache, copy);
    const clone = steward('maintenance', 'enroll', '--cache', copy, '--repo', 'acme/widgets', '--idempotency-key', 'mcp-2', '--format', 'json');
    expect(clone.code).toBe(1);
    const result = await status({ repo: 'acme/widgets' });
    const { conflicts } = result.structuredContent as { conflicts: Array<{ conflictId: string; kind: string; cacheUuid: string; candidates: Array<{ pathFingerprint: string; members: Array<{ registrationId: string }> }> }> };
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ kind: 'cache_clone_conflict', state: 'open', cacheUuid: enrolled.cacheUuid });
    expect(conflicts[0]!.candidates.map((c) => c.pathFingerprint)).toContain(enrolled.pathFingerprint);
    expect(conflicts[0]!.candidates.flatMap((c) => c.members.map((m) => m.registrationId))).toContain(enrolled.registrationId);
    expect(result.content[0]!.text).toContain(`steward maintenance resolve --conflict ${conflicts[0]!.conflictId}`);
    expect((await status({ registration_id: enrolled.registrationId })).structuredContent!.conflicts).toHaveLength(1);
    expect((await status({ repo: 'acme/gadgets' })).structuredContent!.conflicts).toEqual([]);
  });

  it('answers the same through a running owner (daemon.json) as in-process', async () => {
    const inProcess = await status();
    const owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env, port: 0, schedule: false });
    try {
      const viaOwner = await status();
      expect(viaOwner.structuredContent).toEqual(inProcess.structuredContent);
    } finally {
      await owner.stop();
    }
  });

  it('never carries the cache path, or any part of it, in any answer', () => {
    expect(outputs.length).toBeGreaterThan(8);
    const all = outputs.map((o) => JSON.stringify(o)).join('\n');
    for (const secret of [secretDir, secretFile, hex, realpathSync(cache), home.dir]) expect(all).not.toContain(secret);
    expect(stderr()).not.toMatch(/Error:/);
  });
});
