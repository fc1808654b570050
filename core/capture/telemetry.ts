import type { PruneReport } from '../api/index.js';
import type { ProviderStats } from '../backfill/index.js';
import { errorCode, type Logger } from '../log/index.js';

export type Record = (kind: string, data: { [key: string]: unknown }) => void;

interface Recorder {
  record: Record;
  logger: Logger;
}

/** A telemetry row must never fail the work it describes: a failed write is logged with its cause. */
function safely(recorder: Recorder, kind: string, data: { [key: string]: unknown }): void {
  try {
    recorder.record(kind, data);
  } catch (error) {
    recorder.logger.warn('telemetry record failed', { kind, code: errorCode(error) });
  }
}

/** A tick is `sweep.tick` and a manual import `backfill.run`, unchanged ones included. */
export function recordRun(recorder: Recorder, providers: ProviderStats[], kind: 'scheduled' | 'manual'): void {
  safely(recorder, kind === 'scheduled' ? 'sweep.tick' : 'backfill.run', { kind, providers });
}

export function recordPrune(recorder: Recorder, report: PruneReport, manual: boolean): void {
  const data = { kind: manual ? 'manual' : 'scheduled', removedParts: report.removedParts, removedSessions: report.removedSessions, durationMs: report.durationMs, complete: report.complete };
  recorder.logger.info('cache prune', data);
  safely(recorder, 'cache.prune', data);
}
