import { join } from 'node:path';
import { HOME_FILES } from '../config/index.js';
import { openDatabase, type Db } from '../store/index.js';
import { GATEWAY_MIGRATIONS } from './migrations.js';

export { GATEWAY_MIGRATIONS } from './migrations.js';
export { TelemetryLog } from './telemetry.js';
export { Spool } from './spool.js';
export { Materializer, type RunToken, type MaterializeResult } from './materializer.js';
export { Sink, type FlushResult } from './sink.js';
export { RetentionPruner, type PruneResult, type PruneOptions } from './retention.js';
export { Checkpointer } from './checkpointer.js';

export function openGateway(home: string): Db {
  return openDatabase(join(home, HOME_FILES.gateway), { label: 'gateway', migrations: GATEWAY_MIGRATIONS });
}
