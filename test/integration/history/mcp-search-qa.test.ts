import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withClient } from '../../../core/cli/connect.js';
import { Core } from '../../../core/core.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeHistoryWithMcp, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl, type ClaudeLineOptions } from '../../support/transcripts.js';

// What an agent-QA session found of search_transcripts over stdio: stale answers that said nothing of
// it, a conversation's counted matches no call reached, tool output with no tool, hit lines that said
// one thing twice, and queries whose symbols or spans were read as something else without a word.

const BUILD = 'f0f0f0f0-0000-4000-8000-00000000a001';
const STEPS = 'f0f0f0f0-0000-4000-8000-00000000a002';
const NOTES = 'f0f0f0f0-0000-4000-8000-00000000a003';
const LATE = 'f0f0f0f0-0000-4000-8000-00000000a004';
const base = Date.now() - 6 * 3_600_000;
const at = (minute: number) => new Date(base + minute * 60_000);

function conversation(root: string, sessionId: string, lines: Array<Partial<ClaudeLineOptions> & { minute: number }>): void {
  writeJsonl(
    join(root, 'projects', '-work-forge', `${sessionId}.jsonl`),
    lines.map(({ minute, ...o }) => claudeLine({ sessionId, cwd: '/work/forge', ts: at(minute), ...o })),
  );
}

function writeForge(root: string): void {
  conversation(root, BUILD, [
    { minute: 0, text: 'the build fails again, please fix it' },
    { minute: 1, type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_forge1', name: 'Bash', input: { command: 'npm run build', description: 'Build it' } }] },
    { minute: 2, content: [{ type: 'tool_result', tool_use_id: 'toolu_forge1', content: 'error TS2345: anvilWidget mismatch' }] },
    { minute: 3, type: 'assistant', text: 'We port the C++ engine next; anvilWidget is fixed.' },
    { minute: 4, text: 'src/c.ts holds the engine shim' },
  ]);
  // Fifteen steps of one conversation, newer than everything else the project holds: a crowded page.
  conversation(root, STEPS, Array.from({ length: 15 }, (_, i) => ({ minute: 100 + i, type: i % 2 === 0 ? ('user' as const) : ('assistant' as const), text: `forge step ${i}` })));
  conversation(root, NOTES, [10, 20, 30].map((minute) => ({ minute, text: `forge note ${minute}` })));
}

const textOf = (result: ToolResult) => result.content[0]?.text ?? '';

describe('search_transcripts, as an agent-QA session found it', () => {
  const { call, client } = claudeHistoryWithMcp('steward-mcp-search-qa-', writeForge);
  const search = (args: Record<string, unknown>) => call('search_transcripts', args);
  const projectKey = async () => ((await call('list_projects', {})).structuredContent!.projects as Array<{ projectKey: string }>)[0]!.projectKey;

  it('names the exact call that lists what a crowded newest-first page counted instead of listing', async () => {
    const args = { project_key: await projectKey(), sort: 'newest', limit: 10 };
    const seen = new Set<string>();
    const calls: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    do {
      const page = await search({ ...args, ...(cursor ? { cursor } : {}) });
      expect(page.isError, textOf(page)).toBeFalsy();
      for (const h of page.structuredContent!.hits as Array<{ snippet: string }>) seen.add(h.snippet);
      for (const m of textOf(page).matchAll(/not listed here: call search_transcripts with (\{.*?\}) to list/g)) calls.push(JSON.parse(m[1]!) as Record<string, unknown>);
      cursor = page.structuredContent!.cursor as string | undefined;
    } while (cursor);
    expect(calls.length).toBeGreaterThan(0);
    for (const named of calls) {
      expect(named).not.toHaveProperty('cursor');
      let next: string | undefined;
      do {
        const page = await search({ ...named, ...(next ? { cursor: next } : {}) });
        for (const h of page.structuredContent!.hits as Array<{ snippet: string }>) seen.add(h.snippet);
        next = page.structuredContent!.cursor as string | undefined;
      } while (next);
    }
    for (let i = 0; i < 15; i += 1) expect([...seen].some((s) => s.includes(`forge step ${i}`)), `forge step ${i}`).toBe(true);
  });

  it('says in its description that a page lists a few of one conversation and names the call for the rest', async () => {
    const { tools } = await client().listTools();
    const description = tools.find((t) => t.name === 'search_transcripts')!.description!;
    expect(description).toMatch(/at most 3 hits of a conversation/);
    expect(description).toMatch(/naming the call for the rest/);
  });

  it('gives a tool output hit the tool and the command of the call it answers', async () => {
    const result = await search({ query: 'TS2345', kind: 'tool_result' });
    const hit = (result.structuredContent!.hits as Array<{ toolName: string | null; summary?: string | null }>)[0]!;
    expect(hit.toolName).toBe('Bash');
    expect(hit.summary).toBe('Bash: npm run build');
    expect(textOf(result)).toContain('npm run build');
  });

  it('says who a hit is from and what it is once', async () => {
    const text = textOf(await search({ query: 'anvilWidget' }));
    expect(text).not.toMatch(/Tool output · tool tool_result/);
    expect(text).not.toMatch(/Assistant · assistant text/);
    expect(text).toMatch(/ Tool output Bash: npm run build \(part_id /);
    expect(text).toMatch(/ Assistant \(part_id /);
  });

  it('says what a word with symbols the index does not hold was searched as', async () => {
    const cpp = await search({ query: 'C++' });
    expect(cpp.structuredContent!.note).toMatch(/“C\+\+” was searched as “c”/);
    const power = await search({ query: 'build^2' });
    expect(textOf(power)).toMatch(/“build\^2” was searched as “build 2”/);
  });

  it('refuses a span back from now of more than 100 years, as it refuses a date that does not exist', async () => {
    const result = await search({ query: 'forge', from: '99999d' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/from: "99999d" reaches back more than 100 years/);
    expect((await search({ query: 'forge', from: '5000w' })).isError).toBeFalsy();
  });

  it('says nothing of importing while a Steward answers', async () => {
    expect(textOf(await search({ query: 'forge' }))).not.toMatch(/No Steward is running/);
    expect(textOf(await call('list_projects', {}))).not.toMatch(/No Steward is running/);
  });
});

describe('search_transcripts with no Steward running', () => {
  let home: TempHome;
  let client: Client;
  let checkedFrom = 0;
  let checkedTo = 0;
  beforeAll(async () => {
    home = tempHome('steward-mcp-stale-');
    const root = join(home.dir, 'roots', 'claude');
    writeForge(root);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    checkedFrom = Date.now();
    await core.call('Backfill.Run', {});
    checkedTo = Date.now();
    await core.shutdown();
    // Written after the last import, with nothing running to bring it in.
    writeJsonl(join(root, 'projects', '-work-forge', `${LATE}.jsonl`), [claudeLine({ sessionId: LATE, cwd: '/work/forge', text: 'quartzlamp arrived late' })]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // What `steward mcp` reaches the stores with (core/cli/commands/mcp.ts).
    await createMcpServer((use) => withClient({ env: home.env }, use), { home: home.env.HOME!, stewardHome: home.dir }).connect(serverSide);
    client = new Client({ name: 'stale-test', version: '0.0.0' });
    await client.connect(clientSide);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    home?.cleanup();
  });

  const stale = (text: string) => {
    const m = /No Steward is running to import new transcripts.*?(\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(text);
    expect(m, text).not.toBeNull();
    const when = Date.parse(m![1]!);
    expect(when).toBeGreaterThanOrEqual(checkedFrom - 1_000);
    expect(when).toBeLessThanOrEqual(checkedTo + 1_000);
  };

  it('says that nothing imports new transcripts, and since when, beside an empty answer and beside hits', async () => {
    const missed = (await client.callTool({ name: 'search_transcripts', arguments: { query: 'quartzlamp' } })) as ToolResult;
    expect(missed.isError, textOf(missed)).toBeFalsy();
    stale(textOf(missed));
    stale(missed.structuredContent!.note as string);
    stale(textOf((await client.callTool({ name: 'search_transcripts', arguments: { query: 'anvilWidget' } })) as ToolResult));
  });

  it('says it in list_projects too', async () => {
    stale(textOf((await client.callTool({ name: 'list_projects', arguments: {} })) as ToolResult));
  });
});
