import { describe, expect, it } from 'vitest';
import type { SearchQueryResult } from '../../../core/api/index.js';
import { indexingNote } from '../../../core/api/indexing-words.js';
import { formatSearch } from '../../../core/cli/commands/search.js';
import { searchOutput } from '../../../core/mcp/history.js';
import { indexingSentence } from '../../../renderer/src/places/search/sentences.js';

const retagging: SearchQueryResult = { hits: [], sessions: [], indexing: { phase: 'retag', indexedParts: 4_217, totalParts: 10_000 } };
const indexing: SearchQueryResult = { hits: [], sessions: [], indexing: { phase: 'index', indexedParts: 300, totalParts: 1_200 } };
/** An owner from before the re-tag walk reported progress sends no phase: its figure is the index walk's. */
const older: SearchQueryResult = { hits: [], sessions: [], indexing: { indexedParts: 300, totalParts: 1_200 } };

describe('what a search says while the index is re-tagged', () => {
  it('says the index is being updated, how much is checked (rounded down), and that some matches may be missing', () => {
    expect(indexingNote(retagging.indexing!)).toBe('Updating the search index: 42% checked; until it is done, some matches may be missing.');
    // Never "100%" before the walk has ended.
    expect(indexingNote({ phase: 'retag', indexedParts: 9_999, totalParts: 10_000 })).toContain(' 99% checked');
    expect(indexingNote({ phase: 'retag', indexedParts: 0, totalParts: 0 })).toContain(' 0% checked');
  });

  it('steward search prints it as a note, and keeps the index walk’s words for the index walk', () => {
    expect(formatSearch(retagging)).toContain('note: Updating the search index: 42% checked; until it is done, some matches may be missing.');
    expect(formatSearch(retagging)).not.toContain('earlier history');
    for (const result of [indexing, older]) expect(formatSearch(result)).toContain('note: earlier history is still being indexed (300 of 1,200 parts)');
  });

  it('the panel’s Search place says it under the box', () => {
    expect(indexingSentence(retagging.indexing!)).toBe('Updating the search index: 42% checked; until it is done, some matches may be missing.');
    expect(indexingSentence(indexing.indexing!)).toMatch(/^Earlier history is still being indexed \(25% done\); some of it is not searchable yet\.$/);
    expect(indexingSentence(older.indexing!)).toBe(indexingSentence(indexing.indexing!));
  });

  it('the MCP search tool says it in its note', () => {
    const redact = (text: string) => text;
    expect(searchOutput(retagging, redact).note).toBe('Updating the search index: 42% checked; until it is done, some matches may be missing.');
    expect(searchOutput(indexing, redact).note).toBe('Earlier history is still being indexed (300 of 1,200 parts).');
    // Both counts with separators, as the CLI says them.
    expect(searchOutput({ ...indexing, indexing: { ...indexing.indexing!, indexedParts: 114_594, totalParts: 120_000 } }, redact).note).toBe('Earlier history is still being indexed (114,594 of 120,000 parts).');
  });
});
