import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { projectKeyOf } from '../../../core/projects/index.js';
import { TestRepo } from '../../support/git-repo.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { BIN, connectMcp, REPO, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A conversation that ran in `orchard/src` is a project of its own (`src`) with no notes yet, inside
 * the repository `orchard`, which has some. The agent told at session start (the hook) and the agent
 * asking mid-session (MCP `project_overview`) must be handed the same project's notes for that folder.
 */
let home: TempHome;
let env: Record<string, string>;
let root: string;
let orchard: string;
let src: string;
let client: Client;
let stderr: () => string;

async function withCore<T>(use: (core: Core) => Promise<T>): Promise<T> {
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env });
  try {
    return await use(core);
  } finally {
    await core.shutdown();
  }
}

/** `steward context --cwd DIR` from the built CLI: the notes the session-start hook hands out. */
function contextFor(cwd: string): string {
  try {
    return execFileSync(process.execPath, [BIN, 'context', '--cwd', cwd], { env, cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    return '';
  }
}

async function overviewFor(cwd: string): Promise<ToolResult> {
  return (await client.callTool({ name: 'project_overview', arguments: { cwd } })) as ToolResult;
}

beforeAll(async () => {
  home = tempHome('steward-mcp-subfolder-');
  root = join(home.dir, 'roots', 'claude');
  orchard = join(home.dir, 'work', 'orchard');
  new TestRepo(orchard).write('README.md', '# orchard\n').commit('start');
  src = join(orchard, 'src');
  mkdirSync(src, { recursive: true });
  writeJsonl(join(root, 'projects', '-work-orchard', 'sess-1.jsonl'), [
    claudeLine({ sessionId: 'sess-1', cwd: orchard, ts: new Date('2026-11-29T08:00:00Z'), text: 'Plan the pruning calendar for the apple trees' }),
    claudeLine({ sessionId: 'sess-1', cwd: orchard, ts: new Date('2026-11-29T08:01:00Z'), type: 'assistant', text: 'Next step: add pear trees to the calendar.' }),
  ]);
  writeJsonl(join(root, 'projects', '-work-orchard-src', 'sess-2.jsonl'), [
    claudeLine({ sessionId: 'sess-2', cwd: src, ts: new Date('2026-11-29T09:00:00Z'), text: 'Rename the grafting module in src' }),
  ]);
  env = Object.fromEntries(Object.entries({ ...home.env, STEWARD_CLAUDE_ROOTS: root }).filter((e): e is [string, string] => typeof e[1] === 'string'));
  await withCore(async (core) => {
    await core.call('Backfill.Run', {});
    const { projects } = await core.call('Projects.List', {});
    expect(projects.map((p) => p.name).sort()).toEqual(['orchard', 'src']);
    // Only orchard is swept: src stays a project without notes of its own.
    await core.call('Sweeper.Run', { projectKey: projectKeyOf(orchard) });
  });
  ({ client, stderr } = await connectMcp(env));
});

afterAll(async () => {
  await client?.close();
  home?.cleanup();
});

describe('the notes for a subfolder project, at session start and mid-session', () => {
  it('hands out orchard’s notes for orchard/src through both doors, and MCP says whose they are', async () => {
    const hook = contextFor(src);
    expect(hook).toContain("# Steward's notes for orchard");
    expect(hook).toContain('pruning calendar');
    const result = await overviewFor(src);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ projectKey: projectKeyOf(orchard), name: 'orchard', cwd: orchard });
    const overview = result.structuredContent!.overview as string;
    expect(overview).toContain('pruning calendar');
    const text = result.content.map((c) => c.text).join('\n');
    expect(text).not.toContain('No overview has been written for src');
    // The agent asked about src: it is told plainly that these are the notes of the folder above.
    expect(text).toMatch(/no notes for src yet.*orchard/i);
    expect(text).toContain(overview);
    expect(stderr()).not.toMatch(/Error:/);
  });

  it('asked for orchard itself, answers with its overview alone', async () => {
    const result = await overviewFor(orchard);
    expect(result.content).toEqual([{ type: 'text', text: result.structuredContent!.overview }]);
  });

  it('once src has notes of its own, both doors hand out those', async () => {
    await withCore(async (core) => {
      await core.call('Sweeper.Run', { projectKey: projectKeyOf(src) });
    });
    expect(contextFor(join(src, 'deep'))).toContain("# Steward's notes for src");
    const result = await overviewFor(join(src, 'deep'));
    expect(result.structuredContent).toMatchObject({ projectKey: projectKeyOf(src), name: 'src', cwd: src });
    expect(result.structuredContent!.overview).toContain('grafting module');
    expect(result.content).toEqual([{ type: 'text', text: result.structuredContent!.overview }]);
  });
});
