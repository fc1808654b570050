export { ConfigSchema, type Config, type ConfigInput } from './schema.js';
export { loadConfig, readConfigFile, parseConfig, applyEnvOverrides, explicitKeys } from './load.js';
export { resolveHome, platformDataDir, HOME_FILES, PRIVATE_FILE_MODE, PRIVATE_DIR_MODE, ensurePrivateDir, tightenMode, type StewardHome, type HomeKind } from './home.js';
