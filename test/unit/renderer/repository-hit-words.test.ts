import { describe, expect, it } from 'vitest';
import { degradedText, SEARCH_DEGRADED, type RepositoryHit } from '../../../core/api/index.js';
import { WORDS_ONLY_REASONS } from '../../../core/api/maintenance-words.js';
import { hitKindWords, wordsOnlyWords } from '../../../renderer/src/places/maintenance/repository-hit-words.js';

function hit(over: Partial<RepositoryHit>): RepositoryHit {
  return { collection: 'issues', number: null, title: 't', snippet: '', score: 1, url: null, state: null, author: null, updatedAt: null, path: null, matchedBy: ['words'], ...over };
}

describe('what the repository search panel calls a hit', () => {
  it('names a comment as on its issue or pull request, not as if the number were its own', () => {
    expect(hitKindWords(hit({ collection: 'issue-comments', number: 31 }))).toBe('Comment on #31');
    expect(hitKindWords(hit({ collection: 'issues', number: 31 }))).toBe('Issue #31');
    expect(hitKindWords(hit({ collection: 'pulls', number: 12 }))).toBe('Pull request #12');
  });

  it('calls only a diff-line comment a review comment; a conversation comment is a comment on the pull request', () => {
    expect(hitKindWords(hit({ collection: 'pr-comments', number: 12 }))).toBe('Comment on pull request #12');
    expect(hitKindWords(hit({ collection: 'pr-comments', number: 12, path: 'src/editor/undo.ts' }))).toBe('Review comment on pull request #12 · src/editor/undo.ts');
  });

  it("shows a document's path within its source beside its title", () => {
    expect(hitKindWords(hit({ collection: 'documents', title: 'architecture', path: 'docs/architecture.md' }))).toBe('Document · docs/architecture.md');
    expect(hitKindWords(hit({ collection: 'documents', title: 'README' }))).toBe('Document');
    expect(hitKindWords(hit({ collection: 'wiki', title: 'Home' }))).toBe('Wiki');
  });

  it('says search indexing is off, and how to turn it on, rather than promising a first run', () => {
    expect(WORDS_ONLY_REASONS.rag_off).toMatch(/search indexing is off for this repository/i);
    expect(WORDS_ONLY_REASONS.rag_off).not.toMatch(/yet/);
    // The command comes with the result, naming this repository (never an OWNER/NAME placeholder).
    const words = wordsOnlyWords({ degraded: 'rag_off', remedy: 'steward rag enable --repo acme/widgets' });
    expect(words).toBe('Searching by words only: search indexing is off for this repository. Turn it on with `steward rag enable --repo acme/widgets`.');
    expect(words).not.toContain('OWNER/NAME');
  });

  it('says each reason in the words the CLI and MCP say it: one table for every surface', () => {
    for (const degraded of SEARCH_DEGRADED) {
      const reason = WORDS_ONLY_REASONS[degraded];
      expect(reason).toMatch(/^[a-z].*[^.]$/);
      expect(degradedText({ degraded })).toBe(reason);
      expect(wordsOnlyWords({ degraded })).toBe(`Searching by words only: ${reason}.`);
    }
  });
});
