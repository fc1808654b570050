// API keys for remote curators (DESIGN "Conventions": secrets). core/ defines the KeyStore interface;
// the Electron main provides a keychain-backed one, headless mode uses the environment.
export { KEY_ENV_NAMES, type KeyStore, type KeyStoreStatus, type KeySource } from './keys.js';
export { environmentKeyStore, environmentKey, readOnlyKeyError } from './environment.js';
export { KeyRing, type KeyLookup, type KeyPresence } from './ring.js';
