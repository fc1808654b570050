import type { RemoteCurator } from '../api/index.js';

/** Where the key a curator would use comes from; never the key itself. */
export type KeySource = 'keychain' | 'environment' | 'none';

/** The environment variables headless mode reads (and the app falls back to). */
export const KEY_ENV_NAMES: Readonly<Record<RemoteCurator, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': 'OPENAI_API_KEY',
};

export interface KeyStoreStatus {
  /** Whether set() can keep a key right now. */
  writable: boolean;
  /** Why not, in words the panel can show; null when writable. */
  message: string | null;
}

/**
 * Where API keys for remote curators are kept. The desktop app provides one backed by the OS
 * keychain (Electron safeStorage); headless mode has only the environment, which cannot be written.
 * `get` is synchronous because a sweep reads its key when it starts: a store decrypts up front.
 */
export interface KeyStore {
  readonly kind: 'keychain' | 'environment';
  status(): KeyStoreStatus;
  /** Any named secret: a curator's key (`anthropic`) or a forge token (`GITHUB_TOKEN`). */
  get(name: RemoteCurator | SecretName): string | undefined;
  /** Stores (or with null, forgets) a secret; throws a StewardError when it cannot. */
  set(name: RemoteCurator | SecretName, key: string | null): Promise<void>;
}

/** A secret's name: letters, digits, `_ . -`, starting with a letter (GITHUB_TOKEN, anthropic). */
export type SecretName = string;
export const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
