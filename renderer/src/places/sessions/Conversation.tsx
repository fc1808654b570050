import type { ReactElement } from 'react';
import type { SessionMessage, SessionSubagent } from '../../../../core/api/index.js';
import { countOf, ErrorBanner, formatDateTime } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { PartView } from './PartView.js';

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', toolResult: 'Tool result' };

/** A subagent's own conversation, loaded when its fold is opened. */
function Subagent({ subagent, depth }: { subagent: SessionSubagent; depth: number }): ReactElement {
  const loaded = useAction('Sessions.Get');
  const s = subagent.session;
  const load = (open: boolean) => {
    if (open && !loaded.data && !loaded.busy) void loaded.run({ sessionId: s.sessionId });
  };
  return (
    <details className="subagent" onToggle={(e) => load(e.currentTarget.open)}>
      <summary>
        <span className="fold__label">Subagent{s.agentType ? ` ${s.agentType}` : ''}</span> {s.title ?? s.firstRequest ?? 'untitled'} · {countOf(s.messages, 'message')}
      </summary>
      <ErrorBanner title="The subagent could not be loaded." error={loaded.error} />
      {loaded.data ? <Conversation messages={loaded.data.messages} subagents={loaded.data.subagents} hitPartId={undefined} depth={depth + 1} /> : !loaded.error && <p className="muted">Loading…</p>}
    </details>
  );
}

/**
 * A conversation as people read it: turns in order, thinking and tool calls folded to one line,
 * results expandable, subagents nested after the message that started them, images as placeholders.
 */
export function Conversation({ messages, subagents, hitPartId, depth = 0 }: { messages: readonly SessionMessage[]; subagents: readonly SessionSubagent[]; hitPartId: string | undefined; depth?: number }): ReactElement {
  const startedBy = new Map<string, SessionSubagent[]>();
  for (const sub of subagents) if (sub.startedBy) startedBy.set(sub.startedBy, [...(startedBy.get(sub.startedBy) ?? []), sub]);
  // A subagent started on another page appears with that page; one whose start is unknown, at the end.
  const unplaced = subagents.filter((sub) => !sub.startedBy);
  return (
    <div className="conversation">
      {messages.map((m) => {
        const who = ROLE_LABEL[m.role ?? ''] ?? m.role ?? 'Message';
        const toolOnly = m.parts.every((p) => p.kind === 'tool_result');
        return (
          <article key={m.messageId} className={`message ${toolOnly ? 'message--tool' : `message--${m.role ?? 'other'}`}`} aria-label={`${toolOnly ? 'Tool result' : who}${m.ts !== null ? `, ${formatDateTime(m.ts)}` : ''}`}>
            <header className="message__header">
              <span className="message__who">{toolOnly ? 'Tool result' : who}</span>
              {m.ts !== null && <time dateTime={new Date(m.ts).toISOString()}>{formatDateTime(m.ts)}</time>}
            </header>
            {m.parts.map((part) => (
              <PartView key={part.partId} part={part} role={m.role} hit={part.partId === hitPartId} />
            ))}
            {depth < 4 && (startedBy.get(m.messageId) ?? []).map((sub) => <Subagent key={sub.session.sessionId} subagent={sub} depth={depth} />)}
          </article>
        );
      })}
      {depth < 4 && unplaced.map((sub) => <Subagent key={sub.session.sessionId} subagent={sub} depth={depth} />)}
    </div>
  );
}
