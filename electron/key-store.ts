import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeStorage as electronSafeStorage } from 'electron';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { KEY_ENV_NAMES, REMOTE_CURATORS, SECRET_NAME, StewardError, type KeyStore, type KeyStoreStatus, type Logger, type RemoteCurator } from '../core/index.js';

/** In STEWARD_HOME: one base64 ciphertext per named secret (curator keys, forge tokens), never a plaintext one. */
export const KEYS_FILE = 'keys.json';

export type SafeStorageApi = Pick<typeof electronSafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

const KeysFile = z.strictObject({
  version: z.literal(1),
  keys: z.record(z.string().regex(SECRET_NAME), z.base64().max(8192)),
});
type Ciphertexts = Record<string, string>;

export interface SafeStorageKeyStoreOptions {
  homeDir: string;
  platform?: NodeJS.Platform;
  logger?: Logger;
  /** Electron's safeStorage unless a test hands in another. */
  safeStorage?: SafeStorageApi;
}

const NO_KEYCHAIN: KeyStoreStatus = {
  writable: false,
  message: 'The operating system keychain is not available to Steward, so it does not store API keys.',
};
const PLAIN_TEXT_ONLY: KeyStoreStatus = {
  writable: false,
  message: 'No secret service (GNOME Keyring, KWallet) is running, and Steward will not keep API keys in plain text.',
};

/**
 * On Linux without a secret service Chromium falls back to a fixed, well-known password
 * (`basic_text`): that is obfuscation, not encryption, so it counts as no keychain at all.
 */
async function availability(storage: SafeStorageApi, platform: NodeJS.Platform): Promise<KeyStoreStatus> {
  try {
    if (!(await storage.isAsyncEncryptionAvailable())) return NO_KEYCHAIN;
    if (platform === 'linux' && storage.getSelectedStorageBackend() === 'basic_text') return PLAIN_TEXT_ONLY;
    return { writable: true, message: null };
  } catch {
    return NO_KEYCHAIN;
  }
}

/** A missing or unreadable file holds no keys: its ciphertexts could not be used anyway. */
async function readCiphertexts(file: string): Promise<Ciphertexts> {
  try {
    const parsed = KeysFile.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? { ...parsed.data.keys } : {};
  } catch {
    return {};
  }
}

function refusal(status: KeyStoreStatus, curator: string): StewardError {
  const envVar = (REMOTE_CURATORS as readonly string[]).includes(curator) ? KEY_ENV_NAMES[curator as RemoteCurator] : curator;
  return new StewardError('key_store_unavailable', `${status.message ?? NO_KEYCHAIN.message} Set ${envVar} in Steward's environment instead.`, { curator, envVar });
}

/**
 * API keys kept with Electron safeStorage (Keychain, DPAPI, libsecret/KWallet). Keys are decrypted
 * once at start, so a sweep reads its key without a keychain round trip; the file only ever holds
 * ciphertexts, written atomically with mode 0600.
 */
export async function openSafeStorageKeyStore(options: SafeStorageKeyStoreOptions): Promise<KeyStore> {
  const storage = options.safeStorage ?? electronSafeStorage;
  const platform = options.platform ?? process.platform;
  const file = join(options.homeDir, KEYS_FILE);
  let status = await availability(storage, platform);
  let ciphertexts = await readCiphertexts(file);
  const plain = new Map<string, string>();
  if (status.writable) {
    for (const [curator, ciphertext] of Object.entries(ciphertexts)) {
      try {
        plain.set(curator, (await storage.decryptStringAsync(Buffer.from(ciphertext, 'base64'))).result);
      } catch {
        // A keychain reset or another user's file: the key is gone; saving it again replaces it.
        options.logger?.warn('stored api key unreadable', { curator });
      }
    }
  }
  let queue: Promise<unknown> = Promise.resolve();

  const write = (curator: string, key: string | null) => async () => {
    const next: Ciphertexts = { ...ciphertexts };
    if (key !== null) {
      status = await availability(storage, platform);
      if (!status.writable) throw refusal(status, curator);
      next[curator] = (await storage.encryptStringAsync(key)).toString('base64');
    } else {
      // Forgetting a key needs no keychain: the ciphertext is simply dropped.
      delete next[curator];
    }
    await writeFileAtomic(file, `${JSON.stringify({ version: 1, keys: next }, null, 2)}\n`, { mode: 0o600 });
    ciphertexts = next;
    if (key === null) plain.delete(curator);
    else plain.set(curator, key);
    options.logger?.info(key === null ? 'api key cleared' : 'api key stored', { curator });
  };

  return {
    kind: 'keychain',
    status: () => status,
    get: (curator) => plain.get(curator),
    set(curator, key) {
      // One write at a time, so two saves cannot interleave their read-modify-write of the file.
      const next = queue.then(write(curator, key));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
