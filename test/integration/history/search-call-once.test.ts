import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params } from '../../../core/index.js';
import { runIn } from '../../support/cli.js';
import { historyHome } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

/**
 * A tool call's hit reads as the call once: its line ("Bash: npm run build:calendar") says the command,
 * and its snippet what else the call said (its description), as words, never the call's JSON.
 * QA: `steward search` printed `Bash: npm run build:calendar: {"command":"npm run build:calendar",…}`.
 */

let home: TempHome;
let core: Core;

beforeAll(async () => {
  ({ home } = historyHome('steward-search-call-once-'));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

const hitsOf = async (params: Params<'Search.Query'>) => (await core.call('Search.Query', params)).hits;

describe('a tool call found by a search', () => {
  it('Search.Query: the snippet is no JSON and does not say the command its line says', async () => {
    for (const redact of [false, true]) {
      const [hit] = await hitsOf({ query: 'calendar', kind: 'tool_use', redact });
      expect(hit!.summary).toBe('Bash: npm run build:calendar');
      expect(hit!.snippet).not.toContain('{');
      expect(hit!.snippet).not.toContain('npm run build:calendar');
      // The rest of the call, its match highlighted.
      expect(hit!.snippet).toBe('description: Build the calendar');
      expect(hit!.highlights.map(([a, b]) => hit!.snippet.slice(a, b))).toEqual(['calendar']);
    }
  });

  it('a call whose line says all of it has no snippet beside it', async () => {
    const [hit] = await hitsOf({ query: 'load_settings', kind: 'tool_use' });
    expect(hit!.summary).toBe('Read: /work/orchard/src/config/load_settings.ts');
    expect(hit!.snippet).toBe('');
  });

  it('steward search prints the call once', async () => {
    const calendar = await runIn(home.env, 'search', 'calendar', '--kind', 'tool_use');
    const line = calendar.out.split('\n').find((l) => l.includes('Tool call'))!;
    expect(line).toMatch(/Assistant · Tool call Bash: npm run build:calendar: description: Build the calendar$/);
    const read = await runIn(home.env, 'search', 'load_settings', '--kind', 'tool_use');
    expect(read.out.split('\n').find((l) => l.includes('Tool call'))).toMatch(/Assistant · Tool call Read: \/work\/orchard\/src\/config\/load_settings\.ts$/);
  });
});
