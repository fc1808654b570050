import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { historyHome } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

let home: TempHome;

beforeAll(async () => {
  ({ home } = historyHome('steward-cli-usage-'));
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('steward search --role', () => {
  it('takes the roles the providers store, and refuses any other as a usage error naming them', async () => {
    const user = await cli('search', 'apple', '--role', 'user', '--json');
    expect(user.code).toBe(0);
    expect((JSON.parse(user.out) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
    for (const role of ['wizard', 'users']) {
      const { code, out, err } = await cli('search', 'apple', '--role', role);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toBe('steward: --role must be one of user, assistant, system, tool\n');
    }
    const json = await cli('search', 'apple', '--role', 'wizard', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'invalid_params', message: '--role must be one of user, assistant, system, tool' } });
  });
});

/** A search with neither words nor a filter (a sort or a limit is not one). */
const NOTHING_TO_SEARCH = 'the query is empty: give words to search for, or a filter such as --project, --mine, --kind or --from';

describe('usage errors say what was typed wrong in the words of the command', () => {
  const cases: Array<[string[], string]> = [
    [['search'], NOTHING_TO_SEARCH],
    [['search', ''], NOTHING_TO_SEARCH],
    [['search', ' ', ' '], NOTHING_TO_SEARCH],
    [['search', '--sort', 'newest', '--limit', '5'], NOTHING_TO_SEARCH],
    [['search', 'apple', '--session', ''], '--session is empty'],
    [['search', 'apple', '--from', '2026-12-01', '--to', '2026-01-01'], '--from 2026-12-01 is after --to 2026-01-01: nothing can match'],
    [['sessions', 'list', '--from', '2026-12-01', '--to', '2026-01-01'], '--from 2026-12-01 is after --to 2026-01-01: nothing can match'],
    [['sessions', 'show', ''], 'the session id is empty'],
    [['sessions', 'export', ''], 'the session id is empty'],
  ];
  it.each(cases)('%j → exit 2, "%s"', async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`steward: ${message}\n`);
    const json = await cli(...argv, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'invalid_params', message } });
  });
});
