import { createElement, createRef } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../core/api/index.js';
import { filterNames } from '../../../renderer/src/places/search/Chips.js';
import { withoutFilters, type SearchFilters } from '../../../renderer/src/places/search/filters.js';
import { SearchResults } from '../../../renderer/src/places/search/SearchResults.js';

const EMPTY: Result<'Search.Query'> = { hits: [], sessions: [] } as unknown as Result<'Search.Query'>;
const PROJECTS = [{ projectKey: 'p_0123456789abcdef', name: 'billing-api', cwd: '/code/billing-api' }];
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const shown = (filters: SearchFilters, result = EMPTY) =>
  textOf(renderToStaticMarkup(createElement(SearchResults, { result, filters, projects: PROJECTS, loading: false, onMore: () => undefined, box: createRef<HTMLInputElement>(), ref: null })));

describe('an empty search with filters on', () => {
  const filters: SearchFilters = { q: 'invoice', who: 'me', project: 'p_0123456789abcdef', when: '7d', sort: 'newest' };

  it('names the filters in use and offers to search the same words without them', () => {
    const said = shown(filters);
    expect(said).toContain('No conversation matches that.');
    expect(said).toContain('Filters in use: What I said, Past week, project billing-api.');
    expect(said).toContain('Search without filters');
  });

  it('without them keeps the words and the order, and drops every filter', () => {
    expect(withoutFilters(filters)).toEqual({ q: 'invoice', sort: 'newest' });
  });

  it('names each chip as the chips do, and a project not in the list by its key', () => {
    expect(filterNames({ q: 'x', kind: 'tool_use', provider: 'claude-desktop' }, [])).toEqual(['Tool calls', 'Claude Desktop']);
    expect(filterNames({ q: 'x', project: 'p_ffff' }, [])).toEqual(['project p_ffff']);
    expect(filterNames({ q: 'x', sort: 'newest' }, [])).toEqual([]);
  });

  it('with no filter on, or no words, offers nothing to drop', () => {
    expect(shown({ q: 'invoice', sort: 'newest' })).not.toContain('Search without filters');
    expect(shown({ q: 'invoice' })).toContain('No conversation matches that.');
    expect(shown({ q: '', who: 'me' })).not.toContain('Search without filters');
  });
});
