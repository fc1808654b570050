import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NoProjectMatches } from '../../../renderer/src/places/projects/ProjectList.js';

const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim();

/** QA: a filter matching nothing showed "0 of 7 projects" above an empty table. */
describe('a Projects filter that matches nothing', () => {
  it('says no project matches what was typed, with a button that clears the filter', () => {
    const html = renderToStaticMarkup(createElement(NoProjectMatches, { filter: 'zzzz', onClear: () => undefined }));
    expect(textOf(html)).toContain('No project matches “zzzz”.');
    expect(html).toMatch(/<button[^>]*>[^<]*(<[^>]+>[^<]*)*Clear filter/);
  });
});
