import type { ReactElement } from 'react';
import type { SessionSummary } from '../../../../core/api/index.js';
import { conversationName, countOf, ErrorBanner, formatDateTime, formatPastTime, Panel } from '../../components/index.js';
import { useNow } from '../../clock.js';
import { useCall } from '../../hooks.js';
import { placeHref, sessionHref } from '../../navigation.js';

/** How many of the latest conversations Home lists: a way back to recent work, not the history (Projects has it all). */
export const RECENT_CONVERSATIONS = 8;

/** One conversation's line under its name: agent, project, when it was last active, how many messages. */
function metaWords(s: SessionSummary, now: number): ReactElement {
  const parts = [s.app, s.projectName ?? 'no project'].join(' · ');
  return (
    <span className="recent__meta">
      {parts}
      {s.lastAt !== null && (
        <>
          {' · '}
          <time dateTime={new Date(s.lastAt).toISOString()} title={formatDateTime(s.lastAt)}>
            {formatPastTime(s.lastAt, now)}
          </time>
        </>
      )}
      {` · ${countOf(s.messages, 'message')}`}
    </span>
  );
}

/** The list as given (Sessions.List's order: last active first), each a link to its page; nothing at all when there is none. */
export function RecentList({ sessions, now }: { sessions: readonly SessionSummary[]; now: number }): ReactElement | null {
  if (sessions.length === 0) return null;
  return (
    <Panel title="Recent conversations" actions={<a href={placeHref('projects')}>All conversations, by project</a>}>
      <ul className="recent" data-testid="recent-conversations">
        {sessions.map((s) => (
          <li key={s.sessionId}>
            <a href={sessionHref(s.sessionId)} className="recent__link" data-session={s.sessionId}>
              {conversationName(s)}
            </a>
            {metaWords(s, now)}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/**
 * The latest conversations across projects, asked again after each check and each forget, as
 * Home's other cards are. Titles and first requests redacted: Home is read on a shared screen too.
 */
export function RecentConversations(): ReactElement | null {
  const recent = useCall('Sessions.List', { limit: RECENT_CONVERSATIONS, redact: true }, { refreshOn: ['sweep.tick', 'history.changed'] });
  const now = useNow(15_000);
  if (recent.error) {
    return (
      <Panel title="Recent conversations">
        <ErrorBanner title="The recent conversations could not be loaded." error={recent.error} onRetry={recent.reload} />
      </Panel>
    );
  }
  return <RecentList sessions={recent.data?.sessions ?? []} now={now} />;
}
