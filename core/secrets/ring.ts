import { StewardError, toStewardError } from '../api/index.js';
import { environmentKey, readOnlyKeyError } from './environment.js';
import { REMOTE_CURATORS, type RemoteCurator } from '../api/index.js';
import { KEY_ENV_NAMES, type KeySource, type KeyStore } from './keys.js';

export interface KeyLookup {
  key: string | undefined;
  source: KeySource;
}

export interface KeyPresence {
  present: boolean;
  source: KeySource;
  envVar: string;
}

/** Replaces every occurrence of the key, so a store's error can never hand it back to a caller. */
function withoutKey(error: unknown, key: string | null): StewardError {
  const typed = toStewardError(error);
  if (key === null) return typed;
  const leaks = typed.message.includes(key) || JSON.stringify(typed.details ?? {}).includes(key);
  return leaks ? new StewardError(typed.code, typed.message.split(key).join('[REDACTED]')) : typed;
}

/**
 * The owner's view of API keys: a key kept in the store wins; the desktop app falls back to the
 * environment, headless mode has nothing else. Only presence and source ever leave this object.
 */
export class KeyRing {
  readonly #store: KeyStore;
  readonly #env: NodeJS.ProcessEnv;

  constructor(store: KeyStore, env: NodeJS.ProcessEnv) {
    this.#store = store;
    this.#env = env;
  }

  get store(): KeyStore {
    return this.#store;
  }

  lookup(curator: RemoteCurator): KeyLookup {
    const stored = this.#store.get(curator);
    if (stored) return { key: stored, source: this.#store.kind };
    const fromEnv = this.#store.kind === 'environment' ? undefined : environmentKey(this.#env, curator);
    return fromEnv ? { key: fromEnv, source: 'environment' } : { key: undefined, source: 'none' };
  }

  presence(): Record<RemoteCurator, KeyPresence> {
    const view = (curator: RemoteCurator): KeyPresence => {
      const { key, source } = this.lookup(curator);
      return { present: key !== undefined, source, envVar: KEY_ENV_NAMES[curator] };
    };
    return Object.fromEntries(REMOTE_CURATORS.map((c) => [c, view(c)])) as Record<RemoteCurator, KeyPresence>;
  }

  /** Stores or clears a key; headless mode says which variable to set instead. The key never rides an error. */
  async set(curator: RemoteCurator, key: string | null): Promise<{ stored: boolean; source: KeySource }> {
    if (this.#store.kind === 'environment') throw readOnlyKeyError(curator);
    try {
      await this.#store.set(curator, key);
    } catch (error) {
      throw withoutKey(error, key);
    }
    return { stored: key !== null, source: this.lookup(curator).source };
  }
}

