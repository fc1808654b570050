import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params } from '../../../core/index.js';
import { IDS, OPENCLAW_SESSION, SUBAGENT_SESSION, historyHome, sessionsOf, type HistoryFixture } from '../../support/history.js';
import { git, TestRepo } from '../../support/git-repo.js';
import type { TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

let home: TempHome;
let core: Core;
let fixture: HistoryFixture;

beforeAll(async () => {
  ({ home, fixture } = historyHome('steward-search-'));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);

describe('Search.Query finds each query’s sessions on a fixture history', () => {
  it.each([
    { name: 'a word', query: 'apple', expected: [IDS.kitchen, IDS.pruning, OPENCLAW_SESSION] },
    // The phrase is in the subagent's conversation and in the Task call that started it.
    { name: 'a phrase', query: '"first frost"', expected: [IDS.pruning, SUBAGENT_SESSION] },
    { name: 'a phrase said only once', query: '"frost usually arrives"', expected: [SUBAGENT_SESSION] },
    { name: 'words with AND (implicit)', query: 'apple crumble', expected: [IDS.kitchen] },
    { name: 'OR', query: 'crumble OR saplings', expected: [IDS.kitchen, OPENCLAW_SESSION] },
    { name: 'NOT', query: 'apple NOT crumble', expected: [IDS.pruning, OPENCLAW_SESSION] },
    { name: 'a prefix', query: 'prun*', expected: [IDS.pruning] },
    { name: 'a camelCase identifier whole', query: 'parseConfig', expected: [IDS.config] },
    { name: 'a camelCase identifier by a piece', query: 'Config', expected: [IDS.config] },
    { name: 'a camelCase name inside a longer identifier', query: 'FileSync', expected: [IDS.config] },
    { name: 'a snake_case identifier whole', query: 'load_settings', expected: [IDS.config] },
    { name: 'a snake_case identifier by a piece', query: 'settings', expected: [IDS.config] },
    { name: 'an error code', query: 'ERR_MODULE_NOT_FOUND', expected: [IDS.config] },
    { name: 'an error code by its pieces', query: 'module not found', expected: [IDS.config] },
    { name: 'a compiler code by its number', query: '2345', expected: [IDS.pruning] },
    { name: 'a path', query: 'src/config/load_settings.ts', expected: [IDS.config] },
    { name: 'a file name', query: 'calendar.ts', expected: [IDS.pruning] },
    { name: 'a command', query: 'npm run build:calendar', expected: [IDS.pruning] },
  ])('$name: $query', async ({ query, expected }) => {
    const result = await search({ query });
    expect(sessionsOf(result)).toEqual([...expected].sort());
    expect(result.fallback).toBeUndefined();
  });

  it('a tool call found by a search says its one line, as the viewer folds it, redacted as its snippet is', async () => {
    const { hits } = await search({ query: 'load_settings', kind: 'tool_use' });
    expect(hits.map((h) => h.summary)).toEqual(['Read: /work/orchard/src/config/load_settings.ts']);
    // Its redaction (a token cut through where the line is cut) is checked in hostile-callers.test.ts.
    const words = await search({ query: 'crumble', role: 'assistant' });
    expect(words.hits.every((h) => h.summary === null)).toBe(true);
  });

  it('returns the contract’s hit shape with a snippet that highlights the words', async () => {
    const { hits } = await search({ query: 'crumble', role: 'assistant' });
    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    expect(hit).toMatchObject({ sessionId: IDS.kitchen, role: 'assistant', kind: 'text', provider: 'claude', projectKey: expect.stringMatching(/^p_[0-9a-f]{16}$/) });
    expect(hit.partId).toMatch(/^cc:/);
    expect(hit.ts).toBe(fixture.times.kitchen + 2 * 60_000);
    expect(hit.snippet).toContain('Apple crumble');
    expect(hit.highlights.map(([a, b]) => hit.snippet.slice(a, b))).toEqual(['crumble']);
  });

  it('narrows by role and kind: only what I said, only commands, only tool output', async () => {
    expect(sessionsOf(await search({ query: 'apple', role: 'user', kind: 'text' }))).toEqual([IDS.kitchen, IDS.pruning, OPENCLAW_SESSION].sort());
    expect((await search({ query: 'apple', role: 'assistant', kind: 'text' })).hits.map((h) => h.sessionId)).toEqual([IDS.kitchen]);
    // The Read call's input holds the path; its result holds the code that calls parseConfig.
    const commands = await search({ query: 'load_settings', kind: 'tool_use' });
    expect(commands.hits.map((h) => [h.kind, h.toolName])).toEqual([['tool_use', 'Read']]);
    const outputs = await search({ query: 'parseConfig', kind: 'tool_result' });
    expect(outputs.hits.map((h) => h.kind)).toEqual(['tool_result']);
    // A tool result has the role user in Claude transcripts; "what I said" leaves it out.
    expect((await search({ query: 'TS2345', role: 'user', kind: 'text' })).hits).toEqual([]);
    expect((await search({ query: 'TS2345', kind: 'tool_result' })).hits).toHaveLength(1);
    expect((await search({ query: 'dormant', kind: 'thinking' })).hits.map((h) => h.kind)).toEqual(['thinking']);
  });

  it('only the person’s own words: never the harness’s /clear echo or the prompt the parent agent wrote for its subagent', async () => {
    // Each of these is user text, so the role and kind filters alone return them.
    const userText = { role: 'user', kind: 'text' } as const;
    expect(sessionsOf(await search({ query: 'frost', ...userText }))).toEqual([IDS.pruning, SUBAGENT_SESSION].sort());
    expect(sessionsOf(await search({ query: 'clear', ...userText }))).toEqual([IDS.kitchen]);
    for (const sort of ['relevance', 'newest'] as const) {
      const frost = await search({ query: 'frost', genuineUserTurn: true, sort });
      expect(frost.hits.map((h) => [h.sessionId, h.role, h.kind, h.snippet])).toEqual([[IDS.pruning, 'user', 'text', expect.stringContaining('before the frost arrives')]]);
      expect(frost.cursor).toBeUndefined();
      expect(frost.rankedAmong).toBeUndefined();
      expect((await search({ query: 'clear OR "command-name"', genuineUserTurn: true, sort })).hits).toEqual([]);
      // The words each kind of source wrote, together: only the person's request comes back.
      const all = await search({ query: 'frost OR clear OR apple', genuineUserTurn: true, sort });
      expect(all.hits.map((h) => h.snippet).sort()).toEqual([
        expect.stringContaining('How should I prune the apple trees'),
        expect.stringContaining('Remind me to order apple saplings'),
        expect.stringContaining('Write a recipe for apple crumble'),
      ]);
    }
    // With the other filters, as every filter combines.
    expect((await search({ query: 'apple', genuineUserTurn: true, provider: 'openclaw' })).hits.map((h) => h.sessionId)).toEqual([OPENCLAW_SESSION]);
    expect((await search({ query: 'frost', genuineUserTurn: true, sessionId: SUBAGENT_SESSION })).hits).toEqual([]);
    expect((await search({ query: 'apple', genuineUserTurn: true, role: 'assistant' })).hits).toEqual([]);
  });

  it('narrows by provider, project, repository-less project, session (with its subagents) and dates', async () => {
    expect(sessionsOf(await search({ query: 'apple', provider: 'openclaw' }))).toEqual([OPENCLAW_SESSION]);
    const { projects } = await core.call('Projects.List', {});
    const kitchen = projects.find((p) => p.name === 'kitchen')!;
    expect(sessionsOf(await search({ query: 'apple', projectKey: kitchen.projectKey }))).toEqual([IDS.kitchen]);
    // Neither fixture project has a repository: a repo filter matches nothing.
    expect((await search({ query: 'apple', repo: 'acme/orchard' })).hits).toEqual([]);
    expect(sessionsOf(await search({ query: 'frost', sessionId: IDS.pruning }))).toEqual([IDS.pruning, SUBAGENT_SESSION].sort());
    expect(sessionsOf(await search({ query: 'frost', sessionId: SUBAGENT_SESSION }))).toEqual([SUBAGENT_SESSION]);
    const since = fixture.times.config - 1000;
    expect(sessionsOf(await search({ query: 'apple', from: since }))).toEqual([IDS.kitchen, OPENCLAW_SESSION].sort());
    expect(sessionsOf(await search({ query: 'apple', to: since }))).toEqual([IDS.pruning]);
  });

  it('groups by session: each hit’s session once, with its title or first request', async () => {
    const result = await search({ query: 'apple' });
    const byId = new Map(result.sessions.map((s) => [s.sessionId, s]));
    expect([...byId.keys()].sort()).toEqual(sessionsOf(result));
    expect(byId.get(IDS.pruning)).toMatchObject({ title: 'Winter pruning plan', projectName: 'orchard' });
    // The first genuine request, not the harness's /clear echo.
    expect(byId.get(IDS.kitchen)).toMatchObject({ title: null, firstRequest: 'Write a recipe for apple crumble with winter spices.' });
  });

  it('sorts by newest: line time, newest first', async () => {
    const { hits } = await search({ query: 'apple', sort: 'newest' });
    const stamps = hits.map((h) => h.ts!);
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
    expect(hits[0]!.sessionId).toBe(IDS.kitchen);
  });
});

describe('user syntax never throws', () => {
  // A query of only operators, a lone `*`, or nothing the index holds (`NOT`, `*`, `""`, `???`) has no word
  // to find: refused with words, as an empty one is (below), never an FTS5 error.
  it.each(['"unbalanced quote', 'apple AND', '(frost', 'frost)', 'tool_input:', 'a) OR (scope : zpclaude'])('%s gives a result, not an error', async (query) => {
    const result = await search({ query });
    expect(Array.isArray(result.hits)).toBe(true);
  });

  it('a word with symbols the index does not hold says what it was searched as, as its own note, never a phrase', async () => {
    const symbols = 'Symbols such as + # ^ are not in the search index: “C++” was searched as “c”.';
    expect((await search({ query: 'C++' })).fallback).toEqual({ mode: 'symbols', message: symbols });
    expect((await search({ query: 'C++', redact: true })).fallback).toEqual({ mode: 'symbols', message: symbols });
    // Said after a note there already was, whose mode stays what the search did.
    const both = await search({ query: 'apple C++ AND' });
    expect(both.fallback?.mode).toBe('phrase');
    expect(both.fallback?.message).toMatch(/left out.*“C\+\+” was searched as “c”\.$/);
  });

  it('a column filter searches that column; a word read as a column the index has not is searched as written, saying so', async () => {
    // body:, thinking:, tool_input:, tool_output: are columns (README); `text:` reads as one and is none (QA: "No matches." said nothing).
    const body = await search({ query: 'body:apple' });
    expect(sessionsOf(body)).toEqual(sessionsOf(await search({ query: 'apple', kind: 'text' })));
    expect(body.fallback).toBeUndefined();
    const note = '“text:apple” was searched as written: “text:” is no column of the search index (body:, thinking:, tool_input: and tool_output: are); a kind or a role is a filter of its own.';
    for (const redact of [false, true]) expect((await search({ query: 'text:apple', redact })).fallback).toEqual({ mode: 'symbols', message: note });
    // A command's `build:calendar` or a URL is no column name anyone meant: no note.
    expect((await search({ query: 'see https://example.com' })).fallback).toBeUndefined();
  });

  it('a malformed expression falls back to a quoted phrase and says so', async () => {
    const unbalanced = await search({ query: '"frost usually' });
    expect(unbalanced.fallback?.mode).toBe('phrase');
    expect(sessionsOf(unbalanced)).toEqual([SUBAGENT_SESSION]);
  });

  it('code typed as written (a call, a member call) is searched as its exact text, never called invalid syntax (QA)', async () => {
    for (const redact of [false, true]) {
      const call = await search({ query: 'parseConfig()', redact });
      expect(call.fallback).toEqual({ mode: 'phrase', message: 'Searched as the exact text “parseConfig()”.' });
      expect(sessionsOf(call)).toEqual([IDS.config]);
    }
    for (const query of ['upload()', 'foo.bar()', 'a->b', 'Vec<u8>', 'print(a, b)']) {
      expect((await search({ query })).fallback?.message ?? '').not.toMatch(/not valid search syntax/);
    }
    // A malformed expression (an open quote, NEAR with no end, an operator with nothing after it) still says so.
    for (const query of ['"x', 'NEAR(', 'kitten AND', '(frost', 'upload(']) {
      expect((await search({ query })).fallback?.message).toMatch(/^That was not valid search syntax/);
    }
  });

  it('an operator with nothing on a side is left out, and the words typed are searched, saying so', async () => {
    const apple = sessionsOf(await search({ query: 'apple' }));
    // A leading NOT leaves its word out of what follows it.
    for (const redact of [false, true]) {
      const moved = await search({ query: 'NOT kitchen apple', redact });
      expect(sessionsOf(moved)).toEqual(apple);
      expect(moved.fallback).toEqual({ mode: 'phrase', message: 'NOT needs words before it, so it was searched as: apple NOT kitchen' });
    }
    for (const query of ['apple AND', 'apple OR', 'OR apple AND', 'apple NEAR', 'apple *']) {
      for (const redact of [false, true]) {
        const result = await search({ query, redact });
        expect(sessionsOf(result)).toEqual(apple);
        expect(result.fallback).toEqual({ mode: 'phrase', message: expect.stringMatching(/left out.*apple/) });
      }
    }
    // Pages after the first go on with the same words.
    const first = await search({ query: 'apple AND', limit: 1 });
    const second = await search({ query: 'apple AND', limit: 1, cursor: first.cursor! });
    expect(second.hits).toHaveLength(1);
    expect(second.fallback?.message).toMatch(/left out/);
  });

  it('a lone * has no words to search for: refused without a filter; with one, the filter’s messages are listed', async () => {
    for (const query of ['*', ' * ', 'AND', '* OR', '""', '???', '"*"', '(', '-']) {
      // Said as the person's input to change (the panel offers no Try again), which a stale cursor is not.
      await expect(search({ query })).rejects.toMatchObject({ code: 'invalid_params', message: expect.stringContaining('no words to search for'), details: { reason: 'nothing_to_find' } });
    }
    const listed = await search({ query: '*', role: 'assistant' });
    expect(listed.hits.length).toBeGreaterThan(0);
    expect(listed.hits.every((h) => h.role === 'assistant')).toBe(true);
    expect(listed.fallback).toEqual({ mode: 'newest', message: expect.stringContaining('no words to search for') });
    // `NOT apple` alone would match everything but apple, which is no search: refused, saying why.
    await expect(search({ query: 'NOT apple' })).rejects.toMatchObject({
      code: 'invalid_params',
      message: '“NOT apple” only leaves out what follows NOT (everything but it is no search): a query needs at least one word to find; give words, or at least one filter',
    });
  });

  it('a parenthesis cannot lift a filter: the query stays inside its project', async () => {
    const { projects } = await core.call('Projects.List', {});
    const kitchen = projects.find((p) => p.name === 'kitchen')!;
    const result = await search({ query: 'crumble) OR (frost', projectKey: kitchen.projectKey });
    expect(result.hits.every((h) => h.sessionId === IDS.kitchen)).toBe(true);
  });

  it('refuses a cursor from another search with invalid_params', async () => {
    const first = await search({ query: 'apple', limit: 1 });
    expect(first.cursor).toBeDefined();
    await expect(search({ query: 'frost', limit: 1, cursor: first.cursor! })).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(search({ query: 'apple', limit: 1, cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'invalid_params' });
    // Not the refusal of a query with nothing to find: starting again (the panel's Try again) helps here.
    const stale = await search({ query: 'frost', limit: 1, cursor: first.cursor! }).catch((error: unknown) => error);
    expect((stale as { details?: { reason?: string } }).details?.reason).toBeUndefined();
  });
});

describe('Search.Query narrowed to a repository', () => {
  it('finds the conversations of every project inside that repository, by OWNER/NAME or its canonical id, and no others', async () => {
    const { home: own, fixture: history } = historyHome('steward-search-repo-');
    // Two folders of one real repository (its root and a package inside it), and one outside it.
    const repo = new TestRepo(join(own.dir, 'code', 'orchard-app'));
    git(repo.dir, 'remote', 'add', 'origin', 'git@github.com:Acme/Orchard-App.git');
    const pkg = join(repo.dir, 'packages', 'ui');
    mkdirSync(pkg, { recursive: true });
    const line = (sessionId: string, cwd: string, text: string) => claudeLine({ sessionId, cwd, text, ts: new Date(Date.now() - 60_000) });
    writeJsonl(join(history.claudeRoot, 'projects', '-code-orchard-app', 'repo-root.jsonl'), [line('repo-root', repo.dir, 'graft the quince rootstock')]);
    writeJsonl(join(history.claudeRoot, 'projects', '-code-orchard-app-packages-ui', 'repo-ui.jsonl'), [line('repo-ui', pkg, 'quince colour for the buttons')]);
    const c = Core.open({ home: { dir: own.dir, kind: 'env' }, env: own.env });
    try {
      await c.call('Backfill.Run', { all: true });
      const find = async (repoFilter: string) => sessionsOf(await c.call('Search.Query', { query: 'quince OR apple', repo: repoFilter }));
      expect(await find('acme/orchard-app')).toEqual(['repo-root', 'repo-ui']);
      expect(await find('github.com/acme/orchard-app')).toEqual(['repo-root', 'repo-ui']);
      expect(await find('acme/orchard')).toEqual([]);
      expect(await find('other/orchard-app')).toEqual([]);
      // Without the filter the fixture's own projects match too.
      expect(sessionsOf(await c.call('Search.Query', { query: 'quince OR apple' }))).toEqual(expect.arrayContaining(['repo-root', 'repo-ui', IDS.kitchen]));
    } finally {
      await c.shutdown();
      own.cleanup();
    }
  });
});
