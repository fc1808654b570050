import { statSync } from 'node:fs';
import { PROVIDER_IDS, PROVIDERS, type Handlers, type ProviderId, type RootKind } from '../api/index.js';
import type { Config } from '../config/index.js';
import { defaultRoots, resolveRoots } from './providers/index.js';
import { envList } from './roots.js';

type Roots = Record<string, string[]>;

/** Each path with whether it is a folder there: a file where a root should be is no root either (a typo, a copy). */
const withExistence = (paths: readonly string[]) => paths.map((path) => ({ path, exists: isFolder(path) }));

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function sourceOf(running: Config, env: NodeJS.ProcessEnv, id: ProviderId, key: string, kind: RootKind): 'environment' | 'config' | 'default' {
  if (envList(env, kind.env) !== undefined) return 'environment';
  return (running.providers[id] as Record<string, unknown>)[key] !== undefined ? 'config' : 'default';
}

/**
 * The transcripts room's part of the contract: each provider's roots as the owner reads them. The
 * running configuration says what is watched now; `saved()` (config.json as it is) what the next
 * start will watch. Paths go to the local panel only, never to logs or telemetry.
 */
export function transcriptsHandlers(running: Config, env: NodeJS.ProcessEnv, saved: () => Config): Pick<Handlers, 'Providers.Roots'> {
  return {
    'Providers.Roots': () => {
      const file = saved();
      return {
        providers: PROVIDER_IDS.map((id) => {
          const watched = resolveRoots(id, running, env) as Roots;
          const detected = defaultRoots(id, env) as Roots;
          const configured = file.providers[id] as Record<string, unknown>;
          const kinds = Object.entries(PROVIDERS[id].roots) as Array<[string, RootKind]>;
          return {
            provider: id,
            label: PROVIDERS[id].label,
            enabled: running.providers[id].enabled,
            roots: kinds.map(([key, kind]) => ({
              key,
              label: kind.label,
              holds: kind.holds,
              env: kind.env,
              watched: withExistence(watched[key] ?? []),
              source: sourceOf(running, env, id, key, kind),
              configured: Array.isArray(configured[key]) ? (configured[key] as string[]) : null,
              detected: withExistence(detected[key] ?? []),
            })),
          };
        }),
      };
    },
  };
}
