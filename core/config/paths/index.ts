// Owns: nothing of its own: where STEWARD_HOME is and the names of its files (../home.ts), without the config schema.
// Never: reads config.json; it exists for entry points that must start fast, such as the session-start hook.
export { resolveHome, HOME_FILES, type StewardHome } from '../home.js';
