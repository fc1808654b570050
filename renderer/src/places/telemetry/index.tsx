import { lazy, Suspense, type ReactElement } from 'react';
import type { TelemetryEntry } from '../../../../core/api/index.js';
import { DataTable, EmptyState, ErrorBanner, formatCount, formatDateTime, formatDuration, PlaceHeader, type Column } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { tickOf } from './ticks.js';
import './telemetry.css';

const RECENT_LIMIT = 50;

// The chart library is most of the panel's weight: it loads when the Telemetry place first has ticks.
const TickCharts = lazy(() => import('./TickCharts.js').then((module) => ({ default: module.TickCharts })));

/** Counts and durations only (never content or paths), so a compact key=value line is safe to show. */
function summarize(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([, value]) => typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(' · ');
}

function Details({ entry }: { entry: TelemetryEntry }): ReactElement {
  const tick = tickOf(entry);
  if (!tick) return <>{summarize(entry.data)}</>;
  return (
    <ul className="tick-providers">
      {tick.providers.map((p) => (
        <li key={p.provider} data-provider={p.provider}>
          <span className="tick-providers__name">{p.provider}</span>
          {formatCount(p.discovered)} discovered · {formatCount(p.read)} read · {formatCount(p.unchanged)} unchanged · {formatCount(p.failed)} failed ·{' '}
          {formatCount(p.partsWritten)} parts · {formatDuration(p.durationMs)}
        </li>
      ))}
    </ul>
  );
}

const COLUMNS: readonly Column<TelemetryEntry>[] = [
  { header: 'When', cell: (entry) => <time dateTime={new Date(entry.at).toISOString()}>{formatDateTime(entry.at)}</time> },
  { header: 'Kind', cell: (entry) => <code>{entry.kind}</code> },
  { header: 'Details', cell: (entry) => <Details entry={entry} /> },
];

/**
 * Telemetry: what each sweep tick did and how long it took, from `Telemetry.Recent`, refreshed
 * whenever a `sweep.tick` event arrives.
 */
export function TelemetryPlace(): ReactElement {
  const recent = useCall('Telemetry.Recent', { limit: RECENT_LIMIT }, { refreshOn: ['sweep.tick'] });
  const entries = recent.data?.entries ?? [];
  const ticks = entries.map(tickOf).filter((tick) => tick !== undefined);
  return (
    <>
      <PlaceHeader title="Telemetry" description="What each transcript sweep did and how long it took: counts and durations, never content or paths." />
      <ErrorBanner title="Telemetry could not be loaded." error={recent.error} onRetry={recent.reload} />
      {recent.data !== undefined && entries.length === 0 && (
        <EmptyState icon="telemetry" title="No sweep ticks yet">
          <p>
            Sweep ticks appear after the first sweep. Each tick records how many transcript files were discovered, read, unchanged or
            failed, how many parts were written, and how long each provider took.
          </p>
          <p>No sweep has run since this Steward home was created, so there is nothing to show.</p>
        </EmptyState>
      )}
      {ticks.length > 0 && (
        <Suspense fallback={<p className="telemetry__loading">Loading charts…</p>}>
          <TickCharts ticks={ticks} />
        </Suspense>
      )}
      {entries.length > 0 && <DataTable caption="Recent telemetry" columns={COLUMNS} rows={entries} rowKey={(entry) => entry.id} />}
    </>
  );
}
