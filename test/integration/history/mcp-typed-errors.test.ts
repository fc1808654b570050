import { describe, expect, it } from 'vitest';
import { historyHome, IDS } from '../../support/history.js';
import { tempOwnerWithMcp, toolText as text } from '../../support/mcp.js';

// Every tool, one rule: an argument a tool does not take is refused, and every error an agent gets
// begins with its typed code (`invalid_params: …`, `not_found: …`), then words saying what to change.

const owner = tempOwnerWithMcp(
  () => historyHome('steward-mcp-typed-errors-').home,
  (core) => core.call('Backfill.Run', { all: true }),
);
const call = owner.call;

describe('an argument a tool does not take', () => {
  /** Each tool's required arguments, so that the unknown one is all a call gets refused for. */
  const TAKEN: Readonly<Record<string, Record<string, unknown>>> = {
    list_projects: {},
    project_overview: { cwd: '/home/ana/src/uploader' },
    search_transcripts: { query: 'cloth' },
    get_session: { session_id: IDS.pruning },
    search_repository: { repo: 'acme/orchard', query: 'cloth' },
    maintenance_status: {},
    maintenance_plan: { repo: 'acme/orchard' },
    enable_cache_maintenance: { repo: 'acme/orchard', plan_id: 'plan-1', idempotency_key: 'key-1', write_mode: 'live' },
  };

  it('is refused by every listed tool, in the same words, before the tool runs', async () => {
    const { tools } = await owner.client().listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TAKEN).sort());
    for (const tool of tools) {
      const result = await call(tool.name, { ...TAKEN[tool.name], bogus: 1 });
      expect(result.isError, tool.name).toBe(true);
      expect(text(result), tool.name).toBe(`invalid_params: Input validation error: Invalid arguments for tool ${tool.name}: bogus is not part of this request`);
    }
  });

  it('is refused beside arguments the tool takes (list_projects, project_overview), before Steward is asked', async () => {
    expect(text(await call('list_projects', { bogus: 1 }))).toBe('invalid_params: Input validation error: Invalid arguments for tool list_projects: bogus is not part of this request');
    const overview = await call('project_overview', { cwd: '/home/ana/src/uploader', extra: 1 });
    expect(overview.isError).toBe(true);
    expect(text(overview)).toBe('invalid_params: Input validation error: Invalid arguments for tool project_overview: extra is not part of this request');
  });

  it('is advertised: no tool lists an object that takes more than its named arguments', async () => {
    const { tools } = await owner.client().listTools();
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  });
});

describe('a tool error', () => {
  it('says from after to with its code and what to change', async () => {
    const result = await call('search_transcripts', { query: 'x', from: '30d', to: '60d' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^invalid_params: from "30d" \(\S+\) is after to "60d" \(\S+\): nothing can match; give a from no later than the to$/);
  });

  it('says a cursor this search did not give out with its code', async () => {
    const result = await call('search_transcripts', { query: 'cloth', cursor: 'not-a-cursor' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('invalid_params: The cursor is not one this request gave out; start again without it');
  });

  it('says a query of operators alone with its code', async () => {
    const result = await call('search_transcripts', { query: 'AND' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('invalid_params: “AND” has no words to search for: give words, or at least one filter');
  });

  it('says the refusals a tool makes itself with their codes', async () => {
    expect(text(await call('search_transcripts', { query: ' ' }))).toMatch(/^invalid_params: Give a query, or at least one filter/);
    expect(text(await call('get_session', { session_id: IDS.pruning, from_char: 10 }))).toBe('invalid_params: from_char reads on in one part: give the part_id its words named too.');
    const nowhere = await call('project_overview', { cwd: '/nowhere/at/all' });
    expect(nowhere.isError).toBe(true);
    expect(text(nowhere)).toMatch(/^not_found: Steward knows no project containing that folder yet\. list_projects/);
    expect(text(await call('get_session', { session_id: 'no-such-session' }))).toMatch(/^not_found: no stored conversation has the session_id "no-such-session"/);
  });
});
