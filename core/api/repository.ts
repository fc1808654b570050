import { z } from 'zod';
import { RepoId } from './ids.js';
import { COLLECTIONS } from './lists.js';
import { WORDS_ONLY_REASONS } from './maintenance-words.js';

/**
 * Retrieval over repository caches (spec 004's RAG half). Hits carry what a person or agent reads —
 * collection, number, title, a snippet and the forge link — never a cache path.
 */

/**
 * Whether `repo`, as a person names a repository (`ana/uploader`, or a canonical id), names one of
 * `ids`: the id itself, or OWNER/NAME at its end, in any case. The one rule for a `--repo` or `repo` filter.
 */
export function repoMatches(repo: string, ids: ReadonlyArray<string | null>): boolean {
  const wanted = repo.toLowerCase();
  return ids.some((id) => id !== null && (id.toLowerCase() === wanted || id.toLowerCase().endsWith(`/${wanted}`)));
}

/** Why a search used words only: no vectors for this query, with the reason in one word. */
export const SEARCH_DEGRADED = [
  // The profile is `none`: words only by configuration.
  'no_embedder',
  // Nothing is indexed yet: the first index run has not finished.
  'not_indexed',
  // Search indexing is off for the registration: no index run will come (an index built before stays searchable by words).
  'rag_off',
  // The profile changed explicitly; the new profile's namespace is not selected yet.
  'profile_changed',
  // Content changed since the selected namespace was covered; the next reconciliation repairs it.
  'not_covered',
  // The profile would send the query across a data boundary the registration does not allow.
  'boundary_refused',
  // The embedder did not answer the query (down, missing model, rate limited).
  'embedder_unavailable',
] as const;
export type SearchDegraded = (typeof SEARCH_DEGRADED)[number];

/** Each reason in the words a person reads: the one table in maintenance-words.ts, which the panel loads too. */
export const DEGRADED_TEXT: Readonly<Record<SearchDegraded, string>> = WORDS_ONLY_REASONS;

export const RepositoryHit = z.strictObject({
  collection: z.string(),
  /** Issue or pull request number; a comment carries its parent's; wiki pages and documents have none. */
  number: z.number().int().nullable(),
  title: z.string(),
  snippet: z.string(),
  score: z.number(),
  /** The item on its forge (http or https only), or null. */
  url: z.string().nullable(),
  state: z.string().nullable(),
  author: z.string().nullable(),
  updatedAt: z.number().int().nullable(),
  /**
   * The file the hit is about, relative: a document's path within its source, or the file a
   * review (diff-line) comment is on; null for everything else. Never a local location.
   */
  path: z.string().nullable(),
  /** Which lists found it: words (BM25), meaning (vectors), or both. */
  matchedBy: z.array(z.enum(['words', 'meaning'])),
});
export type RepositoryHit = z.infer<typeof RepositoryHit>;

export const RepositorySearchResult = z.strictObject({
  /** The repository searched, as HOST/OWNER/NAME. */
  repo: z.string(),
  hits: z.array(RepositoryHit),
  /**
   * How many hits contain the query's words. 0 beside hits means no item does and these are only the
   * closest in meaning (each still well above what an unrelated item scores by chance).
   */
  wordMatches: z.number().int().min(0),
  degraded: z.enum(SEARCH_DEGRADED).optional(),
  /** The command a person runs to search by meaning again, for this exact repository (with `rag_off`). */
  remedy: z.string().optional(),
});
export type RepositorySearchResult = z.infer<typeof RepositorySearchResult>;

/** The reason a search used words only, in a sentence, with its remedy when there is one. */
export function degradedText(result: Pick<RepositorySearchResult, 'degraded' | 'remedy'>): string {
  if (!result.degraded) return '';
  return result.remedy ? `${DEGRADED_TEXT[result.degraded]}; turn it on with \`${result.remedy}\`` : DEGRADED_TEXT[result.degraded];
}

export const repositoryMethods = {
  'Repository.Search': {
    params: z.strictObject({
      repo: RepoId,
      query: z.string().trim().min(1).max(500),
      collection: z.enum([...COLLECTIONS, 'documents']).optional(),
      state: z.string().regex(/^[a-z_]{1,20}$/).optional(),
      author: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/).optional(),
      label: z.string().min(1).max(100).optional(),
      /** Updated at or after / before, epoch milliseconds. */
      from: z.number().int().min(0).optional(),
      to: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    result: RepositorySearchResult,
  },
} as const;
