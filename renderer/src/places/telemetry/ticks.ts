import type { ProviderSweepStats, TelemetryEntry } from '../../../../core/api/index.js';
import { failuresOf } from '../../../../core/api/import-words.js';

/** One provider's share of a tick as telemetry keeps it (an unchanged tick keeps only these counts). */
export type TickProvider = Pick<ProviderSweepStats, 'provider' | 'discovered' | 'read' | 'unchanged' | 'failed' | 'partsWritten' | 'durationMs'> & Partial<ProviderSweepStats>;

export interface Tick {
  id: number;
  at: number;
  /** A scheduled check (`sweep.tick`) or an import someone asked for (`backfill.run`). */
  kind: 'scheduled' | 'manual';
  /** A check someone asked for (Check now, Import now, `steward sweep`): a `sweep.tick` whose `trigger` is `hand`; a scheduled row carries no `trigger` (nor does one from before ticks said who started them). */
  byHand: boolean;
  /** Recorded compactly: nothing was new, nothing failed, no line skipped (see `foundNothingNew` for what the rows say). */
  unchanged: boolean;
  providers: TickProvider[];
}

const COUNT_KEYS = ['discovered', 'read', 'unchanged', 'failed', 'partsWritten', 'durationMs'] as const;

function isStats(value: unknown): value is TickProvider {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.provider === 'string' && COUNT_KEYS.every((key) => typeof record[key] === 'number');
}

/** A telemetry entry's tick, when it is a scheduled check or an import on request; anything else is undefined. */
export function tickOf(entry: TelemetryEntry): Tick | undefined {
  if (entry.kind !== 'sweep.tick' && entry.kind !== 'backfill.run') return undefined;
  const providers = entry.data.providers;
  if (!Array.isArray(providers) || !providers.every(isStats)) return undefined;
  return { id: entry.id, at: entry.at, kind: entry.kind === 'sweep.tick' ? 'scheduled' : 'manual', byHand: entry.kind === 'sweep.tick' && entry.data.trigger === 'hand', unchanged: entry.data.unchanged === true, providers };
}

export interface TickTotals {
  files: number;
  read: number;
  failed: number;
  /**
   * Of `failed`: files already known unreadable and not opened again, unchanged since they failed. A
   * warning (the status's amber), not a new failure: they fail every check until they change.
   */
  stillUnreadable: number;
  /** Files never opened because they are older than the window. */
  outsideWindow: number;
  /** Set when a provider's run was cancelled: the files it had not read through. */
  notReached: number | undefined;
  parts: number;
  /** Undefined when a tick recorded before messages were counted wrote parts. */
  messages: number | undefined;
  durationMs: number;
}

export function totalsOf(tick: Pick<Tick, 'providers'>): TickTotals {
  const sum = (pick: (p: TickProvider) => number) => tick.providers.reduce((n, p) => n + pick(p), 0);
  const parts = sum((p) => p.partsWritten);
  const known = tick.providers.every((p) => p.messagesWritten !== undefined || p.partsWritten === 0);
  const cancelled = tick.providers.some((p) => p.cancelled);
  const outsideWindow = sum((p) => p.outsideWindow ?? 0);
  // The CLI's rule too (failuresOf): a file known unreadable and unchanged since is a warning, not a failure of this check.
  const { stillUnreadable } = failuresOf(tick.providers);
  return { files: sum((p) => p.discovered), read: sum((p) => p.read), failed: sum((p) => p.failed), stillUnreadable, outsideWindow, notReached: cancelled ? sum((p) => p.notReached ?? 0) : undefined, parts, messages: known ? sum((p) => p.messagesWritten ?? 0) : undefined, durationMs: sum((p) => p.durationMs) };
}

/**
 * Whether a check found nothing new: it wrote nothing. The row's sentence and the totals both ask
 * this, so they never disagree; the stored `unchanged` flag is narrower (it also means nothing failed
 * and no line was skipped) and says only that the row was recorded compactly.
 */
export function foundNothingNew(tick: Pick<Tick, 'providers'>): boolean {
  return totalsOf(tick).parts === 0;
}

export interface ChartPoint {
  at: number;
  label: string;
  read: number;
  unchanged: number;
  messages: number;
  [durationKey: `ms_${string}`]: number;
}

/** A check's time of day as the table's When column writes it (formatDateTime's `timeStyle: 'short'`): "5:33 PM", never "05:33 PM". */
function timeOfDay(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { timeStyle: 'short' });
}

/** "Mar 12, 5:33 PM": a check's date and time, short enough for an axis, its time as the table writes it. */
export function axisTime(at: number): string {
  return `${new Date(at).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}, ${timeOfDay(at)}`;
}

/**
 * The time axis's labels of these checks: the time of day alone ("5:33 PM") while they are all of one day,
 * else with the date (axisTime). Half as wide, the labels need half the room at the chart's ends.
 */
export function axisLabeller(points: ReadonlyArray<{ at: number }>): (at: number) => string {
  const days = new Set(points.map((p) => new Date(p.at).toDateString()));
  return days.size > 1 ? axisTime : timeOfDay;
}

/** Oldest first, one point per check, the providers summed for files and messages, durations per provider. */
export function chartPoints(ticks: readonly Tick[]): ChartPoint[] {
  return [...ticks]
    .sort((a, b) => a.at - b.at)
    .map((tick) => {
      const point: ChartPoint = { at: tick.at, label: axisTime(tick.at), read: 0, unchanged: 0, messages: 0 };
      for (const p of tick.providers) {
        point.read += p.read;
        point.unchanged += p.unchanged;
        point.messages += p.messagesWritten ?? 0;
        point[`ms_${p.provider}`] = p.durationMs;
      }
      return point;
    });
}

export function providerNames(ticks: readonly Tick[]): string[] {
  return [...new Set(ticks.flatMap((t) => t.providers.map((p) => p.provider)))];
}
