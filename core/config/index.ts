// Owns: config.json (its schema, defaults, env overrides, its one writer), STEWARD_HOME's location and file names, the user's home as `~` names it, the package's own root and version.
// Never: holds a secret or a path outside STEWARD_HOME's own files; an unknown key is an error, never ignored.
export { type Config } from './schema.js';
export { loadConfig, readConfigFile, parseConfig, applyEnvOverrides, explicitKeys, skippedRoots } from './load.js';
export { whereNotJson } from './json-where.js';
export { writeConfig, type ConfigChange } from './write.js';
export { envRoots, rootLeftOutReason, type EnvRoots } from './roots.js';
export { diskUsage, filesSize } from './usage.js';
export { type FieldProblem } from './problems.js';
export { resolveHome, homeToName, userHome, withHomeExpanded, HOME_FILES, PRIVATE_FILE_MODE, ensurePrivateDir, tightenMode, type StewardHome, type HomeKind } from './home.js';
export { packageRoot, stewardVersion } from './package-root.js';
