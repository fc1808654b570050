import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { type HistoryFixture, historyHome, IDS, KITCHEN, ORCHARD } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine } from '../../support/transcripts.js';

let home: TempHome | undefined;

afterEach(() => {
  home?.cleanup();
  home = undefined;
});

function setUp(): { home: TempHome; fixture: HistoryFixture } {
  const made = historyHome('steward-cli-exclude-');
  home = made.home;
  return made;
}

/** config.json as a person edits it between two commands (each command is an owner of its own). */
const configure = (h: TempHome, config: unknown) => writeFileSync(join(h.dir, 'config.json'), JSON.stringify(config));

const cli = (h: TempHome, ...argv: string[]) => runIn(h.env, ...argv);

/** The conversations a query finds, once each. */
async function found(h: TempHome, query: string): Promise<string[]> {
  const { code, out } = await cli(h, 'search', query, '--json');
  expect(code).toBe(0);
  return [...new Set((JSON.parse(out) as { hits: Array<{ sessionId: string }> }).hits.map((hit) => hit.sessionId))].sort();
}

const claudeLineOf = (out: string) => out.split('\n').find((line) => line.startsWith('claude:')) ?? '';

const kitchenFile = (fixture: HistoryFixture) => join(fixture.claudeRoot, 'projects', '-work-kitchen', `${IDS.kitchen}.jsonl`);

describe('lifting capture.exclude', () => {
  it('the next sweep imports the folder the backfill held back, instead of calling it up to date', async () => {
    const { home: h } = setUp();
    configure(h, { capture: { exclude: [KITCHEN] } });
    const backfill = await cli(h, 'backfill', '--all', '--json');
    expect(backfill.code).toBe(0);
    const claude = (JSON.parse(backfill.out) as { providers: Array<{ provider: string; withheld?: { excluded: number } }> }).providers.find((p) => p.provider === 'claude');
    expect(claude?.withheld?.excluded).toBe(3);
    expect(await found(h, 'crumble')).toEqual([]);

    configure(h, {});
    const sweep = await cli(h, 'sweep');
    expect(sweep.code).toBe(0);
    // Not "4 transcript files, already up to date": the kitchen's file is read again, its 3 messages land.
    expect(claudeLineOf(sweep.out)).toMatch(/^claude: 4 transcript files, 1 read, 3 already up to date; 3 new messages/);
    expect(await found(h, 'crumble')).toEqual([IDS.kitchen]);
    // Read once: the file's new checkpoint vouches for every line, so the next sweep has nothing to do.
    expect(claudeLineOf((await cli(h, 'sweep')).out)).toMatch(/^claude: 4 transcript files, already up to date/);
  });

  it('while the exclusion stands, a held-back file is not read again; lines of another folder read on from its checkpoint still leave it marked', async () => {
    const { home: h, fixture } = setUp();
    configure(h, { capture: { exclude: [KITCHEN, '/work/attic/**'] } });
    expect((await cli(h, 'backfill', '--all')).code).toBe(0);
    // The same exclusion, written in another order and with a repeat: nothing to read again.
    configure(h, { capture: { exclude: ['/work/attic/**', KITCHEN, KITCHEN] } });
    expect(claudeLineOf((await cli(h, 'sweep')).out)).toMatch(/^claude: 4 transcript files, already up to date/);
    // A folder added to the list holds back more, never less: still nothing to read again.
    configure(h, { capture: { exclude: ['/work/attic/**', KITCHEN, '/work/cellar/**'] } });
    expect(claudeLineOf((await cli(h, 'sweep')).out)).toMatch(/^claude: 4 transcript files, already up to date/);

    // A resumed read whose new lines nothing holds back: the lines before its resume point still were.
    appendJsonl(kitchenFile(fixture), [claudeLine({ sessionId: 'c0ffee00-0000-4000-8000-000000000001', cwd: ORCHARD, text: 'A note about the quince hedge.' })]);
    const resumed = await cli(h, 'sweep', '--json');
    const claude = (JSON.parse(resumed.out) as { providers: Array<{ provider: string; read: number; partsWritten: number; withheld?: unknown }> }).providers.find((p) => p.provider === 'claude');
    expect(claude).toMatchObject({ read: 1, partsWritten: 1 });
    expect(claude?.withheld).toBeUndefined();
    expect(await found(h, 'quince')).toEqual(['c0ffee00-0000-4000-8000-000000000001']);
    expect(await found(h, 'crumble')).toEqual([]);

    configure(h, { capture: { exclude: ['/work/attic/**'] } });
    expect(claudeLineOf((await cli(h, 'sweep')).out)).toMatch(/^claude: 4 transcript files, 1 read, 3 already up to date; 3 new messages/);
    expect(await found(h, 'crumble')).toEqual([IDS.kitchen]);
  });
});
