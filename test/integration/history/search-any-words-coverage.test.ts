import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * QA: `fix flaky tests`, which no message holds all of, listed a short "Fix the typo" first, above the
 * messages about flaky tests. In the any-word search a message holding more of the query's words (and
 * rarer ones) ranks above one holding fewer, however short the one with fewer is.
 */
const CWD = '/work/scheduler';
const SESSION = '4d000000-0000-4000-8000-000000000001';
const OTHER = '4d000000-0000-4000-8000-000000000002';
const QUERY = 'fix flaky tests';

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-search-any-coverage-');
  const root = join(home.dir, 'roots', 'claude');
  const dir = join(root, 'projects', '-work-scheduler');
  const start = Date.now() - 3 * 86_400_000;
  const at = (m: number) => new Date(start + m * 60_000);
  writeJsonl(join(dir, `${SESSION}.jsonl`), [
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: at(0), text: 'The flaky tests in the scheduler suite time out on CI about once in ten runs; the retry wrapper hides it locally. Can you look into why the timer mocks leak between files?' }),
    claudeLine({ sessionId: SESSION, cwd: CWD, type: 'assistant', ts: at(1), text: 'The tests share one fake clock: a suite that advances it leaves the next suite past its deadline, so they fail only in some orders. That is why they are flaky on CI, where files run in another order.' }),
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: at(2), text: 'Run the tests again with the seed from the failing CI job.' }),
  ]);
  writeJsonl(join(dir, `${OTHER}.jsonl`), [
    claudeLine({ sessionId: OTHER, cwd: CWD, ts: at(10), text: 'Fix the typo.' }),
    claudeLine({ sessionId: OTHER, cwd: CWD, type: 'assistant', ts: at(11), text: 'Done: "recieve" is now "receive" in the README.' }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);

describe('the any-word search ranks by how many of the words a message holds', () => {
  it('messages holding two of the words come before the one holding only "fix"', async () => {
    for (const redact of [false, true]) {
      const result = await search({ query: QUERY, redact });
      expect(result.fallback?.mode).toBe('any_words');
      const texts = result.hits.map((h) => h.snippet);
      const fixOnly = texts.findIndex((t) => t.startsWith('Fix the typo'));
      const both = texts.flatMap((t, i) => (/flaky/i.test(t) && /tests/i.test(t) ? [i] : []));
      expect(both).toHaveLength(2);
      expect(fixOnly).toBeGreaterThan(Math.max(...both));
    }
  });

  it('pages the same order, one hit at a time', async () => {
    const all = (await search({ query: QUERY, limit: 50 })).hits.map((h) => h.partId);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await search({ query: QUERY, limit: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...page.hits.map((h) => h.partId));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(paged).toEqual(all);
  });
});
