// API keys for remote curators (DESIGN "Conventions": secrets). core/ defines the KeyStore interface;
// the Electron main provides a keychain-backed one, headless mode uses the environment.
export { REMOTE_CURATORS, KEY_ENV_NAMES, SECRET_NAME, type KeyStore, type KeyStoreStatus, type KeySource, type RemoteCurator, type SecretName } from './keys.js';
export { NamedSecrets, type NamedSecret } from './named.js';
export { SECRETS_FILE } from './file.js';
export { secretsHandlers, FORGE_TOKEN_NAMES } from './handlers.js';
export { environmentKeyStore, environmentKey, readOnlyKeyError } from './environment.js';
export { KeyRing, type KeyLookup, type KeyPresence } from './ring.js';
