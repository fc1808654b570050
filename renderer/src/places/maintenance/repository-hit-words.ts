import type { RepositoryHit, RepositorySearchResult, SearchDegraded } from '../../../../core/api/index.js';
import { WORDS_ONLY_REASONS } from '../../../../core/api/maintenance-words.js';

/** The CLI's and MCP's clause for each reason (one table), typed against the contract so none is missed. */
const REASONS: Readonly<Record<SearchDegraded, string>> = WORDS_ONLY_REASONS;

/** Why a search used words only, as the panel's sentence, with the command that changes it when the result carries one. */
export function wordsOnlyWords(result: Pick<RepositorySearchResult, 'degraded' | 'remedy'>): string {
  if (!result.degraded) return '';
  const words = `Searching by words only: ${REASONS[result.degraded]}.`;
  return result.remedy ? `${words} Turn it on with \`${result.remedy}\`.` : words;
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
