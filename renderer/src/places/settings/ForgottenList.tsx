import type { ReactElement } from 'react';
import type { Tombstone } from '../../../../core/api/index.js';
import { ErrorBanner, formatPastTime, Panel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { Unforget } from '../projects/Unforget.js';
import { WipeStatus } from '../projects/WipeStatus.js';

/** How many characters of an id a row shows; the whole id is its tooltip, as Lift needs it whole. */
const ID_CHARS = 12;

/**
 * What a forgotten row is called: its label, else its id (`steward forget --not-stored` keeps no label),
 * so two unlabelled rows are told apart and each matches what `steward forget --list` prints.
 */
export function TombstoneName({ tombstone }: { tombstone: Pick<Tombstone, 'id' | 'label'> }): ReactElement {
  const { id, label } = tombstone;
  if (label !== null) return <strong>{label}</strong>;
  return <code title={id}>{id.length > ID_CHARS + 1 ? `${id.slice(0, ID_CHARS)}…` : id}</code>;
}

/**
 * What was forgotten (`Forget.List`), each with Unforget beside it. Read once per visit, not on every
 * forget event: a lifted row stays, with what Unforget said in place of its button, until the person
 * comes back.
 */
export function ForgottenList(): ReactElement {
  const list = useCall('Forget.List', {});
  const tombstones = list.data?.tombstones ?? [];
  return (
    <Panel title="Forgotten conversations and projects">
      <ErrorBanner title="The forgotten list could not be read." error={list.error} onRetry={list.reload} />
      <WipeStatus />
      {list.data !== undefined && tombstones.length === 0 && <p className="muted">Nothing is forgotten. Forget a conversation or a project from its page.</p>}
      {tombstones.length > 0 && (
        <>
          <p className="muted">Steward does not import these again while their transcripts stay on disk.</p>
          <ul className="forgotten-list">
            {tombstones.map((t) => (
              <li key={`${t.kind}:${t.id}`} className="forgotten-list__item">
                <span>
                  <TombstoneName tombstone={t} />{' '}
                  <span className="muted">
                    {t.kind === 'session' ? 'conversation' : 'project'}, forgotten <time dateTime={new Date(t.createdAt).toISOString()}>{formatPastTime(t.createdAt)}</time>
                  </span>
                </span>
                <Unforget kind={t.kind} id={t.id} />
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
