import type { ReactElement } from 'react';
import { countOf, DetailList, ErrorBanner, formatBytes, formatDateTime, formatRelativeTime, Panel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { useNow } from '../../clock.js';

function when(at: number | null, now: number, none: string): ReactElement | string {
  return at === null ? none : <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)}>{formatRelativeTime(at, now)}</time>;
}

/** What Steward keeps (messages, conversations, projects, disk) and when it last looked and looks again. */
export function Stored(): ReactElement {
  const stats = useCall('Cache.Stats', {}, { refreshOn: ['sweep.tick', 'history.changed'] });
  const sweep = useCall('Sweep.Status', {}, { refreshOn: ['sweep.tick', 'app.status'] });
  const now = useNow(15_000);
  const s = stats.data;
  const next = sweep.data?.nextTickAt ?? null;
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
            { term: 'Last check', value: when(sweep.data?.lastTickAt ?? null, now, 'Not since Steward started') },
            {
              term: 'Next check',
              value: next !== null ? when(next, now, '') : sweep.data?.scheduled ? 'Paused: no check until you resume' : 'Only when asked (this Steward does not check on a schedule)',
            },
          ]}
        />
      )}
    </Panel>
  );
}
