import { Fragment, type ReactElement } from 'react';
import type { SessionMessage, SessionPart, SessionSubagent } from '../../../../core/api/index.js';
import { REWOUND_LINE, rewoundMarks } from '../../../../core/api/part-words.js';
import { joinedContext, subagentPlaces } from '../../../../core/api/reading.js';
import { thoughtsOpenWithSubject } from '../../../../core/api/registry.js';
import { conversationName, countOf, ErrorBanner, formatDateTime } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { PartView } from './PartView.js';
import { harnessFold, messageElementId, messageSpeaker } from './reading.js';
import { mergedRanges, secretsIn } from './secret-marks.js';

/** A subagent's own conversation, loaded when its fold is opened, as its parent is read (`redact`). */
function Subagent({ subagent, depth, redact }: { subagent: SessionSubagent; depth: number; redact: boolean }): ReactElement {
  const loaded = useAction('Sessions.Get');
  const s = subagent.session;
  const load = (open: boolean) => {
    if (!open || loaded.data || loaded.busy) return;
    // Shown as written, its parts say where their secrets are, in the same answer.
    void loaded.run({ sessionId: s.sessionId, ...(redact ? { redact } : { markSecrets: true }) });
  };
  return (
    <details className="subagent" onToggle={(e) => load(e.currentTarget.open)}>
      <summary>
        <span className="fold__label">Subagent{s.agentType ? ` ${s.agentType}` : ''}</span> {conversationName(s)} · {countOf(s.messages, 'message')}
      </summary>
      <ErrorBanner title="The subagent could not be loaded." error={loaded.error} />
      {loaded.data ? (
        <Conversation messages={loaded.data.messages} subagents={loaded.data.subagents} hitPartId={undefined} app={s.app} depth={depth + 1} inSubagent redact={redact} />
      ) : (
        !loaded.error && <p className="muted">Loading…</p>
      )}
    </details>
  );
}

/**
 * A run of context parts shown as one (joinedContext) with the secrets of each placed in the joined text;
 * without places when one of them has none, so it is marked whole.
 */
function withJoinedSecrets(shown: SessionPart, partIds: readonly string[], parts: readonly SessionPart[]): SessionPart {
  if (partIds.length === 1) return shown;
  const run = parts.filter((p) => partIds.includes(p.partId));
  const { secrets: _secrets, ...unplaced } = shown;
  if (run.some((p) => p.secrets === undefined)) return unplaced;
  return { ...unplaced, secrets: mergedRanges(run.flatMap((p) => secretsIn(shown.text ?? '', p.text ?? '', p.secrets ?? []))).map(([a, b]): [number, number] => [a, b]) };
}

/** A subagent's fold per way of reading: one loaded redacted is not shown once secrets are asked for, nor the other way. */
const subagentKey = (sub: SessionSubagent, redact: boolean) => `${sub.session.sessionId}:${redact ? 'redacted' : 'raw'}`;

/**
 * A conversation as people read it: turns in order, thinking and tool calls folded to one line,
 * results expandable, subagents nested after the message that started them, images as placeholders.
 * `inSubagent`: the conversation is a subagent's, so its prompts are the main agent's words.
 * `app`: the app that wrote the text it put in the person's name (see harnessFold).
 * `redact`: texts come redacted (subagents are loaded so too); a subagent loaded the other way is loaded again, closed.
 * When not, each secret is marked where its part's `secrets` place it (see PartView's `asWritten`).
 */
export function Conversation({
  messages,
  subagents,
  hitPartId,
  app,
  depth = 0,
  inSubagent = false,
  redact = true,
}: {
  messages: readonly SessionMessage[];
  subagents: readonly SessionSubagent[];
  hitPartId: string | undefined;
  app: string;
  depth?: number;
  inSubagent?: boolean;
  redact?: boolean;
}): ReactElement {
  // Under the message whose call started it; one no call started after the message it started after,
  // outside it (under no call); one started on another page with that page; one whose start is unknown, at the end.
  const { within: startedBy, after: startedAfter, unplaced } = subagentPlaces(subagents);
  // Turns the person rewound past (Gemini CLI) stay, dimmed; where a run of them starts, it says so once.
  const rewound = rewoundMarks(messages);
  // Gemini CLI writes each thought as its subject, then its description: the folded line says the subject.
  const titledThoughts = thoughtsOpenWithSubject(app);
  return (
    <div className="conversation">
      {messages.map((m, i) => {
        const { who, kind } = messageSpeaker(m, inSubagent, app);
        return (
          <Fragment key={m.messageId}>
            {rewound[i] === 'first' && <p className="conversation__rewound">{REWOUND_LINE}</p>}
            {/* Focusable from script only: loading earlier or later messages moves the focus to the first new one. */}
            <article
              id={messageElementId(m.messageId)}
              tabIndex={-1}
              className={`message ${kind === 'turn' ? `message--${m.role ?? 'other'}` : `message--${kind}`}${rewound[i] ? ' message--rewound' : ''}`}
              aria-label={`${who}${m.ts !== null ? `, ${formatDateTime(m.ts)}` : ''}${rewound[i] ? ', rewound' : ''}`}
            >
              <header className="message__header">
                <span className="message__who">{who}</span>
                {m.ts !== null && <time dateTime={new Date(m.ts).toISOString()}>{formatDateTime(m.ts)}</time>}
              </header>
              {/* A run of context parts (the files Gemini CLI added to a prompt) is one fold; a hit on any of them
                  opens it, under the hit's id, so the page finds it (`part-…`) to move the focus to. */}
              {joinedContext(m.parts).map(({ part: joined, partIds }) => {
                const part = withJoinedSecrets(joined, partIds, m.parts);
                const hit = hitPartId !== undefined && partIds.includes(hitPartId);
                return <PartView key={part.partId} part={hit ? { ...part, partId: hitPartId } : part} role={m.role} hit={hit} harness={harnessFold(part, m.role, inSubagent, app)} asWritten={!redact} titledThoughts={titledThoughts} />;
              })}
              {depth < 4 && (startedBy.get(m.messageId) ?? []).map((sub) => <Subagent key={subagentKey(sub, redact)} subagent={sub} depth={depth} redact={redact} />)}
            </article>
            {depth < 4 && (startedAfter.get(m.messageId) ?? []).map((sub) => <Subagent key={subagentKey(sub, redact)} subagent={sub} depth={depth} redact={redact} />)}
          </Fragment>
        );
      })}
      {depth < 4 && unplaced.map((sub) => <Subagent key={subagentKey(sub, redact)} subagent={sub} depth={depth} redact={redact} />)}
    </div>
  );
}
