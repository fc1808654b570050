import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core, Params } from '../../core/index.js';
import { GATEWAY_MIGRATIONS } from '../../core/gateway/migrations.js';
import { KEY_SHIFT, registerSearchFunctions } from '../../core/gateway/search-index.js';
import { openDatabase, type Db } from '../../core/store/index.js';
import { sessionsOf } from '../support/history.js';
import { coreHome } from '../support/core.js';
import { expectIndexExact, retagWalk } from '../support/search-index.js';
import { claudeLine, writeJsonl, type ClaudeLineOptions } from '../support/transcripts.js';

/**
 * Tool inputs are stored as their JSON, and Codex's shell output as its JSON wrapper: a line break in
 * them is a backslash and an `n`. The index reads such a text's escapes as the breaks they stand for
 * (searchTextV3), so a word that starts a line is found, and marked, by itself (`export`, not
 * `nexport`); a person's `C:\new folder` keeps its `new`.
 */

const CLAUDE = 'c1a0de00-0000-4000-8000-00000000a501';
const CODEX = '019f0000-0000-7000-8000-00000000c0de';
const base = Date.UTC(2026, 2, 1, 9);
const at = (i: number) => new Date(base + i * 60_000);

/** A Write whose file's second line starts with `export`, its third with `new`, and a word deep inside a long file. */
const WRITE_INPUT = {
  file_path: '/work/json/src/frob.ts',
  content: 'import { x } from "./x";\nexport function frobnicate() {}\nnew Worker("./w.js");\n',
};
const LONG_INPUT = { file_path: '/work/json/src/long.ts', content: `${'// filler line\n'.repeat(200)}reticulate(splines);\n` };
/** `type C:\notes\`, a line break, `install`: stored as `type C:\\notes\\\ninstall` (two escaped backslashes, then a break). */
const PARITY_INPUT = { command: 'type C:\\notes\\\ninstall', description: 'List the folder' };
const BASH_INPUT = { command: 'cd /work/json\nmake test', description: 'Run the tests' };
const CODEX_OUTPUT = JSON.stringify({ output: 'cc -o app main.c\nsegfault at 0x0 in main\nwarning: unused variable\n', metadata: { exit_code: 139, duration_seconds: 0.4 } });

function writeConversations(root: string): { claudeRoot: string; codexRoot: string } {
  const claudeRoot = join(root, 'claude');
  const line = (i: number, o: Partial<ClaudeLineOptions>) => claudeLine({ sessionId: CLAUDE, cwd: '/work/json', ts: at(i), ...o });
  const call = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
  writeJsonl(join(claudeRoot, 'projects', '-work-json', `${CLAUDE}.jsonl`), [
    line(0, { text: 'Save the notes under C:\\new folder and write frob.ts' }),
    line(1, { type: 'assistant', content: [call('toolu_01Write', 'Write', WRITE_INPUT)] }),
    line(2, { type: 'assistant', content: [call('toolu_02Bash', 'Bash', BASH_INPUT)] }),
    line(3, { type: 'assistant', content: [call('toolu_03Bash', 'Bash', PARITY_INPUT)] }),
    line(4, { type: 'assistant', content: [call('toolu_04Write', 'Write', LONG_INPUT)] }),
  ]);
  const codexRoot = join(root, 'codex');
  const item = (i: number, payload: unknown) => ({ timestamp: at(10 + i).toISOString(), type: 'response_item', payload });
  writeJsonl(join(codexRoot, 'sessions', '2026', '03', '01', `rollout-2026-03-01T09-10-00-${CODEX}.jsonl`), [
    { timestamp: at(10).toISOString(), type: 'session_meta', payload: { id: CODEX, timestamp: at(10).toISOString(), cwd: '/work/json', originator: 'codex_cli_rs', cli_version: '0.144.3', source: 'cli' } },
    item(0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'build the app' }] }),
    item(1, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'cc -o app main.c' }), call_id: 'call_1' }),
    item(2, { type: 'function_call_output', call_id: 'call_1', output: CODEX_OUTPUT }),
  ]);
  return { claudeRoot, codexRoot };
}

describe('searching tool inputs and shell output stored as JSON', () => {
  const temp = coreHome('steward-search-json-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const { home } = temp;
    const roots = writeConversations(join(home.dir, 'roots'));
    home.env.STEWARD_CLAUDE_ROOTS = roots.claudeRoot;
    home.env.STEWARD_CODEX_ROOTS = roots.codexRoot;
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);
  /** Each hit's tool (a tool call's), and what its highlights cover in its snippet. */
  /** A tool call found, and whether its one line shows the word asked for. */
  const shownInLine = async (params: Params<'Search.Query'>) => (await search(params)).hits.map((h) => [h.toolName, h.summary?.includes(params.query ?? '') === true]);
  const marked = async (params: Params<'Search.Query'>) =>
    (await search(params)).hits.map((h) => [h.kind === 'tool_use' ? h.toolName : h.kind, h.highlights.map(([a, b]) => h.snippet.slice(a, b))]);

  it('a Write found by the word that starts a line of its file, with --kind tool_use, and marked on it', async () => {
    expect(await marked({ query: 'export', kind: 'tool_use' })).toEqual([['Write', ['export']]]);
    expect(await marked({ query: 'frobnicate', kind: 'tool_use' })).toEqual([['Write', ['frobnicate']]]);
    expect((await search({ query: 'nexport' })).hits).toEqual([]);
  });

  it('a Bash command found by the command on its second line', async () => {
    // The call's line shows its command whole, so the snippet beside it holds its other words (search-call-once).
    expect(await shownInLine({ query: 'make', kind: 'tool_use' })).toEqual([['Bash', true]]);
    expect((await search({ query: 'nmake' })).hits).toEqual([]);
  });

  it('Codex shell output in its JSON wrapper found by the words that start its lines, and marked on them', async () => {
    expect(sessionsOf(await search({ query: 'segfault' }))).toEqual([CODEX]);
    expect(await marked({ query: 'segfault', kind: 'tool_result' })).toEqual([['tool_result', ['segfault']]]);
    expect(await marked({ query: '"warning: unused"', kind: 'tool_result' })).toEqual([['tool_result', ['warning', 'unused']]]);
    expect((await search({ query: 'nsegfault' })).hits).toEqual([]);
  });

  it('a backslash-n is a line break only in JSON: `C:\\new folder` in a message keeps its `new`, a line of a file that starts with it is found too', async () => {
    const found = await search({ query: 'new' });
    expect(found.hits.map((h) => [h.kind, h.toolName]).sort()).toEqual([
      ['text', null],
      ['tool_use', 'Write'],
    ]);
    expect(await marked({ query: 'new', kind: 'text' })).toEqual([['text', ['new']]]);
    expect((await search({ query: 'ew' })).hits).toEqual([]);
  });

  it('escapes are read in pairs: `\\\\n` is a backslash and a word, `\\\\\\n` a backslash and a line break', async () => {
    // Stored as `type C:\\notes\\\ninstall`.
    expect(await shownInLine({ query: 'notes', kind: 'tool_use' })).toEqual([['Bash', true]]);
    expect((await search({ query: 'otes' })).hits).toEqual([]);
    expect(await shownInLine({ query: 'install', kind: 'tool_use' })).toEqual([['Bash', true]]);
    expect((await search({ query: 'ninstall' })).hits).toEqual([]);
  });

  it('a snippet cut from deep inside a long input, redacted before it is cut (as MCP asks), marks the word', async () => {
    expect(await marked({ query: 'reticulate', kind: 'tool_use', redact: true })).toEqual([['Write', ['reticulate']]]);
    expect(await marked({ query: 'reticulate', kind: 'tool_use' })).toEqual([['Write', ['reticulate']]]);
  });
});

const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;
const matches = (db: Db, expression: string) => count(db, `SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH '${expression}'`);

describe('a store indexed before JSON escapes were read as line breaks', () => {
  const temp = coreHome('steward-search-json-migrate-');

  const write = JSON.stringify(WRITE_INPUT);
  const bash = JSON.stringify(BASH_INPUT);
  /** Each part: session, role, kind, text, the text_version it was indexed with. */
  const parts: ReadonlyArray<[string, string, string, string, number]> = [
    ['old-a', 'user', 'text', 'Save the notes under C:\\new folder and write frob.ts', 2],
    ['old-a', 'assistant', 'tool_use', write, 2],
    ['old-a', 'assistant', 'tool_use', bash, 1],
    ['old-b', 'tool', 'tool_result', CODEX_OUTPUT, 2],
    ['old-b', 'assistant', 'text', 'The build segfaults in main; export the core first.', 2],
    ['old-b', 'assistant', 'tool_use', JSON.stringify({ file_path: '/work/json/README.md' }), 2],
  ];

  /** A gateway.db as schema 13 left it, its walk done: each part indexed with the text_version it names, counted. */
  function oldStore(dir: string): void {
    const db = openDatabase(join(dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 13) });
    registerSearchFunctions(db);
    const session = db.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', NULL, '/work/old', ?, ?, ?)");
    const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, ?, 'claude', ?, ?, ?, ?, NULL)");
    const map = db.prepare(
      `INSERT INTO search_map (fts_rowid, part_rowid, scope, text_version)
       SELECT (p.ts / 1000) * ${KEY_SHIFT} + (p.rowid & ${KEY_SHIFT - 1}), p.rowid, steward_search_scope_v1(p.provider, p.role, p.session_id, NULL), ? FROM parts p WHERE p.rowid = ?`,
    );
    db.transaction(() => {
      for (const id of ['old-a', 'old-b']) session.run(id, base, base + parts.length * 1000, base);
      parts.forEach(([sessionId, role, kind, text, version], i) => {
        const rowid = part.run(`cc:old-${i}:0`, sessionId, role, kind, base + i * 1000, text).lastInsertRowid;
        map.run(version, rowid);
      });
      db.exec(`
        INSERT INTO search_fts (rowid, body, thinking, tool_input, tool_output, scope) SELECT fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source;
        INSERT INTO session_stats (session_id, parts, messages, tool_calls) SELECT session_id, COUNT(*), COUNT(*), SUM(kind = 'tool_use') FROM parts GROUP BY session_id;
      `);
    })();
    // The index as it was: the escapes' letters glued to the next word.
    expect([matches(db, 'nexport'), matches(db, 'export'), matches(db, 'nmake'), matches(db, 'nsegfault'), matches(db, 'segfault')]).toEqual([1, 1, 1, 1, 0]);
    db.close();
  }

  it('the walk indexes again only the JSON texts with escapes, which are then found by their words; the index stays exact', async () => {
    oldStore(temp.home.dir);
    const core = temp.open();
    const stats = core.gateway.prepare('SELECT session_id, parts, messages, tool_calls FROM session_stats ORDER BY session_id').all();
    await retagWalk(core.gateway);
    // The Write, the Bash call (indexed at v1) and the wrapper are indexed again; the message, the text and the one-line input keep their version.
    const versions = core.gateway.prepare('SELECT p.part_id, m.text_version FROM search_map m JOIN parts p ON p.rowid = m.part_rowid ORDER BY p.rowid').raw().all();
    expect(versions).toEqual([
      ['cc:old-0:0', 2],
      ['cc:old-1:0', 4],
      ['cc:old-2:0', 4],
      ['cc:old-3:0', 4],
      ['cc:old-4:0', 2],
      ['cc:old-5:0', 2],
    ]);
    expect([matches(core.gateway, 'nexport'), matches(core.gateway, 'nmake'), matches(core.gateway, 'nsegfault')]).toEqual([0, 0, 0]);
    expect((await core.call('Search.Query', { query: 'export', kind: 'tool_use' })).hits.map((h) => h.partId)).toEqual(['cc:old-1:0']);
    expect((await core.call('Search.Query', { query: 'make', kind: 'tool_use' })).hits.map((h) => h.partId)).toEqual(['cc:old-2:0']);
    expect((await core.call('Search.Query', { query: 'segfault' })).hits.map((h) => h.partId)).toEqual(['cc:old-3:0']);
    expect((await core.call('Search.Query', { query: 'new', kind: 'text' })).hits.map((h) => h.partId)).toEqual(['cc:old-0:0']);
    expectIndexExact(core.gateway);
    // The counts stay, but for migration 22's recount, which rides on the walk: old-b's tool result is not a message.
    const recounted = (stats as Array<{ session_id: string; messages: number }>).map((s) => (s.session_id === 'old-b' ? { ...s, messages: 2 } : s));
    expect(core.gateway.prepare('SELECT session_id, parts, messages, tool_calls FROM session_stats ORDER BY session_id').all()).toEqual(recounted);
  });
});
