import { FORGE_TOKEN_NAMES, StewardError } from '../../api/index.js';
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
  if (raw === undefined) throw new StewardError('invalid_params', `A ${kind} forge has no default address: pass --base-url https://HOST/api/v1.`);
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

/** The web host of a forge's API root: what repository ids and status messages name. */
export function hostOf(kind: ForgeKind, apiBase: string): string {
  const { hostname } = new URL(apiBase);
  if (kind === 'github' && hostname === 'api.github.com') return 'github.com';
  if (kind === 'gitcode' && hostname === 'api.gitcode.com') return 'gitcode.com';
  return hostname.replace(/^\[|\]$/g, '');
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
