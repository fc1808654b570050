import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core, Params } from '../../../core/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { KEY_SHIFT, registerSearchFunctions } from '../../../core/gateway/search-index.js';
import { openDatabase } from '../../../core/store/index.js';
import { coreHome } from '../../support/core.js';
import { expectIndexExact, retagWalk } from '../../support/search-index.js';
import { runIn } from '../../support/cli.js';
import { SearchReader } from '../../../core/gateway/search-read.js';
import { claudeLine, desktopSession, writeJsonl, type ClaudeLineOptions } from '../../support/transcripts.js';

/**
 * A tool call is found by its tool's name (`apply_patch`, `Bash`, `TodoWrite`), which the panel shows
 * on every call but capture keeps beside the call's input, not in it. And a Codex shell result's
 * snippet reads as its output, as the viewer shows it, not as the JSON wrapper it is stored in.
 */

const CLAUDE = 'c1a0de00-0000-4000-8000-00000000b701';
const CODEX = '019f0000-0000-7000-8000-00000000b702';
const base = Date.UTC(2026, 2, 2, 9);
const at = (i: number) => new Date(base + i * 60_000);
const WRAPPED = JSON.stringify({
  output: 'src/harvest/scheduler.ts:14:export function harvestScheduler(clock) {\ntest/scheduler.test.ts:3:import { harvestScheduler }',
  metadata: { exit_code: 0, duration_seconds: 0.2 },
});

function writeConversations(root: string): { claudeRoot: string; codexRoot: string } {
  const claudeRoot = join(root, 'claude');
  const line = (i: number, o: Partial<ClaudeLineOptions>) => claudeLine({ sessionId: CLAUDE, cwd: '/work/tools', ts: at(i), ...o });
  const call = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
  writeJsonl(join(claudeRoot, 'projects', '-work-tools', `${CLAUDE}.jsonl`), [
    line(0, { text: 'Please read the notes in docs/notes.md about the release checklist first, then run the build so we see what breaks' }),
    line(1, { type: 'assistant', content: [call('toolu_01Read', 'Read', { file_path: '/work/tools/notes.md' })] }),
    line(2, { type: 'assistant', content: [call('toolu_02Bash', 'Bash', { command: 'npm run build', description: 'Build it' })] }),
    line(3, { type: 'assistant', content: [call('toolu_03Todo', 'TodoWrite', { todos: [{ content: 'ship', status: 'pending' }] })] }),
    // More calls named by a common word than messages that say it.
    ...[1, 2, 3, 4, 5].map((i) => line(3 + i, { type: 'assistant', content: [call(`toolu_0${i}More`, 'Read', { file_path: `/work/tools/src/m${i}.ts` })] })),
  ]);
  const codexRoot = join(root, 'codex');
  const item = (i: number, payload: unknown) => ({ timestamp: at(10 + i).toISOString(), type: 'response_item', payload });
  writeJsonl(join(codexRoot, 'sessions', '2026', '03', '02', `rollout-2026-03-02T09-10-00-${CODEX}.jsonl`), [
    { timestamp: at(10).toISOString(), type: 'session_meta', payload: { id: CODEX, timestamp: at(10).toISOString(), cwd: '/work/tools', originator: 'codex_cli_rs', cli_version: '0.160.0', source: 'cli' } },
    item(0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Why does the scheduler test flake?' }] }),
    item(1, { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'rg -n harvestScheduler src test'] }), call_id: 'call_1' }),
    item(2, { type: 'function_call_output', call_id: 'call_1', output: WRAPPED }),
    item(3, { type: 'custom_tool_call', status: 'completed', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: test/scheduler.test.ts\n*** End Patch' }),
  ]);
  return { claudeRoot, codexRoot };
}

describe('a tool call found by its tool’s name', () => {
  const temp = coreHome('steward-search-tools-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const roots = writeConversations(join(temp.home.dir, 'roots'));
    temp.home.env.STEWARD_CLAUDE_ROOTS = roots.claudeRoot;
    temp.home.env.STEWARD_CODEX_ROOTS = roots.codexRoot;
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);
  const tools = async (params: Params<'Search.Query'>) => (await search(params)).hits.map((h) => [h.kind, h.toolName]);

  it.each([
    ['apply_patch', ['apply_patch']],
    // Codex's shell call runs `bash -lc`: found too, as before.
    ['Bash', ['Bash', 'shell']],
    ['TodoWrite', ['TodoWrite']],
    ['read_file', []],
  ])('%s, among tool calls', async (query, names) => {
    const hits = await tools({ query, kind: 'tool_use' });
    expect(hits.map(([, name]) => name).sort()).toEqual(names);
  });

  it('a snake_case name by a piece, a camelCase name by its piece', async () => {
    expect(await tools({ query: 'patch', kind: 'tool_use' })).toEqual([['tool_use', 'apply_patch']]);
    expect(await tools({ query: 'Todo', kind: 'tool_use' })).toEqual([['tool_use', 'TodoWrite']]);
  });

  it('a plain word search finds a call named by it as one hit among the others, ranked after what holds the word, not every call', async () => {
    // The Read calls are newer and shorter; the message says `read` in its own words.
    expect(await tools({ query: 'read' })).toEqual([['text', null], ...Array.from({ length: 6 }, () => ['tool_use', 'Read'])]);
    expect(await tools({ query: 'build', kind: 'tool_use' })).toEqual([['tool_use', 'Bash']]);
    // A name's piece is no word of every call: `shell` finds Codex's one shell call, not its apply_patch.
    expect(await tools({ query: 'shell', kind: 'tool_use' })).toEqual([['tool_use', 'shell']]);
  });

  it('a Codex shell result’s snippet is its output, as the viewer shows it, marked on the word', async () => {
    for (const redact of [false, true]) {
      const { hits } = await search({ query: 'harvestScheduler', kind: 'tool_result', redact });
      expect(hits).toHaveLength(1);
      const hit = hits[0]!;
      expect(hit.snippet).not.toContain('"output"');
      expect(hit.snippet).not.toContain('\\n');
      expect(hit.snippet).toMatch(/^src\/harvest\/scheduler\.ts:14:export function harvestScheduler\(clock\) \{ test\/scheduler/);
      expect(hit.highlights.map(([a, b]) => hit.snippet.slice(a, b))).toEqual(['harvest', 'scheduler', 'harvestScheduler', 'harvestScheduler']);
    }
  });
});

describe('a store indexed before tool names were', () => {
  const temp = coreHome('steward-search-tools-migrate-');
  const count = (sql: string, db = core.gateway) => db.prepare(sql).pluck().get() as number;
  let core: Core;

  /** A gateway.db as the schema before this step left it: each part indexed with text_version 3. */
  function oldStore(dir: string, steps: number): void {
    const db = openDatabase(join(dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, steps) });
    registerSearchFunctions(db);
    db.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES ('old', 'codex', 'cli', NULL, '/work/old', ?, ?, ?)").run(base, base, base);
    const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, 'old', 'codex', ?, ?, ?, ?, ?)");
    const rows: Array<[string, string, string, string | null]> = [
      ['user', 'text', 'apply the patch to the scheduler', null],
      ['assistant', 'tool_use', '*** Begin Patch\n*** Update File: a.ts\n*** End Patch', JSON.stringify({ name: 'apply_patch', toolUseId: 'c1' })],
      ['tool', 'tool_result', 'Success.', JSON.stringify({ toolUseId: 'c1' })],
    ];
    db.transaction(() => {
      rows.forEach(([role, kind, text, meta], i) => part.run(`cx:old:${i}:0`, role, kind, base + i * 1000, text, meta));
      db.exec(`
        INSERT INTO search_map (fts_rowid, part_rowid, scope, text_version)
          SELECT (p.ts / 1000) * ${KEY_SHIFT} + (p.rowid & ${KEY_SHIFT - 1}), p.rowid, steward_search_scope_v1(p.provider, p.role, p.session_id, NULL), 3 FROM parts p;
        INSERT INTO search_fts (rowid, body, thinking, tool_input, tool_output, scope) SELECT fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source;
        INSERT INTO session_stats (session_id, parts, messages, tool_calls) SELECT session_id, COUNT(*), COUNT(*), SUM(kind = 'tool_use') FROM parts GROUP BY session_id;
      `);
    })();
    db.close();
  }

  it('the walk indexes again only the tool calls that name their tool, which are then found by it; the index stays exact', async () => {
    oldStore(temp.home.dir, 17);
    core = temp.open();
    // Until the walk gets to it, the call is found by its input as before.
    expect((await core.call('Search.Query', { query: 'Update', kind: 'tool_use' })).hits).toHaveLength(1);
    await retagWalk(core.gateway);
    const versions = core.gateway.prepare('SELECT p.kind, m.text_version FROM search_map m JOIN parts p ON p.rowid = m.part_rowid ORDER BY p.rowid').raw().all();
    expect(versions).toEqual([
      ['text', 3],
      ['tool_use', 4],
      ['tool_result', 3],
    ]);
    const found = await core.call('Search.Query', { query: 'apply_patch', kind: 'tool_use' });
    expect(found.hits.map((h) => [h.partId, h.toolName])).toEqual([['cx:old:1:0', 'apply_patch']]);
    expect(count("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH 'tool_input : apply'")).toBe(1);
    expectIndexExact(core.gateway);
  });
});

describe('Claude Desktop’s conversations apart from Claude Code’s', () => {
  const temp = coreHome('steward-search-desktop-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const roots = writeConversations(join(temp.home.dir, 'roots'));
    const desktop = join(temp.home.dir, 'roots', 'desktop');
    desktopSession(desktop, 'dk-1', 2, 'Sort my invoices');
    temp.home.env.STEWARD_CLAUDE_ROOTS = roots.claudeRoot;
    temp.home.env.STEWARD_CLAUDE_DESKTOP_ROOTS = desktop;
    temp.home.env.STEWARD_CODEX_ROOTS = roots.codexRoot;
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  const sessions = async (params: Params<'Search.Query'>) => [...new Set((await core.call('Search.Query', params)).hits.map((h) => h.sessionId))].sort();

  it('provider claude-desktop finds only them, with words or without; claude finds both apps', async () => {
    expect(await sessions({ query: '', provider: 'claude-desktop' })).toEqual(['dk-1']);
    expect(await sessions({ query: 'desktop', provider: 'claude-desktop' })).toEqual(['dk-1']);
    expect(await sessions({ query: 'read', provider: 'claude-desktop' })).toEqual([]);
    expect(await sessions({ query: '', provider: 'claude' })).toEqual([CLAUDE, 'dk-1'].sort());
    expect(await sessions({ query: 'desktop OR read', provider: 'claude' })).toEqual([CLAUDE, 'dk-1'].sort());
  });

  it('with more of its sessions than a match names, each match’s session is read instead', async () => {
    const reader = new SearchReader(core.gateway, { subagentTokenCap: 0 });
    const found = await reader.newest({ expression: 'desktop OR read', provider: 'claude', source: 'desktop' }, null, 10);
    expect([...new Set(found.matches.map((m) => m.sessionId))]).toEqual(['dk-1']);
    const listed = await reader.latest({ provider: 'claude', source: 'desktop' }, null, 10);
    expect([...new Set(listed.matches.map((m) => m.sessionId))]).toEqual(['dk-1']);
    await reader.close();
  });

  it('steward search --provider claude-desktop', async () => {
    await temp.close();
    const { code, out } = await runIn(temp.home.env, 'search', 'desktop', '--provider', 'claude-desktop', '--json');
    expect(code).toBe(0);
    expect((JSON.parse(out) as { hits: Array<{ sessionId: string }> }).hits.map((h) => h.sessionId)).toEqual(['dk-1', 'dk-1']);
  });
});
