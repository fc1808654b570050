import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params, type Result } from '../../core/index.js';
import { historyHome, IDS, KITCHEN, OPENCLAW_SESSION, ORCHARD, SECRET, SUBAGENT_SESSION, sessionsOf, type HistoryFixture } from '../support/history.js';
import type { TempHome } from '../support/home.js';
import { connectInProcess, type ToolResult } from '../support/mcp.js';
import { appendJsonl, claudeLine } from '../support/transcripts.js';

/**
 * A search with filters and no words lists the parts the filters select, newest first, paged like a
 * newest search; with neither words nor a filter it is a plain invalid_params error.
 */

let home: TempHome;
let core: Core;
let fixture: HistoryFixture;
let projectOf: (cwd: string) => string;

beforeAll(async () => {
  ({ home, fixture } = historyHome('steward-search-filters-'));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
  const { projects } = await core.call('Projects.List', {});
  projectOf = (cwd) => projects.find((p) => p.cwd === cwd)!.projectKey;
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

type Query = Params<'Search.Query'>;
type Hits = Result<'Search.Query'>['hits'];
const search = (params: Query) => core.call('Search.Query', params);

const MINUTE = 60_000;
const NO_WORDS = { mode: 'newest', message: 'There are no words to rank by, so the matching messages are shown newest first.' };

function expectNewestFirst(hits: Hits): void {
  const times = hits.map((h) => h.ts ?? 0);
  expect(times).toEqual([...times].sort((a, b) => b - a));
}

async function allPages(query: Query, between?: () => Promise<void>): Promise<Hits> {
  const hits: Hits = [];
  let cursor: string | undefined;
  do {
    const page = await search({ ...query, ...(cursor ? { cursor } : {}) });
    hits.push(...page.hits);
    cursor = page.cursor;
    await between?.();
  } while (cursor);
  return hits;
}

describe('Search.Query with filters and no words', () => {
  it('lists a project’s messages newest first, each snippet the start of its message with nothing highlighted', async () => {
    const result = await search({ query: '', projectKey: projectOf(ORCHARD), limit: 100 });
    expect(sessionsOf(result)).toEqual([IDS.config, IDS.pruning, SUBAGENT_SESSION].sort());
    expectNewestFirst(result.hits);
    expect(result.hits[0]).toMatchObject({ sessionId: IDS.config, role: 'assistant', kind: 'text', ts: fixture.times.config + 3 * MINUTE, snippet: 'Add the .js extension to the import of loadSettings.', highlights: [] });
    expect(result.hits.at(-1)).toMatchObject({ sessionId: IDS.pruning, snippet: 'How should I prune the apple trees before the frost arrives?' });
    // A tool call whose line says all of it (a Read of one file) has nothing more to show beside it.
    expect(result.hits.every((h) => h.highlights.length === 0 && (h.snippet !== '' || h.kind === 'tool_use'))).toBe(true);
    // Relevance has nothing to rank by: the result says the order it used instead.
    expect(result.fallback).toEqual(NO_WORDS);
    expect(result.cursor).toBeUndefined();
    expect(result.sessions.map((s) => s.sessionId).sort()).toEqual([IDS.config, IDS.pruning, SUBAGENT_SESSION].sort());
  });

  it('takes a blank query as no words, and says nothing about the order when newest was asked for', async () => {
    const result = await search({ query: '   ', provider: 'openclaw', sort: 'newest' });
    expect(result.hits.map((h) => [h.sessionId, h.role, h.snippet])).toEqual([
      [OPENCLAW_SESSION, 'assistant', 'Noted: order saplings from the nursery on Friday.'],
      [OPENCLAW_SESSION, 'user', 'Remind me to order apple saplings'],
    ]);
    expect(result.fallback).toBeUndefined();
  });

  it('“only what I said”: the person’s own words, never a command’s echo or a subagent’s prompt', async () => {
    const mine = await search({ query: '', role: 'user', kind: 'text', genuineUserTurn: true });
    expect(mine.hits.map((h) => h.snippet)).toEqual([
      'Write a recipe for apple crumble with winter spices.',
      'Remind me to order apple saplings',
      'Why does parseConfig throw ERR_MODULE_NOT_FOUND when loading src/config/load_settings.ts?',
      'Here is a photo of the bark damage.',
      'How should I prune the apple trees before the frost arrives?',
    ]);
    expect(mine.hits.every((h) => h.genuineUserTurn)).toBe(true);
    // The flag alone narrows the same way (it implies user text).
    expect((await search({ query: '', genuineUserTurn: true })).hits.map((h) => h.partId)).toEqual(mine.hits.map((h) => h.partId));
    // User text includes what the app wrote in the person's name.
    const userText = await search({ query: '', role: 'user', kind: 'text', projectKey: projectOf(KITCHEN) });
    expect(userText.hits.map((h) => h.snippet)).toEqual(['Write a recipe for apple crumble with winter spices.', '<command-name>/clear</command-name>']);
    expect((await search({ query: '', role: 'assistant', genuineUserTurn: true })).hits).toEqual([]);
  });

  it('“only commands”: tool calls newest first, each with its one line', async () => {
    const commands = await search({ query: '', kind: 'tool_use' });
    expect(commands.hits.map((h) => h.summary)).toEqual(['Read: /work/orchard/src/config/load_settings.ts', 'Task: Survey frost dates', 'Bash: npm run build:calendar']);
    const outputs = await search({ query: '', kind: 'tool_result', provider: 'claude' });
    expect(outputs.hits.map((h) => h.sessionId)).toEqual([IDS.config, IDS.pruning]);
    const thinking = await search({ query: '', kind: 'thinking' });
    expect(thinking.hits.map((h) => h.snippet)).toEqual(['The person wants a pruning schedule; dormant season is best.']);
  });

  it('a date range alone, a session with its subagents, a repository with no project', async () => {
    const recent = await search({ query: '', from: fixture.times.kitchen - 86_400_000 });
    expect(sessionsOf(recent)).toEqual([IDS.kitchen]);
    expect(recent.hits).toHaveLength(3);
    // A bound inside a second keeps that second's lines by their own time.
    const cut = await search({ query: '', from: fixture.times.kitchen + MINUTE + 1, to: fixture.times.kitchen + 2 * MINUTE + 1 });
    expect(cut.hits.map((h) => h.ts)).toEqual([fixture.times.kitchen + 2 * MINUTE]);
    const older = await search({ query: '', to: fixture.times.pruning + 3 * MINUTE, provider: 'claude' });
    expect(older.hits.every((h) => h.ts !== null && h.ts <= fixture.times.pruning + 3 * MINUTE)).toBe(true);
    expect(older.hits.length).toBeGreaterThan(0);
    expect(sessionsOf(await search({ query: '', sessionId: IDS.pruning }))).toEqual([IDS.pruning, SUBAGENT_SESSION].sort());
    expect((await search({ query: '', sessionId: SUBAGENT_SESSION })).hits.map((h) => h.role)).toEqual(['assistant', 'user']);
    expect(await search({ query: '', repo: 'nobody/nothing' })).toMatchObject({ hits: [], sessions: [] });
  });

  it('redacts snippets when asked, as a search with words does', async () => {
    const raw = await search({ query: '', kind: 'tool_result', projectKey: projectOf(ORCHARD) });
    expect(raw.hits.some((h) => h.snippet.includes(SECRET))).toBe(true);
    const redacted = await search({ query: '', kind: 'tool_result', projectKey: projectOf(ORCHARD), redact: true });
    expect(redacted.hits).toHaveLength(raw.hits.length);
    expect(redacted.hits.some((h) => h.snippet.includes(SECRET))).toBe(false);
  });

  it('with neither words nor a filter, refuses with a plain error; a sort or a false flag is not a filter', async () => {
    for (const params of [{ query: '' }, { query: '  \n' }, { query: '', sort: 'newest' as const }, { query: '', genuineUserTurn: false }, { query: '', limit: 5 }]) {
      await expect(search(params)).rejects.toMatchObject({ code: 'invalid_params', message: expect.stringContaining('the query is empty: give words to search for, or at least one filter') });
    }
  });
});

describe('paging a search with no words', () => {
  it('pages newest first with a cursor: every part once, and a cursor of another search is refused', async () => {
    const query = { query: '', provider: 'claude' as const };
    const whole = await search({ ...query, limit: 100 });
    const paged = await allPages({ ...query, limit: 2 });
    expect(paged.map((h) => h.partId)).toEqual(whole.hits.map((h) => h.partId));
    expect(new Set(paged.map((h) => h.partId)).size).toBe(paged.length);
    const first = await search({ ...query, limit: 2 });
    expect(first.cursor).toBeDefined();
    await expect(search({ query: '', provider: 'openclaw', limit: 2, cursor: first.cursor! })).rejects.toMatchObject({ code: 'invalid_params' });
    // A relevance cursor is not one of these, whatever sort the request names.
    const ranked = await search({ query: 'apple OR frost', limit: 1 });
    await expect(search({ ...query, limit: 2, cursor: ranked.cursor! })).rejects.toMatchObject({ code: 'invalid_params' });
  });

  it('a part captured between pages is not shown by the pages that follow, and leads a new search', async () => {
    const query = { query: '', projectKey: projectOf(KITCHEN), limit: 1 };
    const file = join(fixture.claudeRoot, 'projects', '-work-kitchen', `${IDS.kitchen}.jsonl`);
    let added = false;
    const hits = await allPages(query, async () => {
      if (added) return;
      added = true;
      appendJsonl(file, [claudeLine({ sessionId: IDS.kitchen, cwd: KITCHEN, ts: new Date(), text: 'A late note about the quince jelly.' })]);
      await core.call('Sweep.Tick', {});
    });
    expect(hits.map((h) => h.snippet)).not.toContain('A late note about the quince jelly.');
    expect(hits).toHaveLength(3);
    expect((await search(query)).hits[0]?.snippet).toBe('A late note about the quince jelly.');
  });
});

describe('what a search with no words leaves out', () => {
  it('a forgotten conversation and an excluded folder are not listed', async () => {
    const { home: other } = historyHome('steward-search-filters-excluded-');
    writeFileSync(join(other.dir, 'config.json'), JSON.stringify({ capture: { exclude: [KITCHEN] } }));
    const c = Core.open({ home: { dir: other.dir, kind: 'env' }, env: other.env });
    try {
      await c.call('Backfill.Run', { all: true });
      const listed = async () => sessionsOf(await c.call('Search.Query', { query: '', provider: 'claude', limit: 100 }));
      expect(await listed()).toEqual([IDS.config, IDS.pruning, SUBAGENT_SESSION].sort());
      await c.call('Forget.Session', { sessionId: IDS.config });
      expect(await listed()).toEqual([IDS.pruning, SUBAGENT_SESSION].sort());
      expect((await c.call('Search.Query', { query: '', sessionId: IDS.config })).hits).toEqual([]);
    } finally {
      await c.shutdown();
      other.cleanup();
    }
  });
});

describe('search_transcripts (MCP) with filters and no query', () => {
  it('lists what they select newest first, pages it, and with neither is a plain tool error', async () => {
    const client = await connectInProcess(core);
    try {
      const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'search_transcripts', arguments: args })) as ToolResult;
      const tool = (await client.listTools()).tools.find((t) => t.name === 'search_transcripts');
      expect(tool?.inputSchema.required ?? []).toEqual([]);
      const mine = { genuine_user_turn: true, project_key: projectOf(ORCHARD), limit: 2 };
      const first = await call(mine);
      expect(first.isError).toBeFalsy();
      const out = first.structuredContent as { hits: Array<{ snippet: string }>; cursor?: string; note?: string };
      expect(out.hits.map((h) => h.snippet)).toEqual(['Why does parseConfig throw ERR_MODULE_NOT_FOUND when loading src/config/load_settings.ts?', 'Here is a photo of the bark damage.']);
      expect(out.note).toBe(NO_WORDS.message);
      const next = (await call({ ...mine, cursor: out.cursor })).structuredContent as { hits: Array<{ snippet: string }>; cursor?: string };
      expect(next.hits.map((h) => h.snippet)).toEqual(['How should I prune the apple trees before the frost arrives?']);
      expect(next.cursor).toBeUndefined();
      const commands = (await call({ query: ' ', kind: 'tool_use', sort: 'newest' })).structuredContent as { hits: Array<{ toolName: string }>; note?: string };
      expect(commands.hits.map((h) => h.toolName)).toEqual(['Read', 'Task', 'Bash']);
      expect(commands.note).toBeUndefined();
      for (const args of [{}, { query: '  ' }, { sort: 'newest', limit: 5 }]) {
        const nothing = await call(args);
        expect(nothing.isError).toBe(true);
        expect(nothing.content[0]?.text).toBe('invalid_params: Give a query, or at least one filter (project_key, repo, provider, session_id, role, kind, genuine_user_turn, from, to) to list its messages newest first.');
      }
    } finally {
      await client.close();
    }
  });
});
