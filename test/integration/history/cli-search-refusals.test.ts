import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { besidesNobodyImports, runIn } from '../../support/cli.js';
import { git, TestRepo } from '../../support/git-repo.js';
import { historyHome } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// A search that could not have searched anything says so, rather than "No matches.": a repository
// Steward holds no project of, a query with no word to find.

const REPO_SESSION = 'c0ffee00-0000-4000-8000-00000000a11e';
let home: TempHome;

beforeAll(async () => {
  let fixture;
  ({ home, fixture } = historyHome('steward-cli-search-refusals-'));
  const repo = new TestRepo(join(home.dir, 'code', 'greenhouse'));
  git(repo.dir, 'remote', 'add', 'origin', 'git@github.com:Acme/Greenhouse.git');
  writeJsonl(join(fixture.claudeRoot, 'projects', '-code-greenhouse', `${REPO_SESSION}.jsonl`), [claudeLine({ sessionId: REPO_SESSION, cwd: repo.dir, ts: new Date(Date.now() - 60_000), text: 'shade cloth for the greenhouse vents' })]);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('steward search --repo', () => {
  it('a repository no project belongs to is not_found (exit 1), as an unknown --project is', async () => {
    const text = await cli('search', 'upload', '--repo', 'nope/nothing');
    expect({ code: text.code, out: text.out }).toEqual({ code: 1, out: '' });
    expect(text.err.trim().split('\n')).toHaveLength(1);
    expect(text.err).toMatch(/^steward: --repo: no stored project belongs to the repository nope\/nothing/);
    const json = await cli('search', 'upload', '--repo', 'nope/nothing', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'not_found' } });
  });

  it('a stored repository, by OWNER/NAME or its canonical id, is searched; with no match it is still "No matches."', async () => {
    for (const repo of ['acme/greenhouse', 'github.com/Acme/Greenhouse']) {
      const found = await cli('search', 'cloth', '--repo', repo, '--json');
      expect(found.code).toBe(0);
      expect((JSON.parse(found.out) as { hits: Array<{ sessionId: string }> }).hits.map((h) => h.sessionId)).toEqual([REPO_SESSION]);
    }
    const none = await cli('search', 'zzyzx', '--repo', 'acme/greenhouse');
    expect({ ...none, err: besidesNobodyImports(none.err) }).toEqual({ code: 0, out: 'No matches.\n', err: '' });
  });
});

describe('steward search with no word to find', () => {
  it.each([
    ['*', '“*” has no words to search for'],
    ['OR', '“OR” has no words to search for'],
    ['NOT kitchen', '“NOT kitchen” only leaves out'],
    // Nothing the index holds: it keeps letters, numbers and private-use characters only (an attacker's findings).
    ['"*"', '“"*"” has no words to search for'],
    ['""', '“""” has no words to search for'],
    ['(', '“(” has no words to search for'],
    ['-', '“-” has no words to search for'],
  ])('%j without a filter is refused: one line, exit 2', async (query, start) => {
    const text = await cli('search', query);
    expect({ code: text.code, out: text.out }).toEqual({ code: 2, out: '' });
    expect(text.err.trim().split('\n')).toHaveLength(1);
    expect(text.err.startsWith(`steward: ${start}`)).toBe(true);
    const json = await cli('search', query, '--json');
    expect(json.code).toBe(2);
    const { error } = JSON.parse(json.out) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_params');
    expect(error.message.startsWith(start)).toBe(true);
  });

  it('“NOT x” alone says a query needs a word to find', async () => {
    const { err } = await cli('search', 'NOT kitchen');
    expect(err).toContain('a query needs at least one word to find');
  });

  it('with a filter, the filter’s messages are still listed', async () => {
    const listed = await cli('search', '*', '--repo', 'acme/greenhouse', '--json');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.out) as { hits: Array<{ sessionId: string }> }).hits.map((h) => h.sessionId)).toEqual([REPO_SESSION]);
  });
});
