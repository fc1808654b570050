import { describe, expect, it } from 'vitest';
import type { SearchHit, SearchQueryResult } from '../../../core/api/index.js';
import { formatSearch } from '../../../core/cli/commands/search.js';
import { searchOutput } from '../../../core/mcp/history.js';
import { countSentence } from '../../../renderer/src/places/search/sentences.js';

/** A hit that stands for repeats (SearchHit.alike) says so wherever hits are read, and counts stay of what is listed. */

function hit(n: number, alike?: number): SearchHit {
  return {
    sessionId: 'loop',
    partId: `loop:m${n}:0`,
    projectKey: null,
    ts: Date.UTC(2026, 3, 7, 9, n),
    role: 'assistant',
    snippet: '{"pattern":"retry","path":"src/"}',
    kind: 'tool_use',
    provider: 'claude',
    genuineUserTurn: false,
    isCompactSummary: false,
    toolName: 'Grep',
    summary: 'Grep: retry',
    highlights: [],
    ...(alike === undefined ? {} : { alike }),
  };
}

const result: SearchQueryResult = { hits: [hit(1, 24), hit(2)], sessions: [] };

describe('a hit that stands for repeats', () => {
  it('the panel counts the matches it lists and says the repeats apart', () => {
    expect(countSentence({ ...result, cursor: undefined })).toBe('Showing 2 matches in 1 conversation, and 24 more like them.');
    expect(countSentence({ ...result, cursor: 'next' })).toBe('Showing 2 matches in 1 conversation, and 24 more like them. More matches looks for others.');
  });

  it('the CLI says how many more like it on its line', () => {
    const lines = formatSearch(result).split('\n');
    expect(lines.filter((l) => l.includes('(and 24 more like it)'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('more like it'))).toHaveLength(1);
  });

  it('search_transcripts hands agents the count', () => {
    const out = searchOutput(result, (text) => text);
    expect(out.hits.map((h) => h.alike)).toEqual([24, undefined]);
  });
});
