import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../core/api/index.js';
import { countSentence, emptySentence } from '../../../renderer/src/places/search/sentences.js';

// QA 45 (B9): with the Tool output chip the count said "4 messages in 3 conversations", though a tool
// result is no message anywhere else. A hit is a match whatever the Kind chip: one word for every chip.

const hit = (sessionId: string, kind: string) => ({ sessionId, partId: `${sessionId}:${kind}`, kind }) as SearchHit;

describe('what a search says it found, whatever the Kind chip', () => {
  it('counts matches, not messages', () => {
    for (const kind of ['text', 'tool_use', 'tool_result', 'thinking']) {
      const hits = [hit('a', kind), hit('b', kind), { ...hit('b', kind), partId: 'b:2' }, hit('c', kind)];
      expect(countSentence({ hits, sessions: [], cursor: undefined })).toBe('4 matches in 3 conversations');
    }
    expect(countSentence({ hits: [hit('a', 'tool_result')], sessions: [], cursor: undefined })).toBe('1 match in 1 conversation');
  });

  it('an empty listing by filters alone names no messages either', () => {
    expect(emptySentence({ hits: [] }, false)).toBe('Nothing matches these filters.');
  });
});
