import { StewardError, type ParsedParams, type Result } from '../../api/index.js';
import { registrationsNamed } from '../lookup.js';
import type { Registration } from '../schema.js';
import { publicRepoId } from '../status.js';
import type { ProfileDeps } from './profiles.js';
import { searchCache } from './retrieval.js';
import { openRagCache } from './store.js';

export type SearchParams = ParsedParams<'Repository.Search'>;
export type SearchAnswer = Result<'Repository.Search'>;

/** Forges whose public host `rag enable --repo OWNER/NAME --forge KIND` reaches without a base URL. */
const DEFAULT_HOSTS: Record<string, string> = { 'github.com': '', 'gitcode.com': ' --forge gitcode' };

/**
 * `rag enable` for exactly this registration: by OWNER/NAME where that names it unambiguously
 * (a public forge's default host, one cache), else by its registration id.
 */
export function enableCommand(r: Registration, all: readonly Registration[]): string {
  const [host, ...path] = r.canonicalRepoId.split('/');
  const forge = host !== undefined && Object.hasOwn(DEFAULT_HOSTS, host) && (r.forge === null || r.forge.host === host) ? DEFAULT_HOSTS[host] : undefined;
  const alone = all.filter((x) => x.canonicalRepoId === r.canonicalRepoId).length === 1;
  const id = publicRepoId(r.canonicalRepoId);
  return forge !== undefined && alone && id === r.canonicalRepoId ? `steward rag enable --repo ${path.join('/')}${forge}` : `steward rag enable --registration ${r.registrationId}`;
}

/**
 * `Repository.Search`: finds the registration that holds the repository (a name two hosts share is
 * refused, see `registrationsNamed`; of several caches of it, one indexed for RAG first, then the
 * most recently indexed), opens its cache read-only and searches it. Reading needs
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
    // Copies of one repository in several caches: the one indexed for search serves it.
    return [...registrationsNamed(this.#registrations(), repo)].sort(
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
      const found = await searchCache(db, { ...request, repoId: r.canonicalRepoId }, { snapshot: r.configSnapshot, policy: r.policy, deps: this.#deps });
      return {
        repo: publicRepoId(r.canonicalRepoId),
        ...found,
        ...(found.degraded === 'rag_off' ? { remedy: enableCommand(r, this.#registrations()) } : {}),
      };
    } finally {
      db.close();
    }
  }
}
