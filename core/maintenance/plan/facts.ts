import { StewardError, type DataBoundary } from '../../api/index.js';
import type { ConfigSnapshot, Policy } from '../schema.js';

/**
 * What a plan needs to know about this machine beyond the registry, supplied by the Core: the
 * owner's own state and start at login, the configured embedding profiles and their providers,
 * and whether a forge token is stored. Reading any of these changes nothing.
 */
export interface ServiceFacts {
  /** True in the scheduling owner (the app, `steward serve`): its timer keeps caches current after a caller exits. */
  ownerRunning: boolean;
  startAtLogin(): { enabled: boolean; supported: boolean };
  /** Turns start at login on; only ever called by an apply whose confirmed plan listed it. */
  installStartAtLogin(): void;
}

/** What asking a provider about a profile's model found: its revision, or that the model is not there yet. */
export type ModelState = { present: true; revision: string } | { present: false; downloadable: boolean };

export interface ProfileFacts {
  /** The configured profiles by name, read afresh for every plan so an edited configuration is seen (and makes older plans stale). */
  profiles(): Record<string, ConfigSnapshot>;
  /** Where a profile's embedder sends text, decided from configuration alone; `host` is shown to people, never a URL. */
  boundary(snapshot: ConfigSnapshot): { boundary: DataBoundary; host: string | null };
  /** Read-only: the provider's current revision of the model. Throws a typed error when the provider cannot be asked. */
  model(snapshot: ConfigSnapshot, signal?: AbortSignal): Promise<ModelState>;
  /** Downloads the profile's model through its provider; only for a confirmed `large_download` effect. */
  download(snapshot: ConfigSnapshot, signal?: AbortSignal): Promise<void>;
  /** One real embedding request through the profile, as the RAG stage would make it; returns the vector size. */
  smoke(snapshot: ConfigSnapshot, policy: Policy, signal?: AbortSignal): Promise<{ dimensions: number }>;
}

export interface PlanFacts {
  service: ServiceFacts;
  profiles: ProfileFacts;
  /** Whether a named secret (GITHUB_TOKEN …) is stored anywhere Steward looks; its value is never read here. */
  tokenPresent(name: string): boolean;
}

/**
 * Facts for a coordinator nobody configured (tests of other parts, tools): not an owner, no start
 * at login, the built-in profile only, and no provider that could be asked or downloaded from.
 */
export function builtinFacts(defaults: Record<string, ConfigSnapshot>): PlanFacts {
  const unsupported = () => {
    throw new StewardError('unsupported', 'This Steward has no embedding provider to ask.');
  };
  return {
    service: {
      ownerRunning: false,
      startAtLogin: () => ({ enabled: false, supported: false }),
      installStartAtLogin: () => {
        throw new StewardError('unsupported', 'Start at login cannot be changed here.');
      },
    },
    profiles: {
      profiles: () => defaults,
      boundary: (snapshot) => ({ boundary: snapshot.embedding.endpoint === undefined && snapshot.embedding.provider !== 'ollama' && snapshot.embedding.provider !== 'openai-compatible' ? 'local_process' : 'unknown', host: null }),
      model: async (snapshot) => (snapshot.embedding.provider === 'none' ? { present: true, revision: 'none' } : unsupported()),
      download: async () => unsupported(),
      smoke: async () => unsupported(),
    },
    tokenPresent: () => false,
  };
}
