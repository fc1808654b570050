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

/** A tick that found nothing new and nothing wrong, and ran to its end: every file listed was unchanged or outside the window. */
export function isUnchangedTick(providers: readonly ProviderStats[]): boolean {
  return providers.every((p) => p.read === 0 && p.partsWritten === 0 && p.failed === 0 && p.failedLines === 0 && !p.vanished && !p.errors?.length && !p.withheld && !p.cancelled);
}

/**
 * The compact row of an unchanged tick, the proof Steward is alive that most ticks are: the files it
 * checked and how long it took, the providers that listed anything with their six counts, nothing else.
 */
export function compactTick(providers: readonly ProviderStats[]): { [key: string]: unknown } {
  const listed = providers.filter((p) => p.discovered > 0);
  return {
    kind: 'scheduled',
    unchanged: true,
    files: listed.reduce((n, p) => n + p.discovered, 0),
    durationMs: providers.reduce((n, p) => n + p.durationMs, 0),
    // Files outside the window appear only when there are any, so the counts still add up to `discovered`.
    providers: listed.map(({ provider, discovered, read, unchanged, outsideWindow, failed, partsWritten, durationMs }) => ({ provider, discovered, read, unchanged, ...(outsideWindow ? { outsideWindow } : {}), failed, partsWritten, durationMs })),
  };
}

/**
 * A tick is `sweep.tick` (compact when nothing changed) and a manual import `backfill.run`, unchanged
 * ones included. A run cancelled before its end says so at the top (`cancelled: true`) as well as in
 * its providers, so it never reads as one that finished.
 */
export function recordRun(recorder: Recorder, providers: ProviderStats[], kind: 'scheduled' | 'manual'): void {
  if (kind === 'scheduled' && isUnchangedTick(providers)) return safely(recorder, 'sweep.tick', compactTick(providers));
  const cancelled = providers.some((p) => p.cancelled) ? { cancelled: true } : {};
  safely(recorder, kind === 'scheduled' ? 'sweep.tick' : 'backfill.run', { kind, ...cancelled, providers });
}

export function recordPrune(recorder: Recorder, report: PruneReport, manual: boolean): void {
  const data = {
    kind: manual ? 'manual' : 'scheduled',
    removedParts: report.removedParts,
    removedSessions: report.removedSessions,
    removedMessages: report.removedMessages,
    removedConversations: report.removedConversations,
    durationMs: report.durationMs,
    complete: report.complete,
  };
  recorder.logger.info('cache prune', data);
  safely(recorder, 'cache.prune', data);
}
