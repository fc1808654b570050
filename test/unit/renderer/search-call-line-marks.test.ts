import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../core/api/index.js';
import { SessionGroup } from '../../../renderer/src/places/search/Results.js';

const SUMMARY = "Bash: git commit -am 'trees: cursor pagination'";
const hit = (more: Partial<SearchHit> = {}): SearchHit => ({
  sessionId: 's1',
  partId: 'cc:m1:0',
  projectKey: null,
  ts: null,
  role: 'assistant',
  snippet: '',
  kind: 'tool_use',
  provider: 'claude',
  genuineUserTurn: false,
  isCompactSummary: false,
  toolName: 'Bash',
  summary: SUMMARY,
  highlights: [],
  ...more,
});
const summaryOf = (html: string) => /<span class="search-hit__summary">(.*?)<\/span>/.exec(html)?.[1];

/** Panel QA (issue 12): a hit whose only match was in a tool call's one line showed it unmarked. */
describe('a search hit’s tool call line', () => {
  it('marks the matches the hit gives for it', () => {
    const at = SUMMARY.indexOf('cursor');
    const html = renderToStaticMarkup(createElement(SessionGroup, { session: undefined, sessionId: 's1', hits: [hit({ summaryHighlights: [[at, at + 6]] })] }));
    expect(summaryOf(html)).toBe('Bash: git commit -am &#x27;trees: <mark>cursor</mark> pagination&#x27;');
  });

  it('reads as it is without marks', () => {
    const html = renderToStaticMarkup(createElement(SessionGroup, { session: undefined, sessionId: 's1', hits: [hit()] }));
    expect(summaryOf(html)).toBe('Bash: git commit -am &#x27;trees: cursor pagination&#x27;');
    expect(html).not.toContain('<mark>');
  });
});
