import { StewardError, type ParsedParams, type Result } from '../../api/index.js';
import type { Registration } from '../schema.js';
import type { ProfileDeps } from './profiles.js';
import { searchCache } from './retrieval.js';
import { openRagCache } from './store.js';

export type SearchParams = ParsedParams<'Repository.Search'>;
export type SearchAnswer = Result<'Repository.Search'>;

function names(r: Registration, repo: string): boolean {
  const q = repo.toLowerCase();
  const id = r.canonicalRepoId.toLowerCase();
  return id === q || id.endsWith(`/${q}`) || r.aliases.some((a) => a.toLowerCase() === q);
}

/**
 * `Repository.Search`: finds the registration that holds the repository (one indexed for RAG
 * first, then the most recently indexed), opens its cache read-only and searches it. Reading needs
 * no writer admission; a run in progress only delays a read for the length of one commit.
 */
export class RepositorySearch {
  readonly #registrations: () => readonly Registration[];
  readonly #deps: ProfileDeps;

  constructor(registrations: () => readonly Registration[], deps: ProfileDeps) {
    this.#registrations = registrations;
    this.#deps = deps;
  }

  #find(repo: string): Registration {
    const candidates = this.#registrations().filter((r) => names(r, repo));
    if (candidates.length === 0) throw new StewardError('not_found', 'No registered repository cache holds that repository.');
    return [...candidates].sort(
      (a, b) =>
        Number(b.policy.rag === 'maintain') - Number(a.policy.rag === 'maintain') ||
        (b.stages.rag.lastSuccessAt ?? -1) - (a.stages.rag.lastSuccessAt ?? -1) ||
        (a.registrationId < b.registrationId ? -1 : 1),
    )[0]!;
  }

  async search(params: SearchParams): Promise<SearchAnswer> {
    const r = this.#find(params.repo);
    let db;
    try {
      db = openRagCache(r.cachePath, true);
    } catch {
      throw new StewardError('cache_invalid', 'The repository cache cannot be opened for reading.', { pathFingerprint: r.pathFingerprint });
    }
    try {
      const uuid = db.prepare('SELECT cache_uuid FROM cache_identity WHERE singleton = 1').pluck().get() as string | undefined;
      if (uuid?.toLowerCase() !== r.cacheUuid) throw new StewardError('cache_invalid', 'The file at this registration is no longer the registered cache.', { pathFingerprint: r.pathFingerprint });
      const { repo: _repo, ...request } = params;
      return await searchCache(db, { ...request, repoId: r.canonicalRepoId }, { snapshot: r.configSnapshot, policy: r.policy, deps: this.#deps });
    } finally {
      db.close();
    }
  }
}
