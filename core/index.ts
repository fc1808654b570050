export { Core, type CoreOptions } from './core.js';
export * from './api/index.js';
export { resolveHome, type Config, type StewardHome } from './config/index.js';
export type { Logger } from './log/index.js';
export { startOwner, type Owner, type OwnerOptions } from './server/index.js';
