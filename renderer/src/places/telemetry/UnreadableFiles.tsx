import type { ReactElement } from 'react';
import { countOf, formatDateTime, Panel, PathText, providerLabel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { unreadableWhy } from '../../../../core/api/import-words.js';

/** How many files Home names under its warning; Telemetry names up to the contract's default. */
const ON_HOME = 3;

/**
 * The transcript files Steward could not read when it last tried, by path, with what to do. The
 * paths are the person's own files, named here from `Sweep.Unreadable`; the status and telemetry
 * only count them. `compact`: the list alone, under Home's warning.
 */
export function UnreadableFiles({ compact = false }: { compact?: boolean }): ReactElement | null {
  const unreadable = useCall('Sweep.Unreadable', {}, { refreshOn: ['sweep.tick'] });
  const files = unreadable.data?.files ?? [];
  const total = unreadable.data?.total ?? 0;
  if (total === 0) return null;
  const shown = compact ? files.slice(0, ON_HOME) : files;
  const more = total - shown.length;
  const list = (
    <ul className="unreadable-files" data-testid="unreadable-files">
      {shown.map((f) => (
        <li key={`${f.provider}:${f.path}`} className="unreadable-files__file">
          <PathText path={f.path} />{' '}
          <span className="muted">
            {providerLabel(f.provider)} · {unreadableWhy(f.code)} ({f.code}) · last tried {formatDateTime(f.failedAt)}
          </span>
        </li>
      ))}
      {more > 0 && <li className="muted">…and {countOf(more, 'more file')}{compact ? ', in Telemetry' : ''}</li>}
    </ul>
  );
  if (compact) return list;
  const one = total === 1;
  return (
    <Panel title="Files Steward could not read">
      <p>
        {one ? 'This transcript file' : `These ${countOf(total, 'transcript file')}`} could not be read: {one ? 'it may be damaged, or not a transcript' : 'they may be damaged, or not transcripts'}.
        Steward leaves {one ? 'it as it is' : 'them as they are'} and tries again once {one ? 'it changes' : 'one changes'} (or when you import history on request).
        Replace {one ? 'it' : 'one'} with a good copy, or move it out of the agent&rsquo;s folder, and the warning goes. The records below only count
        {one ? ' it' : ' them'}.
      </p>
      {list}
    </Panel>
  );
}
