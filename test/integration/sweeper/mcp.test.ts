import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** `steward mcp` from the built dist, driven by the official SDK client over stdio. */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO, 'bin', 'steward.js');

let home: TempHome;
let env: Record<string, string>;
let cwd: string;
let overview: string;
let client: Client;
let stderr = '';

beforeAll(async () => {
  expect(existsSync(join(REPO, 'dist', 'core', 'cli', 'main.js')), 'run `npm run build:node` first').toBe(true);
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
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, cwd: REPO, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'steward-test', version: '0.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  home?.cleanup();
});

describe('steward mcp', () => {
  it('lists the two tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['list_projects', 'project_overview']);
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
    expect(stderr).not.toMatch(/Error:/);
  });
});
