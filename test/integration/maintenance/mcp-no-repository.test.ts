import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../../support/home.js';
import { tempOwnerWithMcp, toolText as text } from '../../support/mcp.js';

// The repository tools are listed whether or not Steward maintains a repository (MCP clients keep the
// list they were given). With none maintained, a call says so and how a person adds one, at once.

const ADD = /steward maintenance enable --repo OWNER\/NAME/;
const owner = tempOwnerWithMcp(() => tempHome('steward-mcp-no-repository-'));
const call = owner.call;

describe('the repository tools when Steward maintains no repository', () => {
  it('lists them all the same', async () => {
    const names = (await owner.client().listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search_repository', 'maintenance_status', 'maintenance_plan', 'enable_cache_maintenance']));
  });

  it('search_repository says none is maintained and how a person adds one (not_found), creating nothing', async () => {
    const result = await call('search_repository', { repo: 'acme/widgets', query: 'crash on upload' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^not_found: Steward maintains no repository yet, so there is none to search\. /);
    expect(text(result)).toMatch(ADD);
    expect(text(result)).toContain('maintenance_plan');
    expect(existsSync(join(owner.home().dir, 'managed-caches.json'))).toBe(false);
  });

  it('maintenance_status says how a person adds one', async () => {
    const result = await call('maintenance_status', {});
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toMatch(/^Steward maintains no repository yet\. /);
    expect(result.content[0]?.text).toMatch(ADD);
    // A filter that matches nothing is not told to add a repository.
    expect((await call('maintenance_status', { repo: 'acme/widgets' })).content[0]?.text).not.toMatch(ADD);
  });
});
