import { describe, expect, it } from 'vitest';
import { DATE_FORMS } from '../../../core/api/index.js';
import { queryOf } from '../../../renderer/src/places/search/filters.js';
import { typedFilters } from '../../../renderer/src/places/search/typed.js';

// QA: filters typed in the box (`project:billing-api`, `role:user since:7d`) were searched as words and
// found nothing, and `since:banana` said nothing of why. A filter the chips have becomes that chip.

const PROJECTS = [
  { projectKey: 'p_billing0000000001', name: 'billing-api', cwd: '/work/billing-api' },
  { projectKey: 'p_app00000000000001', name: 'app', cwd: '/work/acme/app' },
  { projectKey: 'p_app00000000000002', name: 'app', cwd: '/work/old/app' },
];

describe('filters typed in the search box', () => {
  it('become the chips they name, and leave the box', () => {
    expect(typedFilters('project:billing-api tool:Bash', { q: '' }, PROJECTS)).toEqual({ filters: { q: 'tool:Bash', project: 'p_billing0000000001' } });
    expect(typedFilters('role:user since:7d webhook', { q: '' }, PROJECTS)).toEqual({ filters: { q: 'webhook', who: 'me', when: '7d' } });
    expect(typedFilters('kind:tool_result provider:codex  "exact phrase" from:30d', { q: '', sort: 'newest' }, PROJECTS)).toEqual({
      filters: { q: '"exact phrase"', kind: 'tool_result', provider: 'codex', when: '30d', sort: 'newest' },
    });
    expect(typedFilters('Role:Assistant KIND:thinking', { q: '' }, PROJECTS)).toEqual({ filters: { q: '', who: 'assistant', kind: 'thinking' } });
    expect(typedFilters('provider:"Claude Desktop" invoice', { q: '' }, PROJECTS)).toEqual({ filters: { q: 'invoice', provider: 'claude-desktop' } });
  });

  it('ask the contract as the chips would', () => {
    const typed = typedFilters('role:user since:7d webhook', { q: '' }, PROJECTS);
    expect('filters' in typed && queryOf(typed.filters, 1_000_000_000_000)).toMatchObject({ query: 'webhook', role: 'user', genuineUserTurn: true, from: 1_000_000_000_000 - 7 * 86_400_000 });
  });

  it('a chip that cannot meet another typed one lets go of it, as pressing the chips would', () => {
    expect(typedFilters('role:user kind:tool_result', { q: '' }, PROJECTS)).toEqual({ filters: { q: '', who: undefined, kind: 'tool_result' } });
  });

  it('name a bad value plainly, and change nothing', () => {
    expect(typedFilters('since:banana invoice', { q: '' }, PROJECTS)).toEqual({ problem: `since: takes a month (2025-03), ${DATE_FORMS}; not “banana”.` });
    expect(typedFilters('role:robot', { q: '' }, PROJECTS)).toEqual({ problem: 'role: takes user or assistant, not “robot”.' });
    expect(typedFilters('kind:poem', { q: '' }, PROJECTS)).toEqual({ problem: 'kind: takes message, tool_use, tool_result or thinking, not “poem”.' });
    expect(typedFilters('provider:copilot', { q: '' }, PROJECTS)).toEqual({ problem: 'provider: takes claude, claude-desktop, openclaw, codex or gemini, not “copilot”.' });
    expect(typedFilters('project:ledger', { q: '' }, PROJECTS)).toEqual({ problem: 'No project is called “ledger”: pick one in the Project list.' });
    expect(typedFilters('project:app', { q: '' }, PROJECTS)).toEqual({ problem: 'More than one project is called “app”: pick one in the Project list.' });
    expect(typedFilters('since:"" invoice', { q: '' }, PROJECTS)).toEqual({ problem: 'since: needs a value, such as since:7d.' });
  });

  it('leave other words alone: unknown names, URLs, times', () => {
    for (const text of ['tool:Bash', 'http://localhost:3000', 'at 10:30', 'ERR_MODULE_NOT_FOUND', '"project:billing"']) expect(typedFilters(text, { q: '' }, PROJECTS)).toEqual({ filters: { q: text } });
  });

  // Review: `kind: Deployment` (YAML), `role: user` (JSON), `reply to: bob` were refused and nothing ran.
  it('a name with a space or nothing after its colon is search text, not a filter', () => {
    for (const text of ['kind: Deployment', 'role: user', 'reply to: bob', 'since:', 'project: billing-api', 'to:']) expect(typedFilters(text, { q: '' }, PROJECTS)).toEqual({ filters: { q: text } });
    expect(typedFilters('role:user kind: Deployment', { q: '' }, PROJECTS)).toEqual({ filters: { q: 'kind: Deployment', who: 'me' } });
  });

  // Review: while Projects.List was still loading, `project:billing-api` said no project had that name.
  it('a typed project is searched as written, with no refusal, while the projects are not known yet', () => {
    expect(typedFilters('project:billing-api role:user', { q: '' }, undefined)).toEqual({ filters: { q: 'project:billing-api', who: 'me' } });
    expect(typedFilters('project:ledger', { q: '' }, [])).toEqual({ problem: 'No project is called “ledger”: pick one in the Project list.' });
  });
});
