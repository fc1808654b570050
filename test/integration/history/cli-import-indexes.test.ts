import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// A tester's first `steward sweep` with no Steward running: the import was large, so it left its parts
// to the index walk, which only an owner ran; every search then said "still being indexed (0 of …)"
// and found nothing, however often it was asked. A CLI that imports in-process now finishes the walk.

const SESSION = '7a1d3c5e-2b4f-4a6c-8e0d-1f3b5d7a9c2e';
/** Over the 32 MB an import reads before it leaves indexing to the walk: 36 lines of about 1 MB, then many short ones. */
const LINES = 36;
const SHORT_LINES = 3_000;
const uuidOf = (n: number) => `7a1d3c5e-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

let home: TempHome;

beforeAll(() => {
  home = tempHome('steward-cli-indexes-');
  const root = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 3_600_000;
  const filler = ' the quince orchard ledger'.repeat(40_000);
  const lines = Array.from({ length: LINES + SHORT_LINES }, (_, n) =>
    claudeLine({ sessionId: SESSION, cwd: '/work/ledger', ts: new Date(start + n * 1000), type: n % 2 === 0 ? 'user' : 'assistant', uuid: uuidOf(n), text: n < LINES ? `graft${n} wombatling${filler}` : `short line ${n}` }),
  );
  writeJsonl(join(root, 'projects', '-work-ledger', `${SESSION}.jsonl`), lines);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  for (const name of ['STEWARD_CLAUDE_DESKTOP_ROOTS', 'STEWARD_OPENCLAW_ROOTS', 'STEWARD_CODEX_ROOTS', 'STEWARD_GEMINI_ROOTS']) home.env[name] = '';
});

afterAll(() => home?.cleanup());

describe('an import by the CLI with no Steward running', () => {
  it('a search meanwhile says nothing is indexing; a sweep leaves what it imported searchable, saying how far it has come', async () => {
    // An import whose walk was stopped at once (a process that ended): the index is behind.
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Backfill.Run', { provider: 'claude', all: true });
    await core.shutdown();
    const behind = await runIn(home.env, 'search', 'wombatling');
    expect(behind.out).toMatch(/^note: earlier history is still being indexed/m);
    // Both things nobody does (finish the walk, import new transcripts) said in one sentence, not two.
    expect(behind.err).toMatch(/^No Steward is running to finish it or to import new transcripts \((no check of the agents’ folders is on record|the agents’ folders were last checked at [^)]+)\), so asking again will not change this: `steward sweep` finishes it and imports newer messages now/);
    expect(behind.err.match(/No Steward is running/g)).toHaveLength(1);

    const sweep = await runIn(home.env, 'sweep');
    expect(sweep.code).toBe(0);
    expect(sweep.out).toMatch(/^claude: 1 transcript file, already up to date/m);
    expect(sweep.err).toMatch(/^Making the imported history searchable: \d+%…$/m);
    expect(sweep.err).toMatch(/^All of it is searchable now \(indexed in \d+ s\)\.$/m);

    const search = await runIn(home.env, 'search', 'wombatling', '--json');
    expect(search.code).toBe(0);
    // Nothing left to index: only what nobody imports meanwhile is said (MCP's nobodyImportsNote), once.
    // The time as every other line of the CLI prints it (localTime), never a raw ISO stamp (QA).
    expect(search.err).toMatch(/^No Steward is running to import new transcripts \(the agents’ folders were last checked at \d{4}-\d\d-\d\d \d\d:\d\d (UTC|[+-]\d\d:\d\d)\), so newer messages are not here: `steward sweep` imports them now, starting Steward \(`steward serve`\) keeps them coming\.\n$/);
    const result = JSON.parse(search.out) as { hits: unknown[]; indexing?: unknown };
    expect(result.indexing).toBeUndefined();
    expect(result.hits.length).toBeGreaterThan(0);

    // Nothing left to index: a second sweep says nothing of it.
    const again = await runIn(home.env, 'sweep');
    expect(again.err).not.toMatch(/searchable/);
  });
});
