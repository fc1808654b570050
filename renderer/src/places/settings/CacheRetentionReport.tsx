import type { ReactElement, RefObject } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { countOf, DataTable, formatCount, formatDateTime, formatDuration, providerLabel, type Column } from '../../components/index.js';

export type Report = Result<'Cache.Prune'>;
type Cutoff = Report['cutoffs'][number];

export const PARTS = { one: 'part', other: 'parts' };
const CONVERSATIONS = { one: 'conversation', other: 'conversations' };

function cutoffText(cutoff: Cutoff): string {
  return cutoff.cutoffMs === null ? 'Keeps everything' : `Older than ${formatDateTime(cutoff.cutoffMs)}`;
}

function columns(countHeader: string): readonly Column<Cutoff>[] {
  return [
    { header: 'Agent', cell: (c) => providerLabel(c.provider) },
    { header: 'Retention cutoff', cell: cutoffText },
    { header: countHeader, cell: (c) => formatCount(c.removedParts), align: 'end' },
  ];
}

/** What a dry run found: per agent, and in one sentence. */
export function CheckResult({ report }: { report: Report }): ReactElement {
  return (
    <div className="cache-retention__result" data-testid="cache-retention-check">
      <DataTable caption="What the retention window would remove" columns={columns('Parts that would go')} rows={report.cutoffs} rowKey={(c) => c.provider} />
      <p role="status">
        {report.cutoffs.every((c) => c.cutoffMs === null)
          ? 'The retention window is open (0 days), so the cache keeps everything: nothing would be removed.'
          : report.removedParts === 0
            ? 'Nothing is older than the retention window: nothing would be removed.'
            : `${countOf(report.removedParts, PARTS)} would go, and with them ${countOf(report.removedSessions, CONVERSATIONS)} left with nothing newer.`}
      </p>
    </div>
  );
}

/** What a removal did, said where the focus lands after it. */
export function RemovalResult({ report, resultRef }: { report: Report; resultRef: RefObject<HTMLParagraphElement | null> }): ReactElement {
  return (
    <div className="cache-retention__result" data-testid="cache-retention-removed">
      <p role="status" ref={resultRef} tabIndex={-1}>
        Removed {countOf(report.removedParts, PARTS)} and {countOf(report.removedSessions, CONVERSATIONS)} in {formatDuration(report.durationMs)}.
        {!report.complete && ' Stopped early (Steward was shutting down); the next pass finishes it. Check again to see what is left.'}
      </p>
      <DataTable caption="What the retention window removed" columns={columns('Parts removed')} rows={report.cutoffs} rowKey={(c) => c.provider} />
    </div>
  );
}
