import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { git, TestRepo } from '../../support/git-repo.js';
import { IDS, SECRET, SUBAGENT_SESSION, writeHistoryFixture } from '../../support/history.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { connectMcp, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** A conversation in a folder of a real repository (a git remote), for the repo filter. */
const REPO_SESSION = 'c0ffee00-0000-4000-8000-00000000a11e';

function writeRepoSession(root: string, claudeRoot: string): void {
  const repo = new TestRepo(join(root, 'code', 'greenhouse'));
  git(repo.dir, 'remote', 'add', 'origin', 'git@github.com:Acme/Greenhouse.git');
  writeJsonl(join(claudeRoot, 'projects', '-code-greenhouse', `${REPO_SESSION}.jsonl`), [claudeLine({ sessionId: REPO_SESSION, cwd: repo.dir, ts: new Date(Date.now() - 60_000), text: 'shade cloth for the greenhouse vents' })]);
}

/** A Codex rollout whose `npm test` failed: its result is stored as Codex's JSON wrapper. */
const CODEX_ROLLOUT = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const CODEX_SESSION = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';

function placeCodexRollout(codexRoot: string): void {
  const dir = join(codexRoot, 'sessions', '2026', '07', '13');
  mkdirSync(dir, { recursive: true });
  copyFileSync(fileURLToPath(new URL(`../../fixtures/transcripts/codex/${CODEX_ROLLOUT}`, import.meta.url)), join(dir, CODEX_ROLLOUT));
}

/** A conversation too long for one answer: a few very long parts, then many long ones. */
const LONG_SESSION = 'c0ffee00-0000-4000-8000-00000000b16b';
const LONG_PARTS = 120;

function writeLongSession(claudeRoot: string): void {
  const start = Date.now() - 3_600_000;
  const lines = Array.from({ length: LONG_PARTS }, (_, i) =>
    claudeLine({ sessionId: LONG_SESSION, type: i % 2 === 0 ? 'user' : 'assistant', cwd: '/work/zephyr', ts: new Date(start + i * 1_000), text: `zephyr ${i} ${'z'.repeat(i < 3 ? 9_000 : 1_500)}` }),
  );
  writeJsonl(join(claudeRoot, 'projects', '-work-zephyr', `${LONG_SESSION}.jsonl`), lines);
}

let home: TempHome;
let client: Client;
let stderr: () => string;
const outputs: string[] = [];

async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  outputs.push(JSON.stringify(result));
  return result;
}

beforeAll(async () => {
  home = tempHome('steward-mcp-history-');
  const fixture = writeHistoryFixture(join(home.dir, 'roots'));
  writeLongSession(fixture.claudeRoot);
  writeRepoSession(home.dir, fixture.claudeRoot);
  const codexRoot = join(home.dir, 'roots', 'codex');
  placeCodexRollout(codexRoot);
  const env = Object.fromEntries(
    Object.entries({ ...home.env, STEWARD_CLAUDE_ROOTS: fixture.claudeRoot, STEWARD_OPENCLAW_ROOTS: fixture.openclawRoot, STEWARD_CODEX_ROOTS: codexRoot }).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env });
  try {
    await core.call('Backfill.Run', { all: true });
  } finally {
    await core.shutdown();
  }
  ({ client, stderr } = await connectMcp(env));
});

afterAll(async () => {
  await client?.close();
  home?.cleanup();
});

describe('steward mcp: search_transcripts and get_session', () => {
  it('lists both tools with their schemas', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_transcripts');
    const get = tools.find((t) => t.name === 'get_session');
    // A query is not required: filters alone list their messages newest first.
    expect(search?.inputSchema.required ?? []).toEqual([]);
    expect(get?.inputSchema.required).toEqual(['session_id']);
    expect(search?.annotations?.readOnlyHint).toBe(true);
  });

  it('search_transcripts returns ranked hits with session ids and snippets, narrowed by its filters', async () => {
    const result = await call('search_transcripts', { query: 'frost' });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { hits: Array<{ sessionId: string; partId: string; snippet: string; kind: string }>; sessions: Array<{ sessionId: string; title: string | null }> };
    expect(new Set(out.hits.map((h) => h.sessionId))).toEqual(new Set([IDS.pruning, SUBAGENT_SESSION]));
    expect(out.hits.every((h) => h.snippet.toLowerCase().includes('frost'))).toBe(true);
    expect(out.sessions.find((s) => s.sessionId === IDS.pruning)?.title).toBe('Winter pruning plan');
    expect(result.content[0]?.text).toContain(`[${IDS.pruning}] Winter pruning plan`);
    const commands = (await call('search_transcripts', { query: 'calendar', kind: 'tool_use' })).structuredContent as { hits: Array<{ toolName: string }> };
    expect(commands.hits.map((h) => h.toolName)).toEqual(['Bash']);
  });

  it('search_transcripts narrows to the projects of one repository by OWNER/NAME or its canonical id, and refuses a path', async () => {
    for (const repo of ['acme/greenhouse', 'github.com/Acme/Greenhouse']) {
      const out = (await call('search_transcripts', { query: 'cloth OR frost', repo })).structuredContent as { hits: Array<{ sessionId: string }> };
      expect(new Set(out.hits.map((h) => h.sessionId))).toEqual(new Set([REPO_SESSION]));
    }
    // A stored repository that matches nothing is "No matches."; one no project belongs to is not_found (below).
    expect(((await call('search_transcripts', { query: 'zzyzx', repo: 'acme/greenhouse' })).structuredContent as { hits: unknown[] }).hits).toEqual([]);
    expect((await call('search_transcripts', { query: 'cloth', repo: 'acme/orchard' })).isError).toBe(true);
    // A repository alone is a filter: its messages, newest first.
    expect(((await call('search_transcripts', { repo: 'acme/greenhouse' })).structuredContent as { hits: Array<{ sessionId: string }> }).hits.map((h) => h.sessionId)).toEqual([REPO_SESSION]);
    const refused = await call('search_transcripts', { query: 'cloth', repo: '/home/ana/code/greenhouse' });
    expect(refused.isError).toBe(true);
  });

  it('get_session gives a command’s exit code, and a Codex result as the output it wraps, not its JSON', async () => {
    type Page = { messages: Array<{ parts: Array<{ kind: string; text: string | null; summary: string | null; isError: boolean; exitCode: number | null }> }> };
    const results = (page: Page) => page.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result');
    const codex = results((await call('get_session', { session_id: CODEX_SESSION, limit: 50 })).structuredContent as Page);
    const failed = codex.find((p) => p.exitCode === 1);
    expect(failed).toMatchObject({ isError: true, summary: 'exit code 1: 1 failing', text: '1 failing\n  upload retries: expected 5 calls\n' });
    expect(codex.every((p) => !(p.text ?? '').startsWith('{"output"'))).toBe(true);
    const claude = results((await call('get_session', { session_id: IDS.pruning, limit: 50 })).structuredContent as Page);
    expect(claude.find((p) => p.isError)).toMatchObject({ exitCode: 2 });
  });

  it('search_transcripts with genuine_user_turn: only the person’s own words, not the prompt the parent agent wrote for its subagent', async () => {
    const userText = (await call('search_transcripts', { query: 'frost', role: 'user', kind: 'text' })).structuredContent as { hits: Array<{ sessionId: string }> };
    expect(new Set(userText.hits.map((h) => h.sessionId))).toEqual(new Set([IDS.pruning, SUBAGENT_SESSION]));
    const result = await call('search_transcripts', { query: 'frost OR clear', genuine_user_turn: true });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { hits: Array<{ sessionId: string; role: string }> }).hits.map((h) => [h.sessionId, h.role])).toEqual([[IDS.pruning, 'user']]);
  });

  it('bounds the page and pages with a cursor', async () => {
    const first = (await call('search_transcripts', { query: 'apple', limit: 1 })).structuredContent as { hits: unknown[]; cursor?: string };
    expect(first.hits).toHaveLength(1);
    const second = (await call('search_transcripts', { query: 'apple', limit: 1, cursor: first.cursor })).structuredContent as { hits: unknown[] };
    expect(second.hits).toHaveLength(1);
    expect(second.hits).not.toEqual(first.hits);
    const tooMany = await call('search_transcripts', { query: 'apple', limit: 500 });
    expect(tooMany.isError).toBe(true);
  });

  it('get_session reads the conversation around a hit, redacted', async () => {
    const hit = ((await call('search_transcripts', { query: 'GITHUB_TOKEN' })).structuredContent as { hits: Array<{ sessionId: string; partId: string; snippet: string }> }).hits[0]!;
    expect(hit.sessionId).toBe(IDS.config);
    expect(hit.snippet).not.toContain(SECRET);
    const result = await call('get_session', { session_id: hit.sessionId, part_id: hit.partId, limit: 5 });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { session: { sessionId: string; messages: number }; messages: Array<{ role: string; parts: Array<{ partId: string; kind: string; text: string | null; summary: string | null }> }> };
    // Four lines, three messages: the Read call's result is not a message of its own.
    expect(out.session).toMatchObject({ sessionId: IDS.config, messages: 3 });
    const parts = out.messages.flatMap((m) => m.parts);
    expect(parts.map((p) => p.partId)).toContain(hit.partId);
    expect(parts.find((p) => p.kind === 'tool_use')?.summary).toBe('Read: /work/orchard/src/config/load_settings.ts');
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(JSON.stringify(out)).toContain('[REDACTED]');
  });

  it('get_session tells the person’s words from what their agent’s app wrote in their name', async () => {
    const result = await call('get_session', { session_id: IDS.kitchen });
    const out = result.structuredContent as { messages: Array<{ parts: Array<{ text: string | null; genuineUserTurn: boolean; harness: string | null }> }> };
    const [echo, prompt] = out.messages.map((m) => m.parts[0]!);
    expect(echo).toMatchObject({ genuineUserTurn: false, harness: 'Command /clear' });
    expect(prompt).toMatchObject({ text: 'Write a recipe for apple crumble with winter spices.', genuineUserTurn: true });
    // A part the person wrote has no harness: the field is left out rather than said to be null.
    expect(prompt).not.toHaveProperty('harness');
    expect(result.content[0]!.text).toContain("[Command /clear — written by the agent's app, not the person]");
  });

  it('get_session names the subagents, and an unknown id is a tool error, not a crash', async () => {
    const main = await call('get_session', { session_id: IDS.pruning });
    const out = main.structuredContent as { subagents: Array<{ sessionId: string; agentType: string }> };
    expect(out.subagents).toEqual([{ sessionId: SUBAGENT_SESSION, agentType: 'Explore', title: null, firstRequest: 'Find the first frost dates for the orchard region', messages: 2 }]);
    // The text is what an agent reads: the subagent's id, type and what it was asked, and how to read it.
    const [title, entries, started, subagent] = main.content[0]!.text!.split('\n');
    expect(title).toBe(`Winter pruning plan (${IDS.pruning}, 4 messages, not counting tool results)`);
    expect(entries).toBe('This page holds 5 entries: 4 messages and 1 tool result (limit counts both).');
    expect(started).toBe('Started 1 subagent; read one with get_session and its session_id:');
    expect(subagent).toBe(`  ⤷ subagent Explore [${SUBAGENT_SESSION}] Find the first frost dates for the orchard region (2 messages)`);
    // Its page names the conversation it belongs to.
    const sub = await call('get_session', { session_id: SUBAGENT_SESSION });
    expect(sub.structuredContent).toMatchObject({ session: { parentSessionId: IDS.pruning, parentKind: 'subagent' }, subagents: [] });
    expect(sub.content[0]!.text!.split('\n')[0]).toContain(`(${SUBAGENT_SESSION}, 2 messages, subagent of ${IDS.pruning})`);
    const unknown = await call('get_session', { session_id: 'no-such-session' });
    expect(unknown.isError).toBe(true);
    // In search_transcripts' form: the code first, then what to do.
    expect(unknown.content[0]!.text).toBe(
      'not_found: no stored conversation has the session_id "no-such-session" (it may have been pruned or forgotten). Give the whole id, as search_transcripts or get_session returns it.',
    );
    expect((await call('get_session', { session_id: IDS.pruning, part_id: 'cc:no-such-part:0' })).content[0]!.text).toMatch(/^not_found: That part is not in this conversation/);
    expect(stderr()).not.toMatch(/Error:/);
  });

  it('get_session bounds each part and the whole answer, and every part keeps some of its text', async () => {
    const few = (await call('get_session', { session_id: LONG_SESSION, limit: 3 })).structuredContent as { messages: Array<{ parts: Array<{ text: string | null }> }> };
    const long = few.messages.flatMap((m) => m.parts).map((p) => p.text ?? '');
    expect(long).toHaveLength(3);
    // 9,000 characters each: cut at 2,000, and the cut says how much is left out.
    for (const text of long) expect(text).toMatch(new RegExp(`^zephyr \\d z{1,1991}… \\[[\\d,]+ more characters not shown: read on with part_id "[^"]+" and from_char 2000\\]$`));
    expect(long.every((text) => text.length < 2_150)).toBe(true);

    // 50 messages of 1,500 characters would be 75,000: the 60,000 of each half of the answer (its text,
    // its structured content as JSON) are shared out evenly, every part keeping the same share.
    const all = await call('get_session', { session_id: LONG_SESSION, limit: 50 });
    expect(all.isError).toBeFalsy();
    const out = all.structuredContent as { messages: Array<{ parts: Array<{ text: string | null }> }> };
    const texts = out.messages.flatMap((m) => m.parts).map((p) => p.text ?? '');
    expect(texts).toHaveLength(50);
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(60_000);
    expect(all.content[0]!.text!.length).toBeLessThanOrEqual(60_000);
    expect(texts.every((t) => t.startsWith('zephyr ') && t.length >= 850 && t.length < 1_000)).toBe(true);
    // Cut by the page's shared room, not the part's bound: the words name the call that reads on from there.
    expect(texts.every((t) => /not shown: read on with part_id "[^"]+" and from_char \d+\]$/.test(t))).toBe(true);
  });

  it('search_transcripts with a session_id or project_key Steward holds nothing under is a tool error, not "No matches."', async () => {
    const session = await call('search_transcripts', { query: 'apple', session_id: 'no-such-session' });
    expect(session.isError).toBe(true);
    expect(session.content[0]!.text).toBe(
      'not_found: no stored conversation has the session_id "no-such-session" (it may have been pruned or forgotten). Give the whole id, as search_transcripts or get_session returns it.',
    );
    // A filter alone, with no query, is checked the same way.
    expect((await call('search_transcripts', { session_id: IDS.pruning.slice(0, 8) })).isError).toBe(true);
    const project = await call('search_transcripts', { query: 'apple', project_key: 'p_0123456789abcdef' });
    expect(project.isError).toBe(true);
    expect(project.content[0]!.text).toBe("not_found: no stored project has the project_key p_0123456789abcdef (it may have been forgotten). list_projects names each project's projectKey.");
    // A repository no stored project belongs to, as the CLI's --repo (a tester's finding).
    const repo = await call('search_transcripts', { query: 'apple', repo: 'nobody/nothing' });
    expect({ isError: repo.isError, text: repo.content[0]!.text }).toEqual({ isError: true, text: "not_found: no stored project belongs to the repository nobody/nothing (repo is OWNER/NAME or a repository's canonical id)." });
    // Stored ones that match nothing are still "No matches.".
    const { hits } = (await call('search_transcripts', { query: 'frost', session_id: IDS.pruning })).structuredContent as { hits: Array<{ projectKey: string }> };
    for (const filter of [{ session_id: IDS.kitchen }, { project_key: hits[0]!.projectKey }]) {
      const none = await call('search_transcripts', { query: 'zzyzx', ...filter });
      // No owner runs beside this `steward mcp`: the answer says so after "No matches." (see nobodyImportsNote).
      expect({ filter, isError: none.isError ?? false, text: none.content[0]!.text!.split(' No Steward is running')[0] }).toEqual({ filter, isError: false, text: 'No matches.' });
    }
    expect(stderr()).not.toMatch(/Error:/);
  });

  it('never returns a path of Steward’s or of a transcript file', () => {
    const all = outputs.join('\n');
    expect(all).not.toContain(home.dir);
    expect(all).not.toContain('.jsonl');
  });
});
