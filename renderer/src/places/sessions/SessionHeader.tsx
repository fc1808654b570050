import { useEffect, useState, type ReactElement } from 'react';
import type { ForgetKind, Result } from '../../../../core/api/index.js';
import { Button, ConfirmInPlace, countOf, formatCount, formatDateTime, formatDuration, Together } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { panelDepth, placeHref, projectHref } from '../../navigation.js';
import { useWiping, WipeChoice } from '../projects/WipeChoice.js';

type Page = Result<'Sessions.Get'>;

/** Back within the panel; to Search when the tab came to the panel on this conversation (the page before is not the panel's). */
export function goBack(history: Pick<History, 'state' | 'back'> = window.history, location: Pick<Location, 'hash'> = window.location): void {
  if (panelDepth(history) > 0) history.back();
  else location.hash = placeHref('search');
}

/** Back to where the person came from in the panel; to Search when the conversation was opened by its address. */
export function BackButton(): ReactElement {
  return (
    <Button variant="quiet" onClick={() => goBack()}>
      ← Back
    </Button>
  );
}

/** The conversation's facts in a line; its project is a link to the project's page, where its other conversations are. */
export function Facts({ session }: { session: Page['session'] }): ReactElement {
  const project =
    session.projectKey !== null && session.projectName !== null ? (
      <a href={projectHref(session.projectKey)}>{session.projectName}</a>
    ) : (
      (session.projectName ?? 'No project')
    );
  const facts = [
    session.app,
    session.agentType ? `agent ${session.agentType}` : null,
    session.model,
    session.startedAt !== null ? formatDateTime(session.startedAt) : null,
    session.durationMs !== null && session.durationMs > 0 ? formatDuration(session.durationMs) : null,
    countOf(session.messages, 'message'),
    session.toolCalls > 0 ? countOf(session.toolCalls, 'tool call') : null,
    session.subagents > 0 ? countOf(session.subagents, 'subagent') : null,
  ];
  // Each fact on one line, so the line breaks between facts, never inside one ("2 / messages").
  return (
    <>
      {project}
      {facts
        .filter((fact): fact is string => Boolean(fact))
        .map((fact, i) => (
          <span key={i}>
            {' · '}
            <Together>{fact}</Together>
          </span>
        ))}
    </>
  );
}

/** What forgetting would lose for good, as Forget.Lost counts it. */
export type Loss = Result<'Forget.Lost'>;

/** `2 of its subagents' transcripts are no longer on disk` (Forget.Lost's `subagentsLost`). */
export const subagentsGoneWords = (subagents: number): string => `${subagents} of its subagents' transcripts ${subagents === 1 ? 'is' : 'are'} no longer on disk`;

/**
 * What Forget asks, as the core does it: the conversation goes with its subagents; a subagent goes
 * alone, its conversation kept. Either way the notes of its project are withheld and rebuilt from the
 * day it began (Forget's notesStale): the rebuild removes OVERVIEW.md whole and CHANGELOG.md's days
 * from that day on (removeStaleNotes), hand edits in them included, before writing them again.
 * `loss`: Forget.Lost's answer, once it came. `subagents`: a conversation's (its Facts' count), said only when it has some.
 */
export function forgetQuestion(subagent: boolean, loss?: Loss, subagents = 0): string {
  const notes =
    "Its project's notes are then written again from the conversations that remain: the overview (OVERVIEW.md) is replaced, and the changelog (CHANGELOG.md) loses its entries from the day it began on; your own edits to the overview and to those entries are lost. Earlier changelog days stay as they are.";
  // Its transcript gone from disk (Forget.Lost): Steward's rows are the only copy, and nothing could import it again.
  const what = subagent ? 'subagent' : 'conversation';
  const ownLost = loss !== undefined && loss.lost - loss.onlySubagentsLost > 0;
  // Its own transcript on disk, a subagent's gone: those subagents are lost, it comes back (Unforget says so).
  const subagentsLost = !ownLost && loss !== undefined && loss.onlySubagentsLost > 0;
  const warning = ownLost
    ? `This ${what}'s transcript is no longer on disk: Steward holds the only copy. Forgetting it deletes it for good. `
    : subagentsLost
      ? `${subagentsGoneWords(loss.subagentsLost)}: Steward holds their only copy; forgetting deletes them for good. `
      : '';
  const keptOut = ownLost ? '' : ', and it is not imported again while its transcript stays on disk';
  // Its subagents go with it: said only when it has some.
  const withSubagents = subagents === 0 ? '' : subagents === 1 ? ' and its subagent' : ` and its ${formatCount(subagents)} subagents`;
  return subagent
    ? `${warning}Forget this subagent? Its messages are deleted from Steward${keptOut}; the conversation it belongs to stays. ${notes}`
    : `${warning}Forget this conversation? Its messages${withSubagents} are deleted from Steward${keptOut}. ${notes}`;
}

/** Forget.Lost asked when a forget dialog opens: its answer, or why it could not be had. */
export interface LostCheck {
  data: Loss | undefined;
  error: Error | undefined;
}

/**
 * What forgetting would lose for good (Forget.Lost), asked when the forget dialog opens (whoever calls
 * this is shown only then): it stats each transcript file of a project's conversations, too much for
 * every page that shows the button. `onKnown(false)` while it is asked, `onKnown(true)` once it answered
 * or failed, however long that takes: the Forget button waits for it, so nobody confirms before the
 * warning shows (a slow disk, a large project).
 */
export function useLostWhenAsked(kind: ForgetKind, id: string, onKnown: (known: boolean) => void): LostCheck {
  const lost = useCall('Forget.Lost', { kind, id });
  const settled = lost.data !== undefined || lost.error !== undefined;
  useEffect(() => onKnown(settled), [settled, onKnown]);
  return { data: lost.data, error: lost.error };
}

/**
 * While Forget.Lost is asked, that it is (the Yes button waits); if it failed, that it did and why, so
 * the person who forgets anyway knows nobody checked for an only copy. Nothing once it answered.
 */
export function LostCheckStatus({ check }: { check: LostCheck }): ReactElement | null {
  if (check.error !== undefined)
    return <span role="status">{`Steward could not check which transcripts are still on disk (${check.error.message}): if some are gone, forgetting deletes Steward's only copy. `}</span>;
  if (check.data === undefined) return <span role="status">Checking which transcripts are still on disk… </span>;
  return null;
}

/**
 * The forget dialog's question, its warning added once Forget.Lost says the transcript is gone. One whose
 * files Steward never recorded (`unknown`) is asked as one on disk: see forgetQuestion's callers.
 */
export function ForgetQuestion({ sessionId, subagent, subagents, onKnown }: { sessionId: string; subagent: boolean; subagents: number; onKnown: (known: boolean) => void }): ReactElement {
  const check = useLostWhenAsked('session', sessionId, onKnown);
  return (
    <>
      <LostCheckStatus check={check} />
      {forgetQuestion(subagent, check.data, subagents)}
    </>
  );
}

/**
 * Forgetting asks first, in place; the answer shows where the person looks. `onForgotten(wipeAsked)`:
 * the page that says it was forgotten also says how the wipe went, when one was asked.
 */
export function ForgetButton({ sessionId, subagent, subagents, onForgotten }: { sessionId: string; subagent: boolean; subagents: number; onForgotten: (wipeAsked: boolean) => void }): ReactElement {
  const forget = useAction('Forget.Session');
  // Whether the question knows yet if its transcript is gone from disk (ForgetQuestion, asked when the dialog opens).
  const [known, setKnown] = useState(false);
  const [wipe, setWipe] = useState(false);
  const wiping = useWiping();
  return (
    <ConfirmInPlace
      ask="Forget…"
      label={subagent ? 'Forget this subagent' : 'Forget this conversation'}
      question={<ForgetQuestion sessionId={sessionId} subagent={subagent} subagents={subagents} onKnown={setKnown} />}
      choice={<WipeChoice checked={wipe} onChange={setWipe} />}
      working={forget.busy && wipe ? (wiping.sentence ?? 'Forgetting…') : undefined}
      confirm="Yes, forget it"
      busy={forget.busy || !known}
      error={forget.error}
      failed="The conversation was not forgotten."
      onConfirm={() => {
        wiping.reset();
        // Shown here, so meant: a conversation the clean-up removed meanwhile is still kept out (notStored).
        void forget.run({ sessionId, notStored: true, ...(wipe ? { scrub: true } : {}) }).then((done) => done && onForgotten(done.scrubbed !== undefined));
      }}
      testId="forget-confirm"
    />
  );
}

