import type { ReactElement, RefObject } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { DataTable, formatDateTime, providerLabel, type Column } from '../../components/index.js';
import { agentRemoved, checkSentence, removalSentence } from './retention-words.js';

export type Report = Result<'Cache.Prune'>;
type Cutoff = Report['cutoffs'][number];

function cutoffText(cutoff: Cutoff): string {
  return cutoff.cutoffMs === null ? 'Keeps everything' : `Older than ${formatDateTime(cutoff.cutoffMs)}`;
}

/** Each agent's cutoff, and how much of its is older, in messages and whole conversations. */
function columns(olderHeader: string): readonly Column<Cutoff>[] {
  return [
    { header: 'Agent', cell: (c) => providerLabel(c.provider) },
    { header: 'Retention cutoff', cell: cutoffText },
    { header: olderHeader, cell: agentRemoved },
  ];
}

/** What a dry run found: per agent, and in one sentence. */
export function CheckResult({ report }: { report: Report }): ReactElement {
  return (
    <div className="cache-retention__result" data-testid="cache-retention-check">
      <DataTable caption="What the retention window would remove" columns={columns('Would go')} rows={report.cutoffs} rowKey={(c) => c.provider} />
      <p role="status">{checkSentence(report)}</p>
    </div>
  );
}

/** What a removal did, said where the focus lands after it. */
export function RemovalResult({ report, resultRef }: { report: Report; resultRef: RefObject<HTMLParagraphElement | null> }): ReactElement {
  return (
    <div className="cache-retention__result" data-testid="cache-retention-removed">
      <p role="status" ref={resultRef} tabIndex={-1}>
        {removalSentence(report)}
      </p>
      <DataTable caption="What the retention window removed" columns={columns('Removed')} rows={report.cutoffs} rowKey={(c) => c.provider} />
    </div>
  );
}
