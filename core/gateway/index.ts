// Owns: gateway.db's transcript tables (parts, sessions, spool, file checkpoints, title claims, telemetry), the full-text index (and the worker thread that runs its broad matches) and tombstones, the materializer, sink, commit windows, pruner, the pacing of long work in pieces, and the read APIs other rooms use.
// Never: parses transcripts or decides what to import; rows arrive as batches from backfill/.
import { join } from 'node:path';
import { HOME_FILES, PRIVATE_FILE_MODE } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { openDatabase, type Db } from '../store/index.js';
import { GATEWAY_MIGRATIONS } from './migrations.js';
import { registerSearchFunctions } from './search-index.js';

export { TelemetryLog } from './telemetry.js';
export { telemetryHandlers, cacheStatsHandlers } from './handlers.js';
export { Spool } from './spool.js';
export { Materializer, type RunToken, type CapturePolicy } from './materializer.js';
export { Sink, type ProjectKeys, type UserTurns } from './sink.js';
export { GatewayReader, type StoredPart, type SessionHead } from './read.js';
export { StoredSpans, type StoredSpan } from './stored-span.js';
export { FileCheckpoints, mtimeVouches, type CheckpointIdentity, type FileCheckpoint, type HoldingFile, type SurveyedCheckpoint } from './file-checkpoints.js';
export { HistoryReader, type SessionRecord, type OrderedPart, type PartKey } from './history-read.js';
export { identifierPieces, indexReading, looksLikeJson, SearchIndex, SearchSyntaxError, toolNameOf, type IndexProgress } from './search-index.js';
export { cjkPhrases, cjkSegments, hasCjk, holdsToken, isCjkAt } from './cjk.js';
export { SearchReader, SearchTooBroadError, type Evidence, type SearchFilter, type ListFilter, type MatchedPart, type NewestPage } from './search-read.js';
export { SessionEraser, type EraseOptions, type EraseProgress, type EraseResult } from './erase.js';
export { TranscriptFiles, type TranscriptCounts, type TranscriptState } from './transcript-files.js';
export { Tombstones } from './tombstones.js';
export { DiskScrub, type ScrubGate, type ScrubOptions, type ScrubPhase, type ScrubProgress } from './scrub.js';
export { RetentionPruner } from './retention.js';
export { Checkpointer, type DiskGate } from './checkpointer.js';
export { CommitWindow, type CommitWindowLimits } from './commit-window.js';
export { PieceSize, inPieces, pacer, turn, type Pace, type PieceGate } from './pace.js';

/**
 * 16 KiB pages keep a typical part (a few KiB of text) on one page instead of a chain of overflow
 * pages. The 64 MiB cache holds the part_id index of a large history, whose random-UUID inserts
 * otherwise miss the cache on nearly every row; it is allocated only as it fills.
 */
const GATEWAY_PAGE_BYTES = 16 * 1024;
const GATEWAY_CACHE_KIB = 64 * 1024;

export function openGateway(home: string, logger?: Logger): Db {
  const db = openDatabase(join(home, HOME_FILES.gateway), {
    label: 'gateway',
    migrations: GATEWAY_MIGRATIONS,
    pageSizeBytes: GATEWAY_PAGE_BYTES,
    cacheKiB: GATEWAY_CACHE_KIB,
    fileMode: PRIVATE_FILE_MODE,
    // What a delete frees is zeroed where no extra write is needed; a wipe (DiskScrub) does the rest.
    // A cold import of 6,100 parts wrote 27.1 MB with it as without it.
    secureDelete: 'fast',
    ...(logger ? { logger } : {}),
  });
  registerSearchFunctions(db);
  return db;
}
