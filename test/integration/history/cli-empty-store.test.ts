import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

// QA: a new user's first `steward search` on an empty store was told to run `steward sweep` (one
// scheduled check), where what brings in the agents' history is an import of it, `steward backfill`.

let home: TempHome;

beforeAll(() => {
  home = tempHome('steward-cli-empty-');
});

afterAll(() => home?.cleanup());

describe('a search of a store nothing was ever imported into, with no Steward running', () => {
  it('advises `steward backfill` to import the history, not `steward sweep`', async () => {
    const { code, out, err } = await runIn(home.env, 'search', 'apple');
    expect(code).toBe(0);
    expect(out).toBe('No matches.\n');
    expect(err).toMatch(/^No Steward is running to import new transcripts \(no check of the agents’ folders is on record\), so newer messages are not here: `steward backfill` imports your agents’ transcript history now, starting Steward \(`steward serve`\) keeps new ones coming\.\n$/);
    expect(err).not.toContain('steward sweep');
  });
});
