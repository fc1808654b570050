// Forges: GitHub, Gitea/Forgejo, GitCode and local git documents behind one interface (records, pages, trees).
// Never writes a cache, never logs or returns a token, and never follows a forge's words into a message.
import type { ForgeBinding } from './binding.js';
import { githubDialect, githubWikiPageUrl, githubWikiRemote, octokitTransport } from './github.js';
import { giteaDialect } from './gitea.js';
import { gitcodeDialect } from './gitcode.js';
import { giteaWikiTree } from './gitea-wiki.js';
import { remoteWikiTree } from './git.js';
import { fetchTransport, type TransportOptions } from './http.js';
import { RestForge } from './rest.js';
import type { Forge } from './types.js';

export { apiBaseOf, bindingOf, canonicalRepoIdOf, hostOf, namesRepository, repositoryKeyOf, TOKEN_NAMES, type ForgeBinding, type RepositoryKey } from './binding.js';
export { localGitTree, worktreeTree } from './git.js';
export { type TransportOptions } from './http.js';
export {
  FORGE_KINDS,
  ForgeError,
  RateLimited,
  type CommentRecord,
  type Forge,
  type ForgeKind,
  type ItemRecord,
  type ListResult,
  type Stream,
  type StreamRecord,
  type TreeEntry,
  type TreePage,
  type TreeSource,
  type VerifyTarget,
} from './types.js';

interface ForgeOptions extends TransportOptions {
  /** Where a git-backed wiki is mirrored (a private bare repository inside STEWARD_HOME). */
  wikiMirror: string;
  /** Records per page; the forge's maximum (100, Gitea's 50) unless smaller. */
  perPage?: number;
}

/** The forge client for one repository binding, holding its token in memory only. */
export function createForge(binding: ForgeBinding, token: string, options: ForgeOptions): Forge {
  const repoPath = `/repos/${encodeURIComponent(binding.owner)}/${encodeURIComponent(binding.name)}`;
  if (binding.kind === 'github') {
    const wiki = () => remoteWikiTree({ mirror: options.wikiMirror, remote: githubWikiRemote(binding), token, pageUrl: (page) => githubWikiPageUrl(binding, page) });
    return new RestForge(binding, octokitTransport(binding, token, options), githubDialect, wiki, options.perPage);
  }
  if (binding.kind === 'gitea') {
    const transport = fetchTransport(binding.apiBase, { authorization: `token ${token}` }, options);
    return new RestForge(binding, transport, giteaDialect, () => giteaWikiTree(transport, repoPath), options.perPage);
  }
  const transport = fetchTransport(binding.apiBase, { authorization: `Bearer ${token}` }, options);
  return new RestForge(binding, transport, gitcodeDialect, () => null, options.perPage);
}
