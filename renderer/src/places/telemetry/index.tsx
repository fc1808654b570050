import { lazy, Suspense, useState, type ReactElement } from 'react';
import type { TelemetryEntry } from '../../../../core/api/index.js';
import { projectChoiceLabels } from '../../../../core/api/names.js';
import { Badge, ChoiceChips, DataTable, EmptyState, ErrorBanner, formatDateTime, Glossary, PlaceHeader, type Column } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { failed, KIND_FILTERS, sentenceOf, speaksOfParts, warned, whatOf } from './sentences.js';
import { foundNothingNew, tickOf, type Tick } from './ticks.js';
import { Totals } from './Totals.js';
import { UnreadableFiles } from './UnreadableFiles.js';
import './telemetry.css';

const RECENT_LIMIT = 200;

// The chart library is most of the panel's weight: it loads when the Telemetry place first has checks to draw.
const TickCharts = lazy(() => import('./TickCharts.js').then((module) => ({ default: module.TickCharts })));

const FILTERS = [{ kind: undefined, label: 'Everything' }, ...Object.entries(KIND_FILTERS).map(([kind, label]) => ({ kind, label }))] as const;

/** A check whose sentence says "nothing new" (the same judgement the totals count). */
function nothingNew(entry: TelemetryEntry): boolean {
  const tick = tickOf(entry);
  return tick !== undefined && foundNothingNew(tick);
}

/** A failure is marked in red; a check meeting only files already known unreadable, in amber as the status does. */
function rowClass(entry: TelemetryEntry): string | undefined {
  if (failed(entry)) return 'telemetry-row--failed';
  return warned(entry) ? 'telemetry-row--warned' : undefined;
}

function columns(projectName: (key: string) => string | undefined): readonly Column<TelemetryEntry>[] {
  return [
    { header: 'When', sortValue: (e) => e.at, cell: (e) => <time dateTime={new Date(e.at).toISOString()}>{formatDateTime(e.at)}</time> },
    { header: 'What', sortValue: whatOf, cell: whatOf },
    {
      header: 'What happened',
      cell: (e) => (
        <span className="telemetry-sentence" data-kind={e.kind} data-unchanged={nothingNew(e) ? 'true' : undefined}>
          {failed(e) && <Badge tone="danger">Failed</Badge>}
          {warned(e) && <Badge tone="warn">Warning</Badge>} {sentenceOf(e, projectName)}
        </span>
      ),
    },
  ];
}

/**
 * Telemetry: what each scheduled check, import, notes run and clean-up did and how long it took, as
 * sentences; scheduled checks drawn apart from imports on request; failures marked; filtered by
 * kind; totals of what is listed. Counts and durations only, never content or paths; the files the
 * last checks could not read are named apart, above them, from their own read (Sweep.Unreadable).
 */
export function TelemetryPlace(): ReactElement {
  const [kind, setKind] = useState<string | undefined>();
  const recent = useCall('Telemetry.Recent', { limit: RECENT_LIMIT, ...(kind ? { kind } : {}) }, { refreshOn: ['sweep.tick', 'sweeper.finished', 'sweeper.failed'] });
  // A project captured after the page opened is named too, not called "no longer listed".
  const projects = useCall('Projects.List', {}, { refreshOn: ['sweep.tick', 'sweeper.finished', 'sweeper.failed'] });
  // Two projects of one name are told apart by their folders, as in every list of projects.
  const names = projectChoiceLabels(projects.data?.projects ?? []);
  const entries = recent.data?.entries ?? [];
  // The charts compare the schedule's checks: one by hand is listed and counted, not drawn among them.
  const scheduled = entries.map(tickOf).filter((tick): tick is Tick => tick !== undefined && tick.kind === 'scheduled' && !tick.byHand);
  return (
    <>
      <PlaceHeader title="Telemetry" description="What Steward did and how long it took. The records keep counts and durations, never content or paths; only the files it could not read are named, from your own folders." />
      <ChoiceChips className="telemetry-filter" label="Show" options={FILTERS.map((f) => f.label)} chosen={FILTERS.findIndex((f) => f.kind === kind)} onChoose={(index) => setKind(FILTERS[index]!.kind)} />
      <UnreadableFiles />
      <ErrorBanner title="Telemetry could not be loaded." error={recent.error} onRetry={recent.reload} />
      {recent.data !== undefined && entries.length === 0 && (
        <EmptyState icon="telemetry" title={kind ? `No ${KIND_FILTERS[kind]?.toLowerCase() ?? kind} yet` : 'Nothing recorded yet'}>
          <p>
            Every scheduled check of the agents&rsquo; folders is recorded here (even one that finds nothing new, to show Steward is alive), with imports you ask for,
            project notes runs and clean-ups: how many files, how many new messages, how long.
          </p>
          <p>No sweep of the folders has run since this Steward home was created, so there is nothing to show.</p>
        </EmptyState>
      )}
      {entries.length > 0 && <Totals entries={entries} />}
      {scheduled.length > 0 && (
        <Suspense fallback={<p className="telemetry__loading">Loading charts…</p>}>
          <TickCharts ticks={scheduled} />
        </Suspense>
      )}
      {entries.length > 0 && (
        <DataTable caption="Recent activity" columns={columns((key) => names.get(key))} rows={entries} rowKey={(e) => e.id} rowClass={rowClass} />
      )}
      {speaksOfParts(entries, (key) => names.get(key)) && (
        <Glossary term="Part">one piece of a message as Steward stores it (its text, a tool call, a tool result); older records count parts where newer ones count messages.</Glossary>
      )}
    </>
  );
}
