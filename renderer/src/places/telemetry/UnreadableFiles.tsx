import type { ReactElement } from 'react';
import type { UnreadableFile } from '../../../../core/api/index.js';
import { countOf, formatDateTime, Panel, PathText, providerLabel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { byRemedy, remedyWords, whatIsWrong } from './unreadable-words.js';

/** How many files Home names under its warning; Telemetry names up to the contract's default. */
const ON_HOME = 3;

/** One file: its path, what is wrong in words, and its code behind Details (for a report, not for reading). */
function File({ f }: { f: UnreadableFile }): ReactElement {
  return (
    <li className="unreadable-files__file">
      <PathText path={f.path} />{' '}
      <span className="muted">
        {providerLabel(f.provider)} · {whatIsWrong(f.code)} · last tried {formatDateTime(f.failedAt)}
      </span>{' '}
      <details className="unreadable-files__details">
        <summary>Details</summary>
        <span className="unreadable-files__code">Code: {f.code}</span>
      </details>
    </li>
  );
}

/**
 * The transcript files Steward could not read when it last tried, by path, grouped by what the person
 * can do about them (wait for one caught mid-write, replace a damaged one, move one that is no
 * transcript). The paths are the person's own files, named here from `Sweep.Unreadable`; the status
 * and telemetry only count them. `compact`: the list alone, under Home's warning.
 */
export function UnreadableFiles({ compact = false }: { compact?: boolean }): ReactElement | null {
  const unreadable = useCall('Sweep.Unreadable', {}, { refreshOn: ['sweep.tick'] });
  const files = unreadable.data?.files ?? [];
  const total = unreadable.data?.total ?? 0;
  if (total === 0) return null;
  const shown = compact ? files.slice(0, ON_HOME) : files;
  const more = total - shown.length;
  const list = (
    <div className="unreadable-files" data-testid="unreadable-files">
      {byRemedy(shown).map((group) => (
        <div key={group.remedy} className="unreadable-files__group" data-remedy={group.remedy}>
          <p className="unreadable-files__remedy">{remedyWords(group.remedy, group.files.length)}</p>
          <ul className="unreadable-files__list">
            {group.files.map((f) => (
              <File key={`${f.provider}:${f.path}`} f={f} />
            ))}
          </ul>
        </div>
      ))}
      {more > 0 && <p className="muted">…and {countOf(more, 'more file')}{compact ? ', in Telemetry' : ''}</p>}
    </div>
  );
  if (compact) return list;
  const one = total === 1;
  return (
    <Panel title="Files Steward could not read">
      <p>
        {one ? 'This transcript file' : `These ${countOf(total, 'transcript file')}`} could not be read. Steward leaves {one ? 'it as it is' : 'them as they are'} and
        tries again once {one ? 'it changes' : 'one changes'} (or when you import history on request); the warning goes once {one ? 'it is' : 'each is'} read, or
        moved out of the agent&rsquo;s folder. The records below only count {one ? 'it' : 'them'}.
      </p>
      {list}
    </Panel>
  );
}
