import type { ReactElement } from 'react';
import type { TelemetryEntry } from '../../../../core/api/index.js';
import { countOf, DetailList, formatDuration } from '../../components/index.js';
import { failuresTotal, scheduledTotal, warningsTotal } from './sentences.js';
import { tickOf, totalsOf } from './ticks.js';

/** Sums over the rows listed: checks, files checked, new messages, failures, time spent. */
export function Totals({ entries }: { entries: readonly TelemetryEntry[] }): ReactElement {
  const ticks = entries.map(tickOf).filter((t) => t !== undefined);
  const sums = ticks.map(totalsOf);
  // A check by hand is asked for as an import is: counted on request, never as a scheduled check.
  const byHand = ticks.filter((t) => t.byHand).length;
  const imports = ticks.filter((t) => t.kind === 'manual').length;
  const messages = sums.reduce((n, t) => n + (t.messages ?? 0), 0);
  const time = sums.reduce((n, t) => n + t.durationMs, 0) + entries.filter((e) => !tickOf(e)).reduce((n, e) => n + (typeof e.data.durationMs === 'number' ? e.data.durationMs : 0), 0);
  const warnings = warningsTotal(entries);
  return (
    <div className="telemetry-totals" data-testid="telemetry-totals">
      <DetailList
        label="Totals of what is listed"
        items={[
          // Judged as each row's own sentence judges it, so "nothing new" is counted alike in both.
          { term: 'Scheduled checks', value: scheduledTotal(entries) },
          { term: 'Checks on request', value: countOf(byHand, 'check') },
          { term: 'Imports on request', value: countOf(imports, 'import') },
          { term: 'Files checked', value: countOf(sums.reduce((n, t) => n + t.files, 0), 'file') },
          { term: 'New messages', value: countOf(messages, 'message') },
          { term: 'Failures', value: failuresTotal(entries) },
          ...(warnings ? [{ term: 'Warnings', value: warnings }] : []),
          { term: 'Time spent', value: formatDuration(time) },
        ]}
      />
    </div>
  );
}
