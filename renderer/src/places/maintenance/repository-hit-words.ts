import type { RepositoryHit, RepositorySearchResult, SearchDegraded } from '../../../../core/api/index.js';

/** Why a search used words only, in the panel's words (the contract types the list, so none is missed). */
export const WORDS_ONLY: Record<SearchDegraded, string> = {
  no_embedder: 'This repository is searched by words only: its profile has no embedder.',
  not_indexed: 'Searching by words only: nothing is indexed by meaning yet.',
  // The command that turns it on comes with the result (`remedy`): it names this repository.
  rag_off: 'Searching by words only: search indexing is off for this repository.',
  profile_changed: 'Searching by words only: the embedding profile changed and the new one has not finished indexing.',
  not_covered: 'Searching by words only: new content has not been indexed by meaning yet. The next reconcile does it.',
  boundary_refused: "Searching by words only: this profile would send text beyond what this repository's policy allows.",
  embedder_unavailable: 'Searching by words only: the embedder did not answer.',
};

/** Why a search used words only, with the command that changes it when the result carries one. */
export function wordsOnlyWords(result: Pick<RepositorySearchResult, 'degraded' | 'remedy'>): string {
  if (!result.degraded) return '';
  return result.remedy ? `${WORDS_ONLY[result.degraded]} Turn it on with \`${result.remedy}\`.` : WORDS_ONLY[result.degraded];
}

const KIND: Record<string, string> = { issues: 'Issue', pulls: 'Pull request', wiki: 'Wiki', documents: 'Document' };

/**
 * What a hit is, e.g. "Issue #5", "Comment on #31", "Document · docs/architecture.md". A comment
 * carries its parent's number, so the number is what it is on. The pull-request comments the cache
 * keeps are conversation comments and diff-line (review) comments; only the latter carry a file.
 */
export function hitKindWords(hit: RepositoryHit): string {
  const on = hit.number === null ? '' : ` #${hit.number}`;
  const file = hit.path ? ` · ${hit.path}` : '';
  if (hit.collection === 'issue-comments') return hit.number === null ? 'Comment' : `Comment on${on}`;
  if (hit.collection === 'pr-comments') return `${hit.path ? 'Review comment' : 'Comment'} on pull request${on}${file}`;
  return `${KIND[hit.collection] ?? hit.collection}${on}${file}`;
}
