// Owns: per-project curation (spec 001): queue and debounce, activity gate, digest, curators/, the marker contract, the atomic writer of notes.
// Never: writes inside a user's project folder or sends text anywhere the configuration did not choose; secrets are redacted before anything leaves.
export { Sweeper, curatorBoundary, type CuratorPause, type SweeperRunResult, type LiveTurn } from './sweeper.js';
export { planHook, applyHook, hookInstalled, claudeSettingsPath, type HookAction } from './claude-hooks.js';
export { GatewayDigestSource } from './gateway-source.js';
export { sweeperHandlers } from './handlers.js';
export { sweeperSettingsFrom } from './settings.js';
export { buildDigest, renderPrompt } from './digest.js';
export type { Digest } from './types.js';
export { projectPaths } from './paths.js';
export { preloadCuratorSdk, type Curator } from './curators/index.js';

