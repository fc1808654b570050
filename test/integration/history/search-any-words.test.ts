import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params, type Result } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A question in plain words that no part holds all of: `why did we pick WAL` against five conversations
 * that say "We chose SQLite WAL because…". The newest conversation is 600 lines of chat full of the
 * question's common words (more than relevance ranks, RANK_CAP): an any-word search that kept them
 * would rank only that chat and never reach the WAL decisions below it.
 */
const CWD = '/work/ledger';
const DECISIONS = ['1a000000-0000-4000-8000-000000000001', '1a000000-0000-4000-8000-000000000002', '1a000000-0000-4000-8000-000000000003', '1a000000-0000-4000-8000-000000000004', '1a000000-0000-4000-8000-000000000005'];
const PICKS = '2b000000-0000-4000-8000-000000000001';
const CHAT = '3c000000-0000-4000-8000-000000000001';
const CHAT_LINES = 600;
const QUESTION = 'why did we pick WAL';
const ANY_WORDS = 'No message has all of these words; showing those with any of them.';

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-search-any-');
  const root = join(home.dir, 'roots', 'claude');
  const dir = join(root, 'projects', '-work-ledger');
  const start = Date.now() - 30 * 86_400_000;
  DECISIONS.forEach((sessionId, i) => {
    const at = (m: number) => new Date(start + i * 3_600_000 + m * 60_000);
    writeJsonl(join(dir, `${sessionId}.jsonl`), [
      claudeLine({ sessionId, cwd: CWD, ts: at(0), text: 'How should the store handle readers while the capture writes?' }),
      claudeLine({ sessionId, cwd: CWD, type: 'assistant', ts: at(1), text: 'We chose SQLite WAL because readers never block the single writer.' }),
    ]);
  });
  // As in a real history, `pick` is said more often than `WAL`: relevance weighs the rarer word more.
  writeJsonl(join(dir, `${PICKS}.jsonl`), [
    claudeLine({ sessionId: PICKS, cwd: CWD, ts: new Date(start + 10 * 3_600_000), text: 'Pick a colour for the buttons, please.' }),
    ...Array.from({ length: 11 }, (_, i) => claudeLine({ sessionId: PICKS, cwd: CWD, type: 'assistant', ts: new Date(start + 10 * 3_600_000 + (i + 1) * 60_000), text: `I will pick shade ${i} of blue.` })),
  ]);
  const chatStart = start + 20 * 86_400_000;
  writeJsonl(
    join(dir, `${CHAT}.jsonl`),
    Array.from({ length: CHAT_LINES }, (_, i) =>
      claudeLine({ sessionId: CHAT, cwd: CWD, type: i % 2 === 0 ? 'user' : 'assistant', ts: new Date(chatStart + i * 1000), text: i % 2 === 0 ? `Why did we change line ${i}? We did it twice, use it.` : `We did that because the test ${i} was red; why we did it again I cannot say. Use it.` }),
    ),
  );
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);

/** Every page of a search, following its cursors. */
async function allPages(params: Params<'Search.Query'>): Promise<Array<Result<'Search.Query'>>> {
  const pages = [await search(params)];
  for (let cursor = pages[0]!.cursor; cursor !== undefined; cursor = pages[pages.length - 1]!.cursor) pages.push(await search({ ...params, cursor }));
  return pages;
}

describe('words that no part holds all of are searched again with any of them', () => {
  it('finds the WAL decisions first, and says that it searched with any of the words', async () => {
    const found = await search({ query: QUESTION, limit: 5 });
    expect(found.fallback).toEqual({ mode: 'any_words', message: ANY_WORDS });
    expect(found.hits.map((h) => h.sessionId).sort()).toEqual([...DECISIONS].sort());
    expect(found.hits.every((h) => h.snippet.includes('WAL'))).toBe(true);
  });

  it('leaves out a word this store holds in more parts than relevance ranks, while another is rarer: "why do we use WAL"', async () => {
    // `use` is on no list of common words, but the chat says it in all its 600 parts, newer than the decisions.
    const found = await search({ query: 'why do we use WAL', limit: 5 });
    expect(found.fallback?.mode).toBe('any_words');
    expect(found.hits.map((h) => h.sessionId).sort()).toEqual([...DECISIONS].sort());
  });

  it('pages a search that left a word out with the same words, though the word may be rarer by then', async () => {
    const pages = await allPages({ query: 'why do we use WAL', limit: 2 });
    expect(pages.every((p) => p.fallback?.mode === 'any_words')).toBe(true);
    expect(pages.flatMap((p) => p.hits.map((h) => h.sessionId)).sort()).toEqual([...DECISIONS].sort());
  });

  it('pages the any-word search: later pages are the same search, said the same way, without repeats or gaps', async () => {
    const whole = await search({ query: QUESTION, limit: 100 });
    const pages = await allPages({ query: QUESTION, limit: 2 });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.every((p) => p.fallback?.mode === 'any_words')).toBe(true);
    expect(pages.flatMap((p) => p.hits.map((h) => h.partId))).toEqual(whole.hits.map((h) => h.partId));
    // The WAL decisions and the parts that say pick; the chat's common words alone find nothing.
    expect(new Set(whole.hits.map((h) => h.sessionId))).toEqual(new Set([...DECISIONS, PICKS]));
  });

  it('falls back the same way for a reader whose results are redacted (the MCP tools)', async () => {
    const found = await search({ query: QUESTION, limit: 5, redact: true });
    expect(found.fallback?.mode).toBe('any_words');
    expect(found.hits.map((h) => h.sessionId).sort()).toEqual([...DECISIONS].sort());
  });

  it('keeps the filters', async () => {
    const found = await search({ query: QUESTION, role: 'user' });
    expect(found.fallback?.mode).toBe('any_words');
    expect(found.hits.map((h) => [h.sessionId, h.role])).toEqual([[PICKS, 'user']]);
  });

  it.each(['SQLite WAL', 'we chose WAL', 'did we'])('does not fall back when every word is found: %s', async (query) => {
    const found = await search({ query });
    expect(found.hits.length).toBeGreaterThan(0);
    expect(found.fallback).toBeUndefined();
  });

  it.each([`"${QUESTION}"`, 'why AND did AND we AND pick AND WAL', 'NEAR(pick WAL)', 'body:why pick WAL'])('does not fall back from syntax the person wrote: %s', async (query) => {
    const found = await search({ query });
    expect(found.hits).toEqual([]);
    expect(found.fallback?.mode).not.toBe('any_words');
  });

  it('does not fall back from a single word, nor from common words alone', async () => {
    for (const query of ['zustand', 'why were they']) {
      const found = await search({ query });
      expect(found.hits).toEqual([]);
      expect(found.fallback).toBeUndefined();
    }
  });
});
