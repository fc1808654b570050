export { ConfigSchema, type Config, type ConfigInput } from './schema.js';
export { loadConfig, parseConfig, applyEnvOverrides, explicitKeys } from './load.js';
export { resolveHome, platformDataDir, HOME_FILES, type StewardHome, type HomeKind } from './home.js';
export { packageRoot, stewardVersion } from './package-root.js';
