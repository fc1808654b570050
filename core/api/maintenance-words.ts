// Maintenance in the words people read, for the status line, the CLI and the panel alike (one rule,
// never a raw error class or a "-" placeholder): why a cache's sync or index stage failed, what a
// registration's state, frontiers and generations are called, and the order of what needs the person.
// It imports nothing, as import-words.ts, so the panel can load it at run time.

/** The named secret each forge's token is kept under (`steward secrets set NAME`), by forge kind: the one list (forge bindings, `Secrets.List`). */
export const FORGE_TOKEN_NAMES: Readonly<Record<string, string>> = { github: 'GITHUB_TOKEN', gitea: 'GITEA_TOKEN', gitcode: 'GITCODE_TOKEN' };

/** The token's secret name for a registration's forge; GITHUB_TOKEN when the forge is not known. */
export function tokenNameOf(forge: { kind: string } | null | undefined): string {
  return FORGE_TOKEN_NAMES[forge?.kind ?? ''] ?? 'GITHUB_TOKEN';
}

const FIXED: Readonly<Record<string, string>> = {
  forge_unavailable: 'the forge did not answer',
  forge_refused: 'the forge refused the request (the token may not give access to this repository)',
  forge_malformed: 'the forge sent a reply Steward could not read',
  wiki_unavailable: 'the wiki could not be fetched',
  rate_limited: "the forge's rate limit is used up; Steward tries again when it resets",
  forge_unknown: 'the cache does not say which forge it syncs from (add the repository again with `steward maintenance add`)',
  interrupted: 'it was interrupted (Steward stopped while it ran)',
  cache_writer_busy: 'another program was writing to the cache',
  cache_invalid: 'the cache file is not one Steward can use',
  embedder_unavailable: 'the embedding service did not answer',
  embedder_rate_limited: "the embedding service's rate limit is used up",
  embedder_failed: 'the embedding service failed',
  model_missing: 'the embedding model is not downloaded',
  boundary_refused: 'the embedding profile would send text further than was confirmed',
  internal: "Steward itself failed (its logs say more)",
};

/** The API root each self-hosted forge answers under: what a base URL without it misses. */
const API_ROOTS: Readonly<Record<string, { name: string; root: string }>> = { github: { name: 'GitHub Enterprise', root: '/api/v3' }, gitea: { name: 'Gitea', root: '/api/v1' } };

/**
 * A 404 from the forge for the repository. `forge_not_found`: Steward asked the base URL's root and it
 * answered as an API root, so the base URL is right and only the owner or name can be wrong.
 * `forge_not_found_unchecked`: the root could not be asked (no answer, a refusal). On github.com or
 * gitcode.com the base URL is Steward's own; on a self-hosted forge a base URL without its API root
 * (`https://HOST` for `https://HOST/api/v3`) answers 404 too, so then the words say which root it needs.
 * The setting is named as itself, never as one surface's flag: the words reach MCP and the panel too.
 */
function notFoundWords(rootChecked: boolean, forge: { kind: string; host?: string } | null | undefined): string {
  if (rootChecked) return 'the forge has no such repository (check the owner and name; the base URL answers as the forge API)';
  const root = API_ROOTS[forge?.kind ?? ''];
  if (!root || !forge?.host || forge.host === 'github.com') return 'the forge has no such repository (check the name and the base URL)';
  return `the forge has no such repository: check the name, then the forge's API address (base URL): ${root.name} needs https://${forge.host}${root.root}`;
}

/** Where the API root of a forge's own public host is (no self-hosted /api path to add there). */
const PUBLIC_ROOTS: Readonly<Record<string, { host: string; name: string; url: string }>> = {
  github: { host: 'github.com', name: 'GitHub', url: 'https://api.github.com' },
  gitcode: { host: 'gitcode.com', name: 'GitCode', url: 'https://api.gitcode.com/api/v5' },
};

/** The base URL answers but is no API root (Steward asked the root itself): the exact address it needs. */
function apiRootWords(forge: { kind: string; host?: string } | null | undefined): string {
  const host = forge?.host;
  const publicRoot = PUBLIC_ROOTS[forge?.kind ?? ''];
  const own = publicRoot && publicRoot.host === host ? publicRoot : undefined;
  const root = API_ROOTS[forge?.kind ?? ''];
  if (!host || (!own && !root)) return "the base URL is not the forge's API root: check the forge's API address (base URL)";
  const needs = own ? `${own.name} needs ${own.url}` : `${root!.name} needs https://${host}${root!.root}`;
  return `${host} is not the forge's API root: ${needs}`;
}

/**
 * A stage's error class said as a person reads it, with what to do where the person can do something:
 * `forge_unauthorized` names the secret that holds this forge's token. Unknown classes read as words.
 */
export function failureWords(errorClass: string, forge?: { kind: string; host?: string } | null): string {
  if (errorClass === 'forge_not_found' || errorClass === 'forge_not_found_unchecked') return notFoundWords(errorClass === 'forge_not_found', forge);
  if (errorClass === 'forge_api_root') return apiRootWords(forge);
  if (errorClass === 'forge_unauthorized') return `the forge refused the token: set a new one with \`steward secrets set ${tokenNameOf(forge)}\``;
  if (errorClass === 'token_missing') return `no token is stored: store one with \`steward secrets set ${tokenNameOf(forge)}\``;
  if (errorClass === 'io_enospc') return 'the disk is full';
  if (errorClass === 'io_eacces' || errorClass === 'io_eperm') return 'Steward may not read or write the cache file';
  if (errorClass.startsWith('io_')) return `the cache file could not be read or written (${errorClass.slice(3).toUpperCase()})`;
  return FIXED[errorClass] ?? errorClass.replace(/_/g, ' ');
}

/**
 * What only the person can settle: a cache conflict's choice, a maintenance plan waiting for their
 * confirmation. Nothing moves until they act, while Steward retries a failure on its own; so these lead
 * the status headline, its details and Home's "Needs you" list alike.
 */
export const DECISION_KINDS: readonly string[] = ['conflict', 'plan-waiting'];

export function isDecision(item: { kind: string }): boolean {
  return DECISION_KINDS.includes(item.kind);
}

/** The one order of what needs the person or failed: decisions first, then failures, then the rest of what needs the person. */
export function byUrgency<T extends { kind: string }>(lists: { errors: readonly T[]; attention: readonly T[] }): T[] {
  return [...lists.attention.filter(isDecision), ...lists.errors, ...lists.attention.filter((item) => !isDecision(item))];
}

/** The spec's lifecycle states, said the way a person reads them (panel badge, `steward service maintenance`). */
export const STATE_LABELS: Readonly<Record<string, string>> = {
  ready: 'Up to date',
  refreshing: 'Refreshing',
  indexing: 'Indexing',
  backfilling: 'Backfilling history',
  blocked: 'Blocked',
  disabled: 'Paused',
  degraded: 'Needs attention',
  pending: 'Not synced yet',
  waiting: 'Waiting',
};

export const COLLECTION_LABELS: Readonly<Record<string, string>> = {
  issues: 'Issues',
  'issue-comments': 'Issue comments',
  pulls: 'Pull requests',
  'pr-comments': 'Pull request comments',
  wiki: 'Wiki',
  documents: 'Local documents',
};

const REASONS: Readonly<Record<string, string>> = {
  token_missing: 'no token',
  rate_limited: 'rate limit',
  forge_unknown: 'forge unknown',
  absent: 'the repository has no wiki',
  unavailable: 'the wiki could not be fetched',
  unsupported: 'this forge has no wiki Steward can read',
  source_unavailable: 'a source folder is missing',
};

/** Why a collection is not moving, in words; empty when nothing holds it. */
export function reasonWords(reason: string | null): string {
  return reason === null ? '' : (REASONS[reason] ?? reason.replace(/_/g, ' '));
}

export function collectionLabel(collection: string): string {
  return COLLECTION_LABELS[collection] ?? collection;
}

/** A lane as the panel's columns name it: the head keeps recent changes, the tail reads history. */
export function laneWords(lane: string): string {
  return lane === 'tail' ? 'history' : 'recent changes';
}

/** Where a lane of a collection resumes: "Issues, history: next page 4", never a bare "-". */
export function frontierWords(f: { collection: string; lane: string; nextPage: number | null; complete: boolean }): string {
  const where = f.complete ? 'complete' : f.nextPage === null ? 'not started' : `next page ${f.nextPage}`;
  return `${collectionLabel(f.collection)}, ${laneWords(f.lane)}: ${where}`;
}

/** The cache's content generation and how far the search index covers it. */
export function generationWords(g: { content: number | null; covered: number | null }, rag: string): string {
  if (g.content === null) return 'no content yet';
  if (rag === 'off') return `${g.content} (search index off)`;
  if (g.covered === null) return `${g.content} (not indexed yet)`;
  return g.covered >= g.content ? `${g.content} (indexed)` : `${g.content} (indexed up to ${g.covered})`;
}

/** A registration's policy in words: which lanes sync, whether it is indexed for search, the profile. */
export function policyWords(policy: { sync: string; rag: string; profile: string }): string {
  const sync = policy.sync === 'off' ? 'no sync' : policy.sync === 'head' ? 'recent changes only' : 'recent changes and history';
  return `${sync} · ${policy.rag === 'maintain' ? `search index kept (profile ${policy.profile})` : 'no search index'}`;
}

/** What every surface (CLI, MCP, panel) says of a repository search whose hits contain none of the query's words. */
export const CLOSEST_IN_MEANING = 'No items contain these words; these are the closest in meaning.';

/**
 * Why a repository search used words only (Repository.Search's `degraded`), one clause per reason: the
 * one table every surface words it from. The CLI and MCP say it after "Words only:", the panel as its own
 * sentence; each adds the command that turns indexing on when the result carries one (`remedy`, which
 * names the repository). The contract's `DEGRADED_TEXT` types it against the reasons, so none is missed.
 */
export const WORDS_ONLY_REASONS = {
  no_embedder: "this repository's profile has no embedder",
  not_indexed: 'nothing is indexed by meaning yet; the first index run has not finished',
  rag_off: 'search indexing is off for this repository',
  profile_changed: 'the embedding profile changed; search by meaning resumes once the new profile has indexed',
  not_covered: 'content changed since the last index run; search by meaning resumes after the next one',
  boundary_refused: "this profile would send text beyond what this repository's policy allows",
  embedder_unavailable: 'the embedder did not answer this query',
} as const;
