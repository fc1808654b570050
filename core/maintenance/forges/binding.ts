import { FORGE_TOKEN_NAMES, refusedField, StewardError } from '../../api/index.js';
import { FORGE_KINDS, type ForgeKind } from './types.js';

/** Where a repository syncs from. The API base is a destination: it stays private, status shows the host. */
export interface ForgeBinding {
  kind: ForgeKind;
  apiBase: string;
  host: string;
  owner: string;
  name: string;
  /** The named secret that holds this forge's token (key store, secrets file, then environment). */
  tokenName: string;
}

/** Each forge's token name, from the contract's one list (the status words name the same secret). */
export const TOKEN_NAMES = FORGE_TOKEN_NAMES as Readonly<Record<ForgeKind, string>>;

const DEFAULT_BASES: Readonly<Partial<Record<ForgeKind, string>>> = { github: 'https://api.github.com', gitcode: 'https://api.gitcode.com/api/v5' };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isForgeKind(value: string): value is ForgeKind {
  return (FORGE_KINDS as readonly string[]).includes(value);
}

/**
 * Validates an API root (`https://api.github.com`, `https://HOST/api/v3`, `https://HOST/api/v1`,
 * `https://api.gitcode.com/api/v5`). Plain http is refused except on loopback: a token never
 * crosses a network unencrypted.
 */
export function apiBaseOf(kind: ForgeKind, baseUrl: string | undefined): string {
  const raw = baseUrl ?? DEFAULT_BASES[kind];
  // Named by its field, so each surface says its own name for it (namedFor).
  if (raw === undefined) throw refusedField('baseUrl', `is needed: a ${kind} forge has no default address; give its API root, https://HOST/api/v1`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new StewardError('invalid_params', 'The base URL is not a URL.');
  }
  if (url.username || url.password || url.search || url.hash) throw new StewardError('invalid_params', 'The base URL may not carry credentials, a query or a fragment.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new StewardError('invalid_params', 'The base URL must use https (plain http only on this machine).');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The web host of a forge's API root: what repository ids and status messages name. Two forges on
 * one host differ by their port, so a port is part of it; a default port is not (URL drops it), so
 * `https://github.com` and `https://github.com:443` are one host and ids stored before stay the same.
 */
export function hostOf(kind: ForgeKind, apiBase: string): string {
  const { hostname, port } = new URL(apiBase);
  const name = portlessHost(kind, hostname);
  // An IPv6 address keeps its brackets only where a port follows it.
  return port ? `${name.includes(':') ? `[${name}]` : name}:${port}` : name;
}

function portlessHost(kind: ForgeKind, hostname: string): string {
  if (kind === 'github' && hostname === 'api.github.com') return 'github.com';
  if (kind === 'gitcode' && hostname === 'api.gitcode.com') return 'gitcode.com';
  return hostname.replace(/^\[|\]$/g, '');
}

/** A forge repository as a request names it: its id, and the id an older Steward gave it. */
export interface RepositoryKey {
  repoId: string;
  host: string;
  /**
   * For a forge on a non-default port, the id and host an older Steward used (it left the port out).
   * Stored registrations keep their ids (read from the cache's own binding), so "is this repository
   * maintained already" must accept the older id too, or a second cache would be made for one forge.
   */
  legacy: { repoId: string; host: string } | null;
}

export function repositoryKeyOf(kind: ForgeKind, apiBase: string, repo: string): RepositoryKey {
  const host = hostOf(kind, apiBase);
  const { hostname, port } = new URL(apiBase);
  const old = portlessHost(kind, hostname);
  return { repoId: canonicalRepoIdOf(host, repo), host, legacy: port ? { repoId: canonicalRepoIdOf(old, repo), host: old } : null };
}

/**
 * Whether a stored registration is this forge repository: its id, or the older port-less id of a
 * registration whose forge is this host and port. A forge summary not refreshed since ports counted
 * names the bare host: its port is unknown, so it is taken as the same (no second cache is made).
 */
export function namesRepository(stored: { canonicalRepoId: string; forge?: { host: string } | null }, key: RepositoryKey): boolean {
  if (stored.canonicalRepoId === key.repoId) return true;
  if (key.legacy === null || stored.canonicalRepoId !== key.legacy.repoId) return false;
  const host = stored.forge?.host ?? null;
  return host === null || host === key.host || host === key.legacy.host;
}

export function canonicalRepoIdOf(host: string, repo: string): string {
  return `${host}/${repo}`.toLowerCase();
}

/**
 * The binding of one repository: the cache's own forge record when it has one (schema 18); a 17
 * cache names only its repo id, so github.com and gitcode.com are derived and other hosts are unknown.
 */
export function bindingOf(repoId: string, seed: { forge: ForgeKind; apiBase: string } | null): ForgeBinding | null {
  const parts = repoId.split('/');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return null;
  const [, owner, name] = parts as [string, string, string];
  if (seed) return { kind: seed.forge, apiBase: seed.apiBase, host: hostOf(seed.forge, seed.apiBase), owner, name, tokenName: TOKEN_NAMES[seed.forge] };
  const derived = parts[0] === 'github.com' ? 'github' : parts[0] === 'gitcode.com' ? 'gitcode' : null;
  if (!derived) return null;
  const apiBase = DEFAULT_BASES[derived]!;
  return { kind: derived, apiBase, host: hostOf(derived, apiBase), owner, name, tokenName: TOKEN_NAMES[derived] };
}
