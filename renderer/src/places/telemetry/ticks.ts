import type { ProviderSweepStats, TelemetryEntry } from '../../../../core/api/index.js';

export interface Tick {
  id: number;
  at: number;
  kind: string;
  providers: ProviderSweepStats[];
}

const COUNT_KEYS = ['discovered', 'read', 'unchanged', 'failed', 'partsWritten', 'durationMs'] as const;

function isStats(value: unknown): value is ProviderSweepStats {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.provider === 'string' && COUNT_KEYS.every((key) => typeof record[key] === 'number');
}

/** A telemetry entry's sweep stats, when it is a sweep tick or a backfill; anything else is undefined. */
export function tickOf(entry: TelemetryEntry): Tick | undefined {
  if (entry.kind !== 'sweep.tick' && entry.kind !== 'backfill.run') return undefined;
  const providers = entry.data.providers;
  if (!Array.isArray(providers) || !providers.every(isStats)) return undefined;
  return { id: entry.id, at: entry.at, kind: entry.kind, providers };
}

export interface ChartPoint {
  label: string;
  read: number;
  unchanged: number;
  partsWritten: number;
  [durationKey: `ms_${string}`]: number;
}

/** Oldest first, one point per tick, the providers summed for files and parts, durations per provider. */
export function chartPoints(ticks: readonly Tick[]): ChartPoint[] {
  return [...ticks]
    .sort((a, b) => a.at - b.at)
    .map((tick) => {
      const point: ChartPoint = {
        label: new Date(tick.at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }),
        read: 0,
        unchanged: 0,
        partsWritten: 0,
      };
      for (const p of tick.providers) {
        point.read += p.read;
        point.unchanged += p.unchanged;
        point.partsWritten += p.partsWritten;
        point[`ms_${p.provider}`] = p.durationMs;
      }
      return point;
    });
}

export function providerNames(ticks: readonly Tick[]): string[] {
  return [...new Set(ticks.flatMap((t) => t.providers.map((p) => p.provider)))];
}
