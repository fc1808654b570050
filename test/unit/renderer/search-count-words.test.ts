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
      expect(countSentence({ hits, sessions: [], cursor: undefined })).toBe('Showing 4 matches in 3 conversations.');
    }
    expect(countSentence({ hits: [hit('a', 'tool_result')], sessions: [], cursor: undefined })).toBe('Showing 1 match in 1 conversation.');
  });

  it('an empty listing by filters alone names no messages either', () => {
    expect(emptySentence({ hits: [] }, false)).toBe('Nothing matches these filters.');
  });
});

// QA: "5 matches in 3 conversations, not counting 84 more like them", and newest first "… so far; More
// matches looks for others": one sentence whatever the order, what is shown first, then what else is known.
describe('the count line, one sentence whatever the order', () => {
  const hits = [hit('a', 'text'), { ...hit('a', 'text'), partId: 'a:2', alike: 80 }, hit('b', 'text'), { ...hit('c', 'text'), alike: 4 }, { ...hit('c', 'text'), partId: 'c:2' }];
  it('says what is shown, then the repeats folded into it, then whether more may follow', () => {
    expect(countSentence({ hits, sessions: [], cursor: undefined })).toBe('Showing 5 matches in 3 conversations, and 84 more like them.');
    expect(countSentence({ hits, sessions: [], cursor: 'next' })).toBe('Showing 5 matches in 3 conversations, and 84 more like them. More matches looks for others.');
    const one = Array.from({ length: 20 }, (_, i) => ({ ...hit('a', 'text'), partId: `a:${i}` }));
    expect(countSentence({ hits: one, sessions: [], cursor: 'next' })).toBe('Showing 20 matches in 1 conversation. More matches looks for others.');
  });
  it('never says "so far" or "not counting"', () => {
    for (const cursor of [undefined, 'next']) expect(countSentence({ hits, sessions: [], cursor })).not.toMatch(/so far|not counting/);
  });
});
