import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { SessionSummary } from '../../../../core/api/index.js';
import { Button, countOf, ErrorBanner, formatDuration, formatRelativeTime, Panel } from '../../components/index.js';
import { useAction, useCall, useClient } from '../../hooks.js';
import { sessionHref } from '../../navigation.js';

/** A project's conversations, newest first: title (or first request), when, how long, how many messages. */
export function ProjectSessions({ projectKey }: { projectKey: string }): ReactElement {
  const client = useClient();
  const first = useCall('Sessions.List', { projectKey, limit: 25 }, { refreshOn: ['sweep.tick', 'history.changed'] });
  const [extra, setExtra] = useState<{ sessions: SessionSummary[]; cursor: string | undefined } | undefined>();
  const [error, setError] = useState<Error | undefined>();
  useEffect(() => setExtra(undefined), [first.data]);
  const sessions = [...(first.data?.sessions ?? []), ...(extra?.sessions ?? [])];
  const cursor = extra ? extra.cursor : first.data?.cursor;
  const more = () => {
    if (!client || !cursor) return;
    client.call('Sessions.List', { projectKey, limit: 25, cursor }).then(
      (page) => setExtra((previous) => ({ sessions: [...(previous?.sessions ?? []), ...page.sessions], cursor: page.cursor })),
      (e: unknown) => setError(e instanceof Error ? e : new Error('More conversations could not be loaded.')),
    );
  };
  return (
    <Panel title="Conversations">
      <ErrorBanner title="The conversations could not be loaded." error={first.error ?? error} onRetry={first.reload} />
      {first.data !== undefined && sessions.length === 0 && <p className="muted">No conversation of this project is stored.</p>}
      <ul className="project-sessions">
        {sessions.map((s) => (
          <li key={s.sessionId}>
            <a href={sessionHref(s.sessionId)} className="project-sessions__link">
              {s.title ?? s.firstRequest ?? 'Untitled conversation'}
            </a>
            <span className="project-sessions__meta">
              {s.lastAt !== null && <time dateTime={new Date(s.lastAt).toISOString()}>{formatRelativeTime(s.lastAt)}</time>}
              {` · ${countOf(s.messages, 'message')}`}
              {s.durationMs !== null && s.durationMs > 0 ? ` · ${formatDuration(s.durationMs)}` : ''}
              {s.subagents > 0 ? ` · ${countOf(s.subagents, 'subagent')}` : ''}
            </span>
          </li>
        ))}
      </ul>
      {cursor && <Button onClick={more}>More conversations</Button>}
    </Panel>
  );
}

/** Forgetting a project asks first, in place, and says what went. */
export function ForgetProject({ projectKey, name, onForgotten }: { projectKey: string; name: string; onForgotten: () => void }): ReactElement {
  const forget = useAction('Forget.Project');
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <Button variant="danger" onClick={() => setAsking(true)}>
        Forget project…
      </Button>
    );
  return (
    <div className="forget-project" role="group" aria-label={`Forget ${name}`} data-asking="">
      <p>
        Forget {name}? Every conversation of this folder and the notes Steward keeps for it are deleted, and nothing of it is imported again while its transcripts stay on
        disk.
      </p>
      <Button variant="danger" onClick={() => void forget.run({ projectKey }).then((done) => done && onForgotten())} disabled={forget.busy}>
        Yes, forget the project
      </Button>
      <Button ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </Button>
      <ErrorBanner title="The project was not forgotten." error={forget.error} />
    </div>
  );
}
