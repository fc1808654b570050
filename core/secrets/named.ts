import type { KeySource, KeyStore } from './keys.js';
import { readSecretFile, writeSecretFile } from './file.js';

export interface NamedSecret {
  value: string | undefined;
  source: KeySource | 'file';
}

/**
 * Named secrets other than curator keys (forge tokens): the app's keychain first, then the 0600
 * secrets file a headless owner reads, then the environment. Only presence and source ever leave.
 */
export class NamedSecrets {
  readonly #store: KeyStore;
  readonly #home: string;
  readonly #env: NodeJS.ProcessEnv;

  constructor(store: KeyStore, home: string, env: NodeJS.ProcessEnv) {
    this.#store = store;
    this.#home = home;
    this.#env = env;
  }

  lookup(name: string): NamedSecret {
    const kept = this.#store.kind === 'keychain' ? this.#store.get(name) : undefined;
    if (kept) return { value: kept, source: 'keychain' };
    const filed = readSecretFile(this.#home, name);
    if (filed) return { value: filed, source: 'file' };
    const env = this.#env[name]?.trim();
    return env ? { value: env, source: 'environment' } : { value: undefined, source: 'none' };
  }

  /** The keychain when the app has a writable one, else the secrets file; the value never rides an error. */
  async set(name: string, value: string | null): Promise<{ stored: boolean; source: NamedSecret['source'] }> {
    if (this.#store.kind === 'keychain' && this.#store.status().writable) {
      try {
        await this.#store.set(name, value);
      } catch {
        writeSecretFile(this.#home, name, value);
      }
    } else writeSecretFile(this.#home, name, value);
    return { stored: value !== null, source: this.lookup(name).source };
  }
}
