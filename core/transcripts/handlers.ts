import { statSync } from 'node:fs';
import { PROVIDER_IDS, PROVIDERS, type Handlers, type ProviderId, type RootKind, type RootLeftOutReason } from '../api/index.js';
import { envRoots, skippedRoots, type Config } from '../config/index.js';
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

/** The config keys of the roots left out of the running Config (`providers.claude.roots.1`). */
function skippedKeys(running: Config): string[] {
  return skippedRoots(running).flatMap((error) => {
    const keys = error.details?.keys;
    return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : [];
  });
}

/**
 * The roots of one kind (`prefix`: `providers.claude.roots`) the running owner left out, by their keys,
 * as config.json names them (`configured`). An entry since edited into one that does not start at `~`
 * is no longer the one left out, and is not listed.
 */
function leftOutOf(skipped: readonly string[], prefix: string, configured: readonly string[] | null): Array<{ path: string; reason: RootLeftOutReason }> {
  return skipped.flatMap((key) => {
    const path = key.startsWith(`${prefix}.`) ? configured?.[Number(key.slice(prefix.length + 1))] : undefined;
    return path?.startsWith('~') ? [{ path, reason: 'home_not_full_path' as const }] : [];
  });
}

/**
 * The transcripts room's part of the contract: each provider's roots as the owner reads them. The
 * running configuration says what is watched now; `saved()` (config.json as it is) what the next
 * start will watch. Paths go to the local panel only, never to logs or telemetry.
 */
export function transcriptsHandlers(running: Config, env: NodeJS.ProcessEnv, saved: () => Config): Pick<Handlers, 'Providers.Roots'> {
  const skipped = skippedKeys(running);
  return {
    'Providers.Roots': () => {
      const file = saved();
      return {
        providers: PROVIDER_IDS.map((id) => {
          const watched = resolveRoots(id, running, env) as Roots;
          const detected = defaultRoots(id, env) as Roots;
          const configured = file.providers[id] as Record<string, unknown>;
          const listed = (key: string) => (Array.isArray(configured[key]) ? (configured[key] as string[]) : null);
          const kinds = Object.entries(PROVIDERS[id].roots) as Array<[string, RootKind]>;
          return {
            provider: id,
            label: PROVIDERS[id].label,
            enabled: running.providers[id].enabled,
            roots: kinds.map(([key, kind]) => {
              // The environment's variable, when set, is what is read: its left-out folders, else config.json's.
              const leftOut = envRoots(env, kind.env)?.leftOut ?? leftOutOf(skipped, `providers.${id}.${key}`, listed(key));
              return {
                key,
                label: kind.label,
                holds: kind.holds,
                env: kind.env,
                watched: withExistence(watched[key] ?? []),
                source: sourceOf(running, env, id, key, kind),
                configured: listed(key),
                detected: withExistence(detected[key] ?? []),
                ...(leftOut.length > 0 && { leftOut }),
              };
            }),
          };
        }),
      };
    },
  };
}
