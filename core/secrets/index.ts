// Owns: every secret rule (the shape table, redaction, secret-looking environment values) and where API keys and tokens are kept (the KeyStore, the KeyRing, the panel token).
// Never: writes a secret to config.json, a log, status or telemetry; core/ defines the KeyStore, the Electron main provides the keychain-backed one.
export { redactSecrets, hasSecret, namesCredential, assignsCredential, showsRedaction, secretValuesFromEnv, REDACTED } from './patterns.js';
export { createRedactor, preloadRedaction, type Redactor, type RedactOptions } from './redact.js';
export { isJsonText } from './json-reading.js';
export { KEY_ENV_NAMES, SECRET_NAME, type KeyStore, type KeyStoreStatus, type KeySource } from './keys.js';
export { NamedSecrets } from './named.js';
export { secretsHandlers } from './handlers.js';
export { environmentKeyStore } from './environment.js';
export { KeyRing } from './ring.js';
export { PanelToken } from './panel-token.js';
