import { describe, expect, it } from 'vitest';
import type { SearchHit, SearchQueryResult, SearchSession } from '../../../core/api/index.js';
import { formatSearch } from '../../../core/cli/commands/search.js';

function hit(sessionId: string, n: number): SearchHit {
  return { sessionId, partId: `${sessionId}:m${n}:0`, projectKey: null, ts: Date.UTC(2026, 10, 1, 8, n), role: 'assistant', snippet: `match ${n}`, kind: 'text', provider: 'claude', genuineUserTurn: false, isCompactSummary: false, toolName: null, summary: null, highlights: [] };
}

function session(sessionId: string, title: string): SearchSession {
  return { sessionId, parentSessionId: null, parentKind: null, projectKey: null, projectName: 'orchard', provider: 'claude', app: 'Claude Code', title, firstRequest: null, lastAt: null };
}

describe('steward search in a terminal', () => {
  it('prints each conversation once, its hits together, when the ranking interleaves conversations', () => {
    // Relevance order: kitchen, pruning, pruning, kitchen, pruning.
    const result: SearchQueryResult = {
      hits: [hit('kitchen', 1), hit('pruning', 2), hit('pruning', 3), hit('kitchen', 4), hit('pruning', 5)],
      sessions: [session('kitchen', 'Apple crumble'), session('pruning', 'Winter pruning plan')],
    };
    const text = formatSearch(result);
    expect(text.match(/^Apple crumble — /gm)).toHaveLength(1);
    expect(text.match(/^Winter pruning plan — /gm)).toHaveLength(1);
    // Conversations in the order of their best hit; each one's hits in rank order under it.
    expect(text.split('\n').filter((l) => l.startsWith('  ')).map((l) => l.replace(/^.*: /, ''))).toEqual(['match 1', 'match 4', 'match 2', 'match 3', 'match 5']);
  });
});
