import { useEffect, useRef, useState, type ReactElement, type RefObject } from 'react';
import type { EventPayload } from '../../../../core/api/index.js';
import { conversationName, Button, ConfirmInPlace, countOf, ErrorBanner, formatDuration, formatRelativeTime, Panel } from '../../components/index.js';
import { useAction, useEvent } from '../../hooks.js';
import { opensHere, sessionHref } from '../../navigation.js';
import { LostCheckStatus, useLostWhenAsked, type Loss } from '../sessions/SessionHeader.js';
import { conversationOpened, forgettingSentence, takeConversationToReturnTo } from './opened.js';
import { cappedWords, useProjectPages } from './pages.js';
import { useWiping, WipeChoice } from './WipeChoice.js';

/**
 * Where the focus goes in a project's list. Back from a conversation opened here (after a reload too):
 * once every page the address names is shown, its link, in the middle of the window (the heading when
 * it is not among them). More conversations is disabled while it loads and gone after the last page:
 * the first new conversation takes the focus.
 */
function useListFocus(loaded: boolean, count: number): { list: RefObject<HTMLUListElement | null>; button: RefObject<HTMLButtonElement | null>; landAt: (index: number) => void } {
  const list = useRef<HTMLUListElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [landing, setLanding] = useState<number>();
  useEffect(() => {
    const sessionId = loaded ? takeConversationToReturnTo() : undefined;
    if (sessionId === undefined) return;
    const link = list.current?.querySelector<HTMLAnchorElement>(`a[data-session="${CSS.escape(sessionId)}"]`);
    if (!link) {
      document.querySelector<HTMLElement>('#main h1')?.focus();
      return;
    }
    link.focus({ preventScroll: true });
    link.scrollIntoView({ block: 'center' });
  }, [loaded]);
  useEffect(() => {
    if (landing === undefined || count <= landing) return;
    setLanding(undefined);
    list.current?.querySelectorAll<HTMLAnchorElement>('a[data-session]')[landing]?.focus();
  }, [landing, count]);
  return { list, button, landAt: setLanding };
}

/**
 * A project's conversations, newest first: title (or first request), when, with which agent, how long,
 * how many messages. The pages shown are in the address (`?pages=…`), so a reload and Back show them again.
 */
export function ProjectSessions({ projectKey, pages: asked = 1 }: { projectKey: string; pages?: number }): ReactElement {
  const pages = useProjectPages(projectKey, asked);
  const sessions = pages.list?.sessions ?? [];
  const cursor = pages.list?.cursor;
  const focus = useListFocus(pages.list !== undefined && !pages.loading, sessions.length);
  const loadMore = () => {
    const shown = sessions.length;
    void pages.more().then((page) => {
      // Nothing new (or a failure): the button, still there, takes the focus back.
      if (!page || page.sessions.length === 0) focus.button.current?.focus();
      else focus.landAt(shown);
    });
  };
  return (
    <Panel title="Conversations">
      <ErrorBanner title="The conversations could not be loaded." error={pages.error} onRetry={pages.retry} />
      {pages.list !== undefined && sessions.length === 0 && <p className="muted">No conversation of this project is stored.</p>}
      <ul className="project-sessions" ref={focus.list}>
        {sessions.map((s) => (
          <li key={s.sessionId}>
            <a href={sessionHref(s.sessionId)} className="project-sessions__link" data-session={s.sessionId} onClick={(event) => opensHere(event) && conversationOpened(s.sessionId)}>
              {conversationName(s)}
            </a>
            <span className="project-sessions__meta">
              {s.lastAt !== null && <time dateTime={new Date(s.lastAt).toISOString()}>{formatRelativeTime(s.lastAt)}</time>}
              {/* One folder's conversations come from several agents: each says which it was with. */}
              {`${s.lastAt !== null ? ' · ' : ''}${s.app} · ${countOf(s.messages, 'message')}`}
              {s.durationMs !== null && s.durationMs > 0 ? ` · ${formatDuration(s.durationMs)}` : ''}
              {s.subagents > 0 ? ` · ${countOf(s.subagents, 'subagent')}` : ''}
            </span>
          </li>
        ))}
      </ul>
      {pages.capped !== undefined && <p className="muted">{cappedWords(pages.capped)}</p>}
      {cursor && (
        <Button ref={focus.button} onClick={loadMore} disabled={pages.busy} aria-busy={pages.busy}>
          More conversations
        </Button>
      )}
    </Panel>
  );
}

/**
 * What forgetting a project asks; `loss`: Forget.Lost's answer, once it came: how many of its
 * conversations have no transcript left on disk, and how many keep theirs but have subagents whose
 * transcripts are gone (a forget deletes subagents with their conversation), whose only copy it deletes.
 */
export function forgetProjectQuestion(name: string, loss?: Loss): string {
  const own = loss === undefined ? 0 : loss.lost - loss.onlySubagentsLost;
  const only = loss?.onlySubagentsLost ?? 0;
  const has = (n: number) => (n === 1 ? 'has' : 'have');
  const ownWords = own === 0 ? '' : `${own} of its conversations ${has(own)} no transcript left on disk`;
  const subagentWords = only === 0 ? '' : `${own > 0 ? `${only} more` : `${only} of its conversations`} ${has(only)} subagents whose transcripts are no longer on disk`;
  const one = own + (loss?.subagentsLost ?? 0) === 1;
  const warning =
    own + only === 0 ? '' : `${[ownWords, subagentWords].filter(Boolean).join(', and ')}: Steward holds the only copy. Forgetting the project deletes ${one ? 'it' : 'them'} for good. `;
  return `${warning}Forget ${name}? Every conversation of this folder and the notes Steward keeps for it are deleted, and nothing of it is imported again while its transcripts stay on disk.`;
}

/** The project's forget question, its warning added once Forget.Lost answers (asked when the dialog opens: see useLostWhenAsked). */
export function ForgetProjectQuestion({ projectKey, name, onKnown }: { projectKey: string; name: string; onKnown: (known: boolean) => void }): ReactElement {
  const check = useLostWhenAsked('project', projectKey, onKnown);
  return (
    <>
      <LostCheckStatus check={check} />
      {forgetProjectQuestion(name, check.data)}
    </>
  );
}

/** Forgetting a project asks first, in place, and says what went. */
export function ForgetProject({ projectKey, name, onForgotten }: { projectKey: string; name: string; onForgotten: (wipeAsked: boolean) => void }): ReactElement {
  const forget = useAction('Forget.Project');
  const [known, setKnown] = useState(false);
  const [progress, setProgress] = useState<EventPayload<'forget.progress'>>();
  useEvent('forget.progress', (p) => {
    if (p.kind === 'project' && p.id === projectKey) setProgress(p);
  });
  const [wipe, setWipe] = useState(false);
  const wiping = useWiping();
  return (
    <ConfirmInPlace
      working={forget.busy ? ((wipe ? wiping.sentence : undefined) ?? forgettingSentence(progress)) : undefined}
      choice={<WipeChoice checked={wipe} onChange={setWipe} />}
      ask="Forget project…"
      label={`Forget ${name}`}
      question={<ForgetProjectQuestion projectKey={projectKey} name={name} onKnown={setKnown} />}
      confirm="Yes, forget the project"
      busy={forget.busy || !known}
      error={forget.error}
      failed="The project was not forgotten."
      onConfirm={() => {
        wiping.reset();
        // Shown here, so meant: a project the clean-up emptied meanwhile is still kept out (notStored).
        void forget.run({ projectKey, notStored: true, ...(wipe ? { scrub: true } : {}) }).then((done) => done && onForgotten(done.scrubbed !== undefined));
      }}
    />
  );
}
