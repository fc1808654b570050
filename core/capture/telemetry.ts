import type { PruneReport, TelemetryEntry } from '../api/index.js';
import type { ProviderStats } from '../backfill/index.js';
import { errorCode, type Logger } from '../log/index.js';
import type { TickTrigger } from './queue.js';

/** `at`: the moment the row is of (now when left out). */
export type Record = (kind: string, data: { [key: string]: unknown }, at?: number) => void;

interface Recorder {
  record: Record;
  logger: Logger;
}

/** A telemetry row must never fail the work it describes: a failed write is logged with its cause. */
function safely(recorder: Recorder, kind: string, data: { [key: string]: unknown }, at?: number): void {
  try {
    recorder.record(kind, data, at);
  } catch (error) {
    recorder.logger.warn('telemetry record failed', { kind, code: errorCode(error) });
  }
}

/** A tick that found nothing new and nothing wrong, and ran to its end: every file listed was unchanged or outside the window. */
export function isUnchangedTick(providers: readonly ProviderStats[]): boolean {
  return providers.every((p) => p.read === 0 && p.partsWritten === 0 && p.failed === 0 && p.failedLines === 0 && !p.vanished && !p.errors?.length && !p.withheld && !p.cancelled);
}

/**
 * Who started a tick, as its row says it: only a check by hand is marked. Most rows are the
 * schedule's, and a row without `trigger` reads as scheduled (the Telemetry place's rule), as rows
 * from before ticks said who started them do: leaving it out saves its bytes on every one.
 */
function startedBy(trigger: TickTrigger): { trigger?: 'hand' } {
  return trigger === 'hand' ? { trigger } : {};
}

/**
 * The compact row of an unchanged tick, the proof Steward is alive that most ticks are: the files it
 * checked and how long it took, the providers that listed anything with their six counts, nothing else.
 */
export function compactTick(providers: readonly ProviderStats[], trigger: TickTrigger = 'schedule'): { [key: string]: unknown } {
  const listed = providers.filter((p) => p.discovered > 0);
  return {
    kind: 'scheduled',
    unchanged: true,
    ...startedBy(trigger),
    files: listed.reduce((n, p) => n + p.discovered, 0),
    durationMs: providers.reduce((n, p) => n + p.durationMs, 0),
    // Files outside the window appear only when there are any, so the counts still add up to `discovered`.
    providers: listed.map(({ provider, discovered, read, unchanged, outsideWindow, failed, partsWritten, durationMs }) => ({ provider, discovered, read, unchanged, ...(outsideWindow ? { outsideWindow } : {}), failed, partsWritten, durationMs })),
  };
}

/**
 * A tick is `sweep.tick` (compact when nothing changed) and a manual import `backfill.run`, unchanged
 * ones included. A run cancelled before its end says so at the top (`cancelled: true`) as well as in
 * its providers, so it never reads as one that finished. An import that was a check (`isCheck`) says
 * so (`check: true`): the last check is read back from these rows when Steward starts (lastCheckIn),
 * at the very moment (`at`) Sweep.Status said. A tick a person asked for says so (`trigger: 'hand'`,
 * startedBy); a row without it is the schedule's.
 */
export function recordRun(recorder: Recorder, providers: ProviderStats[], kind: 'scheduled' | 'manual', check = false, at = Date.now(), trigger: TickTrigger = 'schedule'): void {
  if (kind === 'scheduled' && isUnchangedTick(providers)) return safely(recorder, 'sweep.tick', compactTick(providers, trigger), at);
  const cancelled = providers.some((p) => p.cancelled) ? { cancelled: true } : {};
  // A tick's row needs no mark: every tick that ran to its end is a check.
  const checked = kind === 'manual' && check ? { check: true } : {};
  const started = kind === 'scheduled' ? startedBy(trigger) : {};
  safely(recorder, kind === 'scheduled' ? 'sweep.tick' : 'backfill.run', { kind, ...started, ...cancelled, ...checked, providers }, at);
}

/**
 * Whether a run is a check, in the one sense every surface means by "last check": it looked at every
 * enabled agent's folders (`coveredAll`: a tick, or an import of all of them, not of one agent) and ran
 * to its end (a cancelled run left folders unlooked at).
 */
export function isCheck(providers: readonly ProviderStats[], coveredAll: boolean): boolean {
  return coveredAll && !providers.some((p) => p.cancelled);
}

/** Rows of one kind looked through for the newest check: a few cancelled runs or one-agent imports are passed over. */
const CHECK_ROWS_SCANNED = 50;

/**
 * The newest check the runs' rows hold (null: none), so the last check survives a restart and a CLI
 * verb's short-lived process says what the owner said: every unchanged or finished tick, and an import
 * marked `check`. `recent` reads stored rows newest first.
 */
export function lastCheckIn(recent: (limit: number, kind: string) => TelemetryEntry[]): number | null {
  const tick = recent(CHECK_ROWS_SCANNED, 'sweep.tick').find((row) => row.data.cancelled !== true);
  const imported = recent(CHECK_ROWS_SCANNED, 'backfill.run').find((row) => row.data.check === true && row.data.cancelled !== true);
  const times = [tick?.at, imported?.at].filter((at): at is number => at !== undefined);
  return times.length > 0 ? Math.max(...times) : null;
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
