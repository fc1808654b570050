// Why a repository cache's sync or index stage failed, in the words people read, for the status line,
// the CLI and the panel alike (one rule, never a raw error class). It imports nothing, as
// import-words.ts, so the panel can load it at run time.

/** The named secret each forge's token is kept under (`steward secrets set NAME`), by forge kind: the one list (forge bindings, `Secrets.List`). */
export const FORGE_TOKEN_NAMES: Readonly<Record<string, string>> = { github: 'GITHUB_TOKEN', gitea: 'GITEA_TOKEN', gitcode: 'GITCODE_TOKEN' };

/** The token's secret name for a registration's forge; GITHUB_TOKEN when the forge is not known. */
export function tokenNameOf(forge: { kind: string } | null | undefined): string {
  return FORGE_TOKEN_NAMES[forge?.kind ?? ''] ?? 'GITHUB_TOKEN';
}

const FIXED: Readonly<Record<string, string>> = {
  forge_unavailable: 'the forge did not answer',
  forge_not_found: 'the forge has no such repository (check the name and the base URL)',
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

/**
 * A stage's error class said as a person reads it, with what to do where the person can do something:
 * `forge_unauthorized` names the secret that holds this forge's token. Unknown classes read as words.
 */
export function failureWords(errorClass: string, forge?: { kind: string } | null): string {
  if (errorClass === 'forge_unauthorized') return `the forge refused the token: set a new one with \`steward secrets set ${tokenNameOf(forge)}\``;
  if (errorClass === 'token_missing') return `no token is stored: store one with \`steward secrets set ${tokenNameOf(forge)}\``;
  if (errorClass === 'io_enospc') return 'the disk is full';
  if (errorClass === 'io_eacces' || errorClass === 'io_eperm') return 'Steward may not read or write the cache file';
  if (errorClass.startsWith('io_')) return `the cache file could not be read or written (${errorClass.slice(3).toUpperCase()})`;
  return FIXED[errorClass] ?? errorClass.replace(/_/g, ' ');
}
