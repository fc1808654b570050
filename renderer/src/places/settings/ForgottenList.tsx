import type { ReactElement } from 'react';
import { ErrorBanner, formatRelativeTime, Panel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { Unforget } from '../projects/Unforget.js';

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
      {list.data !== undefined && tombstones.length === 0 && <p className="muted">Nothing is forgotten. Forget a conversation or a project from its page.</p>}
      {tombstones.length > 0 && (
        <>
          <p className="muted">Steward does not import these again while their transcripts stay on disk.</p>
          <ul className="forgotten-list">
            {tombstones.map((t) => (
              <li key={`${t.kind}:${t.id}`} className="forgotten-list__item">
                <span>
                  <strong>{t.label ?? (t.kind === 'session' ? 'Untitled conversation' : 'Unnamed project')}</strong>{' '}
                  <span className="muted">
                    {t.kind === 'session' ? 'conversation' : 'project'}, forgotten <time dateTime={new Date(t.createdAt).toISOString()}>{formatRelativeTime(t.createdAt)}</time>
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
