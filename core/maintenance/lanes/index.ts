// Lanes: the head and tail lanes of spec 004 over a repository cache — checkpoints, child coverage, tree walks, tombstones.
// Never opens a cache on its own (the caller hands in an admitted, migrated handle) and never decides scheduling policy beyond "is there work".
export { SyncLanes, type DocumentSource, type SyncJob, type SyncLanesOptions, type Waiting } from './runner.js';
export { type Tally } from './context.js';
