import type { Handlers } from '../../api/index.js';
import type { RepositorySearch } from './search.js';

/**
 * `Repository.Search`, the repository-cache half of search. `Search.Query` (transcripts) stays the
 * history room's; a caller wanting both asks each and fuses the two ranked lists (reciprocal rank,
 * as here), so neither room learns the other's tables.
 */
export function repositoryHandlers(search: RepositorySearch): Pick<Handlers, 'Repository.Search'> {
  return {
    'Repository.Search': (params) => search.search(params),
  };
}
