// Owns: the provider registry: one entry per provider folder, in registry order, and where each provider's roots come from.
// Never: holds a parser of its own; adding a provider is a folder here, an entry below and its descriptor in core/api/registry.ts (PROVIDERS).
import { PROVIDER_IDS, PROVIDERS, type ProviderId, type RootKey, type RootKind } from '../../api/constants/index.js';
import type { Config } from '../../config/index.js';
import { envList, uniqueRoots } from '../roots.js';
import type { ProviderDefinition, TranscriptProvider } from '../types.js';
import { claude } from './claude/index.js';
import { codex } from './codex/index.js';
import { gemini } from './gemini/index.js';
import { openclaw } from './openclaw/index.js';

export const PROVIDER_REGISTRY = { claude, openclaw, codex, gemini } satisfies { [P in ProviderId]: ProviderDefinition<P> };

/** The providers whose files copy message ids from other files (ProviderDefinition's `copiesMessageIds`). */
export const COPIED_ID_PROVIDERS: ReadonlySet<ProviderId> = new Set(PROVIDER_IDS.filter((id) => (PROVIDER_REGISTRY[id] as ProviderDefinition).copiesMessageIds));

/** A provider's real default locations of each kind of root, each folder once (uniqueRoots): the one place they are built. */
export function defaultRoots<P extends ProviderId>(id: P, env: NodeJS.ProcessEnv): Record<RootKey<P>, string[]> {
  const defaults = (PROVIDER_REGISTRY[id] as ProviderDefinition<P>).defaultRoots(env);
  return Object.fromEntries(Object.entries<string[]>(defaults).map(([key, paths]) => [key, uniqueRoots(paths)])) as Record<RootKey<P>, string[]>;
}

/** Each kind of root: the environment variable, then config.json, then the real default locations; each folder once. */
export function resolveRoots<P extends ProviderId>(id: P, config: Config, env: NodeJS.ProcessEnv): Record<RootKey<P>, string[]> {
  const defaults = defaultRoots(id, env);
  const configured = config.providers[id] as Partial<Record<RootKey<P>, string[]>>;
  const kinds = Object.entries(PROVIDERS[id].roots) as Array<[RootKey<P>, RootKind]>;
  return Object.fromEntries(kinds.map(([key, kind]) => [key, uniqueRoots(envList(env, kind.env) ?? configured[key] ?? defaults[key])])) as Record<RootKey<P>, string[]>;
}

function create<P extends ProviderId>(id: P, roots: Record<RootKey<P>, string[]>): TranscriptProvider {
  return (PROVIDER_REGISTRY[id] as ProviderDefinition<P>).create(roots);
}

/** The providers, in registry order, over the roots the user's configuration resolves to. */
export function createProviders(config: Config, env: NodeJS.ProcessEnv): TranscriptProvider[] {
  return PROVIDER_IDS.map((id) => create(id, resolveRoots(id, config, env)));
}

/** Providers with no roots: the read worker only parses files the owner discovered. */
export function parsersOnly(): Record<ProviderId, TranscriptProvider> {
  const none = (id: ProviderId) => Object.fromEntries(Object.keys(PROVIDERS[id].roots).map((key) => [key, []]));
  return Object.fromEntries(PROVIDER_IDS.map((id) => [id, create(id, none(id) as never)])) as Record<ProviderId, TranscriptProvider>;
}
