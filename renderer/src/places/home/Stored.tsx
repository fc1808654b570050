import { useEffect, useRef, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { countOf, DetailList, ErrorBanner, formatBytes, formatDateTime, formatPastTime, formatRelativeTime, Panel, type Detail } from '../../components/index.js';
import { useCall, useEvent, type CallState } from '../../hooks.js';
import { useNow } from '../../clock.js';
import { usePanel } from '../../store.js';
import { countingWorkEnded, walkEnded } from './totals.js';

/**
 * What Steward keeps (Cache.Stats), asked again after a tick or a forget, and when work that counts
 * ends (see totals.ts): an upgrade's recount ended with "Up to date" and the old total stayed. No timer.
 */
export function useStoredTotals(): CallState<Result<'Cache.Stats'>> {
  const stats = useCall('Cache.Stats', {}, { refreshOn: ['sweep.tick', 'history.changed'] });
  const { reload } = stats;
  useEvent('search.indexing', (progress) => walkEnded(progress) && reload());
  const status = usePanel((state) => state.status);
  const before = useRef(status);
  useEffect(() => {
    if (status !== undefined && countingWorkEnded(before.current, status)) reload();
    before.current = status;
  }, [status, reload]);
  return stats;
}

/** `format` is formatPastTime for what happened: the data can be newer than `now`, which ticks every 15 s. */
function when(at: number | null, now: number, none: string, format = formatRelativeTime): ReactElement | string {
  return at === null ? none : <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)}>{format(at, now)}</time>;
}

/**
 * "Last check" and "Next check". The last is core's one last check (`lastCheckAt`: a tick, or an
 * import of every agent's folders such as "Import everything"), the moment `steward info` names too;
 * it outlives a restart, so none means none ever ran to its end.
 */
export function checkDetails(sweep: Result<'Sweep.Status'> | undefined, now: number): Detail[] {
  const next = sweep?.nextTickAt ?? null;
  return [
    { term: 'Last check', value: when(sweep?.lastCheckAt ?? null, now, 'None yet', formatPastTime) },
    {
      term: 'Next check',
      value: next !== null ? when(next, now, '') : sweep?.scheduled ? 'Paused: no check until you resume' : 'Only when asked (this Steward does not check on a schedule)',
    },
  ];
}

/** What Steward keeps (messages, conversations, projects, disk) and when it last looked and looks again. */
export function Stored(): ReactElement {
  const stats = useStoredTotals();
  const sweep = useCall('Sweep.Status', {}, { refreshOn: ['sweep.tick', 'app.status'] });
  const now = useNow(15_000);
  const s = stats.data;
  return (
    <Panel title="Kept on this computer">
      <ErrorBanner title="The figures could not be loaded." error={stats.error ?? sweep.error} onRetry={() => (stats.reload(), sweep.reload())} />
      {s && (
        <DetailList
          label="Kept on this computer"
          items={[
            { term: 'Messages', value: countOf(s.messages, 'message') },
            { term: 'Conversations', value: countOf(s.conversations, 'conversation') },
            { term: 'Projects', value: countOf(s.projects, 'project') },
            { term: 'Disk used', value: `${formatBytes(s.bytes.home)} in all, ${formatBytes(s.bytes.gateway)} of it the conversations` },
            ...checkDetails(sweep.data, now),
          ]}
        />
      )}
    </Panel>
  );
}
