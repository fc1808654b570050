import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// `steward sessions show ID --latest`: the end of a long conversation in one step, as the panel opens
// it (Sessions.Get at: 'end'), rather than a page at a time from its start.

const LONG = 'c0ffee00-0000-4000-8000-00000000a7e5';
const TURNS = 30;
/** A conversation of tool rounds: each tool's result is an entry a page holds, which its message count leaves out. */
const TOOLS = 'c0ffee00-0000-4000-8000-00000000a7e6';

let home: TempHome;
const cli = (...argv: string[]) => runIn(home.env, ...argv);

beforeAll(async () => {
  home = tempHome('steward-cli-latest-');
  const root = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 3_600_000;
  writeJsonl(
    join(root, 'projects', '-work-quince', `${LONG}.jsonl`),
    Array.from({ length: TURNS }, (_, i) => claudeLine({ sessionId: LONG, cwd: '/work/quince', ts: new Date(start + i * 60_000), text: `quince step ${i + 1}` })),
  );
  const line = (i: number, o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts'>) => claudeLine({ sessionId: TOOLS, cwd: '/work/quince', ts: new Date(start + i * 60_000), ...o });
  writeJsonl(join(root, 'projects', '-work-quince', `${TOOLS}.jsonl`), [
    line(0, { text: 'list every quince box' }),
    ...Array.from({ length: 6 }, (_, i) => [
      line(1 + 2 * i, { type: 'assistant', content: [{ type: 'tool_use', id: `toolu_q${i}`, name: 'Bash', input: { command: `ls /work/quince/box${i}` } }] }),
      line(2 + 2 * i, { content: [{ type: 'tool_result', tool_use_id: `toolu_q${i}`, content: `box${i}-a.txt` }] }),
    ]).flat(),
    line(20, { type: 'assistant', text: 'Every quince box is listed.' }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
});

afterAll(() => home?.cleanup());

describe('steward sessions show --latest', () => {
  it('shows the last page, says it is the last N of M, and names the --cursor for earlier messages', async () => {
    const { code, out, err } = await cli('sessions', 'show', LONG, '--latest', '--limit', '5');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('quince step 30');
    expect(out).toContain('quince step 26');
    expect(out).not.toContain('quince step 25\n');
    expect(out).toContain(`The last 5 of ${TURNS} messages.`);
    const earlier = /Earlier messages: add --cursor (\S+)/.exec(out)?.[1];
    expect(earlier).toBeDefined();
    expect(out).not.toContain('Later messages');
    // The cursor it names opens the page before it.
    const before = await cli('sessions', 'show', LONG, '--limit', '5', '--cursor', earlier!);
    expect(before.code).toBe(0);
    expect(before.out).toContain('quince step 25\n');
    expect(before.out).not.toContain('quince step 26\n');
  });

  it('with --json: the page as Sessions.Get answers it, its before cursor and no later one', async () => {
    const { code, out } = await cli('sessions', 'show', LONG, '--latest', '--limit', '3', '--json');
    expect(code).toBe(0);
    const page = JSON.parse(out) as { messages: Array<{ parts: Array<{ text: string | null }> }>; before?: string; cursor?: string };
    expect(page.messages.map((m) => m.parts[0]!.text)).toEqual(['quince step 28', 'quince step 29', 'quince step 30']);
    expect(page.before).toBeDefined();
    expect(page.cursor).toBeUndefined();
  });

  it('says what a last page holds in what --limit counts, tool results apart from messages', async () => {
    const json = JSON.parse((await cli('sessions', 'show', TOOLS, '--latest', '--limit', '3', '--json')).out) as { session: { messages: number }; messages: Array<{ countsAsMessage?: false }> };
    const results = json.messages.filter((m) => m.countsAsMessage === false).length;
    expect(results).toBeGreaterThan(0);
    const { code, out } = await cli('sessions', 'show', TOOLS, '--latest', '--limit', '3');
    expect(code).toBe(0);
    expect(out).toContain(`The last 3 entries: ${3 - results} message${3 - results === 1 ? '' : 's'} and ${results} tool result${results === 1 ? '' : 's'} (--limit counts both).`);
    expect(out).not.toMatch(/The last 3 of \d+ messages/);
  });

  it('says nothing of a last page when the whole conversation fits', async () => {
    const { code, out } = await cli('sessions', 'show', LONG, '--latest');
    expect(code).toBe(0);
    expect(out).toContain('quince step 1\n');
    expect(out).not.toContain('The last');
    expect(out).not.toContain('Earlier messages');
  });

  it('refuses --latest with --cursor or --part, a usage error saying why', async () => {
    const cursor = await cli('sessions', 'show', LONG, '--latest', '--cursor', 'abc');
    expect(cursor.code).toBe(2);
    expect(cursor.err).toMatch(/^steward: --latest and --cursor cannot be combined: /);
    const part = await cli('sessions', 'show', LONG, '--latest', '--part', 'cc:x:0', '--json');
    expect(part.code).toBe(2);
    expect(JSON.parse(part.out)).toMatchObject({ error: { code: 'invalid_params', message: expect.stringMatching(/^--latest and --part cannot be combined: /) } });
  });
});
