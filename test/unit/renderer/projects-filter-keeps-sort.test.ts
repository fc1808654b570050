import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProjectListed } from '../../../core/api/index.js';
import { ProjectTable } from '../../../renderer/src/places/projects/ProjectList.js';

const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim();

const project: ProjectListed = {
  projectKey: 'p1',
  name: 'alpha',
  cwd: '/w/alpha',
  repoId: null,
  repoBacked: false,
  lastActivityAt: 1,
  sessions: 1,
  latestSession: null,
  notes: { state: 'none', words: 'No notes yet.' },
};

const props = (rows: ProjectListed[], filter: string) => ({ rows, filter, onClear: () => undefined, selected: undefined, tableRef: { current: null } });

/**
 * Review: a filter matching nothing replaced the table by its sentence, so the table (and the sort it keeps)
 * was thrown away: sorted by Name, `zz` typed, then erased, the list came back sorted by Last activity.
 * The table stays, hidden, beside the sentence.
 */
describe('the Projects table while the filter matches nothing', () => {
  it('stays in the page, hidden, beside the sentence that says no project matches', () => {
    const html = renderToStaticMarkup(createElement(ProjectTable, props([], 'zz')));
    expect(textOf(html)).toContain('No project matches “zz”.');
    expect(html).toMatch(/<div[^>]*class="project-table"[^>]*hidden=""[^>]*>.*<table/s);
  });

  it('shows no sentence and is not hidden once a project matches', () => {
    const html = renderToStaticMarkup(createElement(ProjectTable, props([project], 'al')));
    expect(textOf(html)).toContain('alpha');
    expect(html).not.toContain('No project matches');
    expect(html).not.toContain('hidden=""');
  });
});
