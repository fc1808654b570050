// Owns: gateway.db's transcript tables (parts, sessions, spool, file checkpoints, telemetry), the materializer, sink, commit windows, pruner, and the read API other rooms use.
// Never: parses transcripts or decides what to import; rows arrive as batches from backfill/.
import { join } from 'node:path';
import { HOME_FILES, PRIVATE_FILE_MODE } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { openDatabase, type Db } from '../store/index.js';
import { GATEWAY_MIGRATIONS } from './migrations.js';

export { TelemetryLog } from './telemetry.js';
export { telemetryHandlers } from './handlers.js';
export { Spool } from './spool.js';
export { Materializer, type RunToken } from './materializer.js';
export { Sink, type ProjectKeys, type UserTurns } from './sink.js';
export { GatewayReader, type StoredPart, type SessionHead } from './read.js';
export { FileCheckpoints, type FileCheckpoint } from './file-checkpoints.js';
export { RetentionPruner } from './retention.js';
export { Checkpointer } from './checkpointer.js';
export { CommitWindow } from './commit-window.js';

/**
 * 16 KiB pages keep a typical part (a few KiB of text) on one page instead of a chain of overflow
 * pages. The 64 MiB cache holds the part_id index of a large history, whose random-UUID inserts
 * otherwise miss the cache on nearly every row; it is allocated only as it fills.
 */
const GATEWAY_PAGE_BYTES = 16 * 1024;
const GATEWAY_CACHE_KIB = 64 * 1024;

export function openGateway(home: string, logger?: Logger): Db {
  return openDatabase(join(home, HOME_FILES.gateway), {
    label: 'gateway',
    migrations: GATEWAY_MIGRATIONS,
    pageSizeBytes: GATEWAY_PAGE_BYTES,
    cacheKiB: GATEWAY_CACHE_KIB,
    fileMode: PRIVATE_FILE_MODE,
    ...(logger ? { logger } : {}),
  });
}
