export { Core, type CoreOptions } from './core.js';
export { xdgAutostart, homeArgs, type StartAtLogin, type Launcher } from './app/index.js';
export * from './api/index.js';
export { resolveHome, type Config, type StewardHome } from './config/index.js';
export { formatLogLine, prepareLogFile, LOG_WRITE_OPTIONS, type Logger, type LogFields } from './log/index.js';
export { startOwner, CONTENT_SECURITY_POLICY, type Owner, type OwnerOptions } from './server/index.js';
export { useSqliteNativeBinding } from './store/index.js';
export { KEY_ENV_NAMES, SECRET_NAME, type KeyStore, type KeyStoreStatus, type KeySource } from './secrets/index.js';
