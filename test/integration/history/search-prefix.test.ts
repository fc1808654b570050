import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSearch } from '../../../core/cli/commands/search.js';
import { HistoryReader, SearchIndex, SearchReader } from '../../../core/gateway/index.js';
import { HistorySearch } from '../../../core/history/search.js';
import { Core, type Params } from '../../../core/index.js';
import { createRedactor } from '../../../core/secrets/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A prefix FTS5 answers by merging the posting list of every word it starts: a history with tens of
 * thousands of words starting `qx` (as real ones hold hashes and ids) makes `qx*` such a prefix, one
 * the search matches off the owner's thread (see test/unit/history/search-index.test.ts).
 */
const SESSION = '5d0c1a2b-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const WORDS_PER_LINE = 200;
const LINES = 700;
const ORCHARD = '/work/orchard';

/** Distinct lowercase words after `qx`, from a fixed sequence (no collision with the fixture's words). */
function qxWords(count: number, from: number): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: count }, (_, i) => {
    let n = (from + i) * 7919 + 104_729;
    let word = 'qx';
    for (let k = 0; k < 5; k += 1) {
      word += letters[n % 26];
      n = Math.floor(n / 26);
    }
    return word;
  });
}

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-search-prefix-');
  const claudeRoot = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 3_600_000;
  const lines = Array.from({ length: LINES }, (_, i) =>
    claudeLine({ sessionId: SESSION, cwd: ORCHARD, type: i % 2 === 0 ? 'user' : 'assistant', ts: new Date(start + i * 1000), text: qxWords(WORDS_PER_LINE, i * WORDS_PER_LINE).join(' ') }),
  );
  lines.push(claudeLine({ sessionId: SESSION, cwd: ORCHARD, ts: new Date(start + LINES * 1000), text: 'Quince jam wants a long, slow boil.' }));
  writeJsonl(join(claudeRoot, 'projects', '-work-orchard', `${SESSION}.jsonl`), lines);
  home.env.STEWARD_CLAUDE_ROOTS = claudeRoot;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

describe('a prefix that stands for tens of thousands of words', () => {
  it.each(['qx*', 'body:qx*', 'QX*'])('%s is answered, newest first, from the conversation that holds them', async (query) => {
    const found = await core.call('Search.Query', { query, sort: 'newest', limit: 5 });
    expect(found.hits).toHaveLength(5);
    expect(new Set(found.hits.map((h) => h.sessionId))).toEqual(new Set([SESSION]));
    const times = found.hits.map((h) => h.ts!);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(found.cursor).toBeDefined();
  });

  it('is ranked among the newest matches, and says so', async () => {
    const found = await core.call('Search.Query', { query: 'jam OR qx*' });
    expect(found.hits.length).toBeGreaterThan(0);
    expect(found.rankedAmong).toBe(500);
  });

  it('a narrower prefix, and a word of it without the *, are searched as before', async () => {
    const narrow = await core.call('Search.Query', { query: 'quin*' });
    expect(narrow.hits.map((h) => h.sessionId)).toEqual([SESSION]);
    expect(narrow.hits[0]!.snippet).toContain('Quince');
    const [one] = qxWords(1, 5 * WORDS_PER_LINE);
    const exact = await core.call('Search.Query', { query: one! });
    expect(exact.hits).toHaveLength(1);
  });
});

describe('a prefix that outruns the time a match may take', () => {
  /**
   * Core builds its reader with the budgets a million parts need; this one sends every prefix past ten
   * leaf pages off the owner's thread and gives it a millisecond (no worker answers that fast), so
   * `qx*` is refused as too broad where a big history would refuse `e*` after 5 s. It stands in for
   * Core's own search for one test: the call still goes through the dispatcher and its contract.
   */
  async function withHurriedSearch(run: () => Promise<void>): Promise<void> {
    const history = core.history as { search: HistorySearch };
    const own = history.search;
    const reader = new SearchReader(core.gateway, { prefixPageBudget: 10, matchTimeoutMs: 1 });
    const directory = { repoProjects: () => [] };
    history.search = new HistorySearch(reader, new SearchIndex(core.gateway), core.history.sessions, new HistoryReader(core.gateway), directory, () => createRedactor([]));
    try {
      await run();
    } finally {
      history.search = own;
      await reader.close();
    }
  }

  it('is a result with no hits and a note that says how to narrow it, never an error', async () => {
    await withHurriedSearch(async () => {
      const asked: Params<'Search.Query'>[] = [{ query: 'qx*' }, { query: 'qx*', sort: 'newest' }, { query: 'jam OR qx*' }, { query: 'qx*', redact: true }];
      for (const params of asked) {
        const found = await core.call('Search.Query', params);
        expect(found).toEqual({ hits: [], sessions: [], fallback: { mode: 'too_broad', message: expect.stringContaining('“qx*” stands for too many different words') } });
        expect(found.fallback!.message).toContain('Add a letter or two before the *');
        // What the CLI prints (the MCP tool and the panel show the same message as a note).
        expect(formatSearch(found)).toContain(`note: ${found.fallback!.message}`);
      }
      // A prefix within the budget is still searched in the owner's thread, as before.
      const narrow = await core.call('Search.Query', { query: 'quin*' });
      expect(narrow.hits.map((h) => h.sessionId)).toEqual([SESSION]);
      expect(narrow.fallback).toBeUndefined();
    });
  });
});
