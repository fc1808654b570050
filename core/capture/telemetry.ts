import type { ProviderId, PruneReport, TelemetryEntry } from '../api/index.js';
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

/** The window a run on request was asked for: everything, a number of days, or (neither) each provider's own. */
export type RunWindow = { all?: boolean | undefined; days?: number | undefined };

/**
 * A tick is `sweep.tick` (compact when nothing changed) and a manual import `backfill.run`, unchanged
 * ones included. A run cancelled before its end says so at the top (`cancelled: true`) as well as in
 * its providers, so it never reads as one that finished. A manual run keeps the window it was asked
 * for (`all: true` or `days`), which olderLeftOut needs to weigh what it left out.
 */
export function recordRun(recorder: Recorder, providers: ProviderStats[], kind: 'scheduled' | 'manual', window: RunWindow = {}): void {
  if (kind === 'scheduled' && isUnchangedTick(providers)) return safely(recorder, 'sweep.tick', compactTick(providers));
  const cancelled = providers.some((p) => p.cancelled) ? { cancelled: true } : {};
  const asked = kind === 'scheduled' ? {} : window.all === true || window.days === 0 ? { all: true } : window.days !== undefined ? { days: window.days } : {};
  safely(recorder, kind === 'scheduled' ? 'sweep.tick' : 'backfill.run', { kind, ...asked, ...cancelled, providers });
}

/** One provider's line of a recorded run, as far as olderLeftOut reads it (rows are JSON: nothing is assumed). */
function runOf(entry: TelemetryEntry, provider: ProviderId): { outside: number; cancelled: boolean } | undefined {
  const providers = entry.data.providers;
  if (!Array.isArray(providers)) return undefined;
  const stats = (providers as unknown[]).find((p): p is { [key: string]: unknown } => typeof p === 'object' && p !== null && (p as { provider?: unknown }).provider === provider);
  if (!stats) return undefined;
  const skipped = stats.skipped as { outside_window?: unknown } | undefined;
  const outside = typeof skipped?.outside_window === 'number' ? skipped.outside_window : 0;
  return { outside, cancelled: stats.cancelled === true };
}

/**
 * The messages `provider`'s recorded runs (`sweep.tick` and `backfill.run` rows, oldest first) left out
 * as older than a window of `windowDays` (0: none) and no later run imported. The window applies to a
 * line's own time, so this is what file times cannot tell: a file copied or restored today whose
 * lines are from last year. A scheduled run reads only what is new or changed, so it adds what it
 * left out. A finished run on request reads every file from its start: one at least as wide as the
 * window counts afresh what is still left out (none, for an import of everything); a narrower one
 * left out lines the window holds, which were imported, so it changes nothing. A cancelled one read
 * only part of the files and changes nothing either. `from`: the count up to the run before `runs`.
 */
export function olderLeftOut(runs: readonly TelemetryEntry[], provider: ProviderId, windowDays: number, from = 0): number {
  if (windowDays === 0) return 0;
  let left = from;
  for (const entry of runs) {
    const run = runOf(entry, provider);
    if (!run) continue;
    if (entry.kind === 'sweep.tick') {
      left += run.outside;
      continue;
    }
    if (run.cancelled) continue;
    // A row from before manual runs kept their window was asked for the provider's own.
    const days = entry.data.all === true ? 0 : typeof entry.data.days === 'number' ? entry.data.days : windowDays;
    if (days === 0 || days >= windowDays) left = run.outside;
  }
  return left;
}

export function recordPrune(recorder: Recorder, report: PruneReport, manual: boolean): void {
  const data = { kind: manual ? 'manual' : 'scheduled', removedParts: report.removedParts, removedSessions: report.removedSessions, durationMs: report.durationMs, complete: report.complete };
  recorder.logger.info('cache prune', data);
  safely(recorder, 'cache.prune', data);
}
