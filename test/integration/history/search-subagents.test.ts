import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params } from '../../../core/index.js';
import { IDS, SUBAGENT_SESSION, historyHome, sessionsOf } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

/**
 * Search.Query's session filter includes "its subagents' parts" (core/api/search.ts) for every
 * provider: a Claude subagent's id names its parent, but a Gemini subagent and a Codex spawned thread
 * have ids of their own and only their session row names the parent. A Codex fork is a branch: a
 * conversation of its own, which its parent's filter leaves out.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const GEMINI_PARENT = '92f625c6-a764-48e3-b922-3766d41f9c4c';
const GEMINI_SUBAGENT = 'e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b';
const CODEX_PARENT = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
const CODEX_FORK = '019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c';
const CODEX_SPAWNED = '019f5c6b-1a20-7b55-9d12-0e9f8a7b6c5d';

let home: TempHome;
let core: Core;

function copy(from: string, toDir: string, name: string): void {
  mkdirSync(toDir, { recursive: true });
  copyFileSync(join(FIXTURES, from), join(toDir, name));
}

/** A thread the Codex parent spawned: a rollout of its own whose meta names the parent thread. */
function spawnedRollout(): string {
  const meta = {
    timestamp: '2026-07-13T16:45:00.010Z',
    type: 'session_meta',
    payload: {
      id: CODEX_SPAWNED,
      timestamp: '2026-07-13T16:45:00.001Z',
      cwd: '/home/ana/src/uploader',
      originator: 'codex-tui',
      source: { subagent: { thread_spawn: { parent_thread_id: CODEX_PARENT, depth: 1, agent_role: 'explorer' } } },
      model_provider: 'openai',
    },
  };
  const said = (timestamp: string, role: string, type: string, text: string) => ({ timestamp, type: 'response_item', payload: { type: 'message', role, content: [{ type, text }] } });
  return [
    meta,
    said('2026-07-13T16:45:01.000Z', 'user', 'input_text', 'List every retry helper in the repository'),
    said('2026-07-13T16:45:05.000Z', 'assistant', 'output_text', 'One retry helper: withJitter in src/retry.ts.'),
  ]
    .map((line) => JSON.stringify(line))
    .join('\n')
    .concat('\n');
}

beforeAll(async () => {
  ({ home } = historyHome('steward-search-subagents-'));
  const roots = join(home.dir, 'roots');
  const gemini = join(roots, 'gemini');
  const chats = join(gemini, 'tmp', 'site', 'chats');
  copy('gemini/current-session.jsonl', chats, `session-2026-05-22T14-59-${GEMINI_PARENT.slice(0, 8)}.jsonl`);
  copy('gemini/subagent-session.jsonl', join(chats, GEMINI_PARENT), `${GEMINI_SUBAGENT}.jsonl`);
  const codex = join(roots, 'codex');
  const day = join(codex, 'sessions', '2026', '07', '13');
  copy(`codex/rollout-2026-07-13T18-41-30-${CODEX_PARENT}.jsonl`, day, `rollout-2026-07-13T18-41-30-${CODEX_PARENT}.jsonl`);
  copy(`codex/rollout-2026-07-13T19-20-00-${CODEX_FORK}.jsonl`, day, `rollout-2026-07-13T19-20-00-${CODEX_FORK}.jsonl`);
  writeFileSync(join(day, `rollout-2026-07-13T18-45-00-${CODEX_SPAWNED}.jsonl`), spawnedRollout());
  home.env.STEWARD_GEMINI_ROOTS = gemini;
  home.env.STEWARD_CODEX_ROOTS = codex;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);

describe('Search.Query with a session: its subagents’ parts, whatever their ids', () => {
  it('a Gemini subagent (an id of its own) is found under its parent, by relevance and by newest', async () => {
    // Only the subagent's answer says "callers".
    expect(sessionsOf(await search({ query: 'callers' }))).toEqual([GEMINI_SUBAGENT]);
    for (const sort of ['relevance', 'newest'] as const) {
      const result = await search({ query: 'callers', sessionId: GEMINI_PARENT, sort });
      expect(sessionsOf(result)).toEqual([GEMINI_SUBAGENT]);
      expect(result.sessions.map((s) => [s.sessionId, s.parentSessionId])).toEqual([[GEMINI_SUBAGENT, GEMINI_PARENT]]);
    }
    // The parent's own words still match; the subagent's filter is the subagent alone.
    expect(sessionsOf(await search({ query: 'tests OR callers', sessionId: GEMINI_PARENT }))).toEqual([GEMINI_PARENT, GEMINI_SUBAGENT].sort());
    expect(sessionsOf(await search({ query: 'tests OR callers', sessionId: GEMINI_SUBAGENT }))).toEqual([GEMINI_SUBAGENT]);
  });

  it('a Claude subagent ({parent}:agent-…) still is', async () => {
    expect(sessionsOf(await search({ query: 'frost', sessionId: IDS.pruning }))).toEqual([IDS.pruning, SUBAGENT_SESSION].sort());
    expect(sessionsOf(await search({ query: 'frost', sessionId: SUBAGENT_SESSION }))).toEqual([SUBAGENT_SESSION]);
  });

  it('a Codex spawned thread is found under its parent; a fork of it is a conversation of its own and is not', async () => {
    expect(sessionsOf(await search({ query: 'withJitter', sessionId: CODEX_PARENT }))).toEqual([CODEX_SPAWNED]);
    expect(sessionsOf(await search({ query: 'configurable' }))).toEqual([CODEX_FORK]);
    expect((await search({ query: 'configurable', sessionId: CODEX_PARENT })).hits).toEqual([]);
    expect(sessionsOf(await search({ query: 'configurable', sessionId: CODEX_FORK }))).toEqual([CODEX_FORK]);
  });

  it('Sessions.Get nests the same subagents under their parent (by the session row’s parent, as search now does)', async () => {
    const subagentsOf = async (sessionId: string) => (await core.call('Sessions.Get', { sessionId })).subagents.map((s) => s.session.sessionId);
    expect(await subagentsOf(GEMINI_PARENT)).toEqual([GEMINI_SUBAGENT]);
    expect(await subagentsOf(CODEX_PARENT)).toEqual([CODEX_SPAWNED]);
  });

  it('a subagent’s prompts are the main agent’s, never the person’s own words (Codex spawned threads, Gemini subagents)', async () => {
    const asked = await search({ query: 'retry helper', genuineUserTurn: true });
    expect(sessionsOf(asked)).not.toContain(CODEX_SPAWNED);
    const anyone = await search({ query: 'retry helper', role: 'user', kind: 'text' });
    expect(sessionsOf(anyone)).toContain(CODEX_SPAWNED);
    const sub = await core.call('Sessions.Get', { sessionId: GEMINI_SUBAGENT });
    const userTexts = sub.messages.flatMap((m) => (m.role === 'user' ? m.parts.filter((p) => p.kind === 'text') : []));
    expect(userTexts.length).toBeGreaterThan(0);
    expect(userTexts.every((p) => !p.genuineUserTurn)).toBe(true);
    // Still labelled by what it was asked to do, as a Claude subagent is (its parts are a side chain).
    expect(sub.session.firstRequest).toBe('Find every caller of upload()');
    const spawned = await core.call('Sessions.Get', { sessionId: CODEX_SPAWNED });
    expect(spawned.session.firstRequest).toBe('List every retry helper in the repository');
  });
});

