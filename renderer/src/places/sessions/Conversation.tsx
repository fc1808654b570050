import { useState, type ReactElement } from 'react';
import Markdown from 'react-markdown';
import type { Result, SessionMessage, SessionPart, SessionSubagent } from '../../../../core/api/index.js';
import { ErrorBanner, formatCount, formatDateTime } from '../../components/index.js';
import { useClient } from '../../hooks.js';

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', toolResult: 'Tool result' };

function prettyJson(text: string | null): string {
  if (text === null) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function bytes(n: number): string {
  return n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Tool calls, their results and thinking fold to one line; the hit opens its fold. */
function Fold({ kind, label, summary, text, open, error }: { kind: string; label: string; summary: string | null; text: string; open: boolean; error?: boolean }): ReactElement {
  return (
    <details className={`fold fold--${kind}${error ? ' fold--error' : ''}`} open={open}>
      <summary>
        <span className="fold__label">{label}</span> <span className="fold__summary">{summary}</span>
      </summary>
      <pre className="fold__body">{text}</pre>
    </details>
  );
}

function PartView({ part, role, hit }: { part: SessionPart; role: string | null; hit: boolean }): ReactElement {
  let body: ReactElement;
  switch (part.kind) {
    case 'text':
      body =
        role === 'assistant' ? (
          <div className="part__markdown">
            <Markdown skipHtml>{part.text ?? ''}</Markdown>
          </div>
        ) : (
          <p className="part__text">{part.text}</p>
        );
      break;
    case 'thinking':
      body = <Fold kind="thinking" label="Thinking" summary={part.summary} text={part.text ?? ''} open={hit} />;
      break;
    case 'tool_use':
      body = <Fold kind="tool" label={`Tool call`} summary={part.summary} text={prettyJson(part.text)} open={hit} />;
      break;
    case 'tool_result':
      body = <Fold kind="result" label={part.isError ? 'Failed' : 'Result'} summary={part.summary} text={part.text ?? ''} open={hit} error={part.isError} />;
      break;
    case 'image':
      body = (
        <p className="part__image" role="img" aria-label={`Image${part.image?.mediaType ? `, ${part.image.mediaType}` : ''}, ${bytes(part.image?.bytes ?? 0)}`}>
          Image{part.image?.mediaType ? ` · ${part.image.mediaType}` : ''} · {bytes(part.image?.bytes ?? 0)}
        </p>
      );
      break;
    default:
      body = <Fold kind="other" label={part.kind} summary={part.summary} text={part.text ?? ''} open={hit} />;
  }
  return (
    <div id={`part-${part.partId}`} className={`part part--${part.kind}${hit ? ' part--hit' : ''}`} data-part={part.partId} tabIndex={hit ? -1 : undefined}>
      {body}
      {part.truncatedFrom !== null && <p className="part__cut">Stored as the first part of {formatCount(part.truncatedFrom)} characters.</p>}
    </div>
  );
}

/** A subagent's own conversation, loaded when its fold is opened. */
function Subagent({ subagent, depth }: { subagent: SessionSubagent; depth: number }): ReactElement {
  const client = useClient();
  const [page, setPage] = useState<Result<'Sessions.Get'> | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const s = subagent.session;
  const load = (open: boolean) => {
    if (!open || page || !client) return;
    client.call('Sessions.Get', { sessionId: s.sessionId }).then(setPage, (e: unknown) => setError(e instanceof Error ? e : new Error('The subagent could not be loaded.')));
  };
  return (
    <details className="subagent" onToggle={(e) => load(e.currentTarget.open)}>
      <summary>
        <span className="fold__label">Subagent{s.agentType ? ` ${s.agentType}` : ''}</span> {s.title ?? s.firstRequest ?? 'untitled'} · {formatCount(s.messages)} messages
      </summary>
      <ErrorBanner title="The subagent could not be loaded." error={error} />
      {page ? <Conversation messages={page.messages} subagents={page.subagents} hitPartId={undefined} depth={depth + 1} /> : !error && <p className="muted">Loading…</p>}
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
