import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// A tester's conversations opened with prompts of about 300 characters: each filled a terminal's
// width several times over in `sessions list` and as a search's heading. A list line names it in one line.

const SESSION = 'ee110000-1111-4222-8333-444455556666';
const PROMPT = `Please look at the greenhouse\ncontroller ${'and the vents and the heaters and the sensors '.repeat(7)}then tell me what is wrong`;

let home: TempHome;

beforeAll(() => {
  home = tempHome('steward-long-titles-');
  const root = join(home.dir, 'claude');
  writeJsonl(join(root, 'projects', '-work-greenhouse', `${SESSION}.jsonl`), [
    claudeLine({ sessionId: SESSION, cwd: '/work/greenhouse', ts: new Date(Date.now() - 60_000), text: PROMPT }),
    claudeLine({ sessionId: SESSION, cwd: '/work/greenhouse', ts: new Date(Date.now() - 50_000), type: 'assistant', text: 'The vent motor is stuck.' }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  for (const name of ['STEWARD_CLAUDE_DESKTOP_ROOTS', 'STEWARD_OPENCLAW_ROOTS', 'STEWARD_CODEX_ROOTS', 'STEWARD_GEMINI_ROOTS']) home.env[name] = '';
});

afterAll(() => home?.cleanup());

describe('a conversation named by a long first request', () => {
  it('is named on one line of at most 100 characters in sessions list and in a search heading', async () => {
    expect(PROMPT.length).toBeGreaterThan(300);
    expect((await runIn(home.env, 'sweep')).code).toBe(0);
    const list = await runIn(home.env, 'sessions', 'list');
    const row = list.out.split('\n').find((l) => l.startsWith(SESSION))!;
    expect(row).toMatch(/ Please look at the greenhouse controller and the vents .*…$/);
    expect(row.slice(row.indexOf('Please'))).toHaveLength(100);
    const search = await runIn(home.env, 'search', 'vent', 'motor');
    const heading = search.out.split('\n').find((l) => l.includes(SESSION))!;
    expect(heading).toMatch(/^Please look at the greenhouse controller .{40,}… — greenhouse · /);
  });
});
