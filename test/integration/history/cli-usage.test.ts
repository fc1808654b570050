import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo as io } from '../../support/cli.js';
import { writeHistoryFixture } from '../../support/history.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome;

beforeAll(async () => {
  home = tempHome('steward-cli-usage-');
  const fixture = writeHistoryFixture(join(home.dir, 'roots'));
  home.env.STEWARD_CLAUDE_ROOTS = fixture.claudeRoot;
  home.env.STEWARD_OPENCLAW_ROOTS = fixture.openclawRoot;
  expect(await runCli(['backfill', '--all', '--json'], io(home.env))).toBe(0);
});

afterAll(() => home?.cleanup());

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = io(home.env);
  const code = await runCli(argv, c);
  return { code, out: c.out, err: c.err };
}

describe('steward search --role', () => {
  it('takes the roles the providers store, and refuses any other as a usage error naming them', async () => {
    const user = await cli('search', 'apple', '--role', 'user', '--json');
    expect(user.code).toBe(0);
    expect((JSON.parse(user.out) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
    for (const role of ['wizard', 'users']) {
      const { code, out, err } = await cli('search', 'apple', '--role', role);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toBe('steward: --role must be one of user, assistant, system, tool, toolResult\n');
    }
    const json = await cli('search', 'apple', '--role', 'wizard', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'invalid_params', message: '--role must be one of user, assistant, system, tool, toolResult' } });
  });
});

describe('usage errors say what was typed wrong in the words of the command', () => {
  const cases: Array<[string[], string]> = [
    [['search', ''], 'the query is empty'],
    [['search', ' ', ' '], 'the query is empty'],
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
