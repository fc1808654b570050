import { useEffect, useState, type ReactElement } from 'react';
import type { ForgetCover } from '../../../../core/api/index.js';
import { useNow } from '../../clock.js';
import { EmptyState, ErrorBanner, formatPastTime, formatRelativeTime, PlaceHeader } from '../../components/index.js';
import { useAction, useCall, useEvent } from '../../hooks.js';
import { sessionHref } from '../../navigation.js';
import { replaceRoute } from '../../store.js';
import { NotFoundTitle } from '../not-found/index.js';
import { IMPORT_HREF } from '../projects/importing.js';
import { nothingLeftWords, Unforget, useLift, type Lift } from '../projects/Unforget.js';
import { WipeStatus } from '../projects/WipeStatus.js';
import { CheckNow, useCheck } from './CheckNow.js';
import { checkedSentence, offersCheck, viewerShows, watchesChecks, type Check, type ViewerShows } from './held.js';
import { missedOf, useMissWatch } from './missing.js';
import { useSessionPages, type Page } from './pages.js';
import { BackButton } from './SessionHeader.js';
import { SessionPage } from './SessionPage.js';
import { heldAgain, rememberUnforgotten, unforgottenOf, type Unforgotten } from './unforgotten.js';
import './sessions.css';

/** Once lifted here, the tab keeps it: a reload before the next check brings it back says so (ReloadedUnforgotten). */
function useKeepLift(sessionId: string, lift: Lift): void {
  useEffect(() => {
    if (lift.data) rememberUnforgotten(sessionId, lift.data);
  }, [sessionId, lift.data]);
}

/**
 * `wipeAsked`: the forget also asked to wipe it from the disk; how that went (WipeStatus) is said under the status.
 * Once Unforget lifts it, the words that it was forgotten give way to Unforget's (`lift`: see useLift), with
 * Check now when the next check brings it back (`check`: see useCheck).
 */
export function Forgotten({ sessionId, wipeAsked = false, lift: given, check: givenCheck }: { sessionId: string; wipeAsked?: boolean; lift?: Lift; check?: Check }): ReactElement {
  const lift = useLift(given);
  const check = useCheck(givenCheck);
  useKeepLift(sessionId, lift);
  // The Forget button is gone with the conversation: the heading that says what happened takes the focus.
  useEffect(() => document.querySelector<HTMLElement>('#main h1')?.focus(), []);
  // The heading says it was forgotten; the status line (announced) says what that means, not the same word again.
  const header =
    lift.data === undefined ? (
      <PlaceHeader title="Conversation forgotten" description={<span role="status">It was deleted from Steward and will not be imported again while its transcript stays on disk.</span>} actions={<BackButton />} />
    ) : (
      <PlaceHeader title="Conversation" description="Steward holds it again once it is imported." actions={<BackButton />} />
    );
  return (
    <>
      {header}
      {wipeAsked && <WipeStatus />}
      <Unforget kind="session" id={sessionId} lift={lift} />
      {offersCheck(lift.data) && <CheckNow check={check} />}
    </>
  );
}

/** When the forget record was made, as a `<time>` a sentence can hold. */
function ForgottenWhen({ record }: { record: ForgetCover }): ReactElement {
  return <time dateTime={new Date(record.createdAt).toISOString()}>{formatPastTime(record.createdAt)}</time>;
}

/** The way back, said while still forgotten: lifting lets the next import of earlier history bring them back (Forget.Lift). */
function ImportBrings({ what }: { what: string }): ReactElement {
  return (
    <>
      the next <a href={IMPORT_HREF}>Import earlier history</a> on Projects, reaching back far enough, brings {what} back
    </>
  );
}

/** Its own forget record: the conversation was forgotten itself. */
function ForgotItself({ record, lift }: { record: ForgetCover; lift: Lift }): ReactElement {
  return (
    <EmptyState icon="search" title="You forgot this conversation">
      <p>
        It was deleted from Steward <ForgottenWhen record={record} />, and is not imported again while its transcript stays on disk.
      </p>
      <Unforget kind="session" id={record.id} lift={lift} />
    </EmptyState>
  );
}

const PARENT_NAMES = { what: 'The conversation this subagent belongs to', back: 'both' };

/** A subagent erased with the conversation it belongs to: the way back is that conversation's. */
function ForgotItsConversation({ record, lift }: { record: ForgetCover; lift: Lift }): ReactElement {
  return (
    <EmptyState icon="search" title="You forgot the conversation this subagent belongs to">
      <p>
        It was deleted from Steward <ForgottenWhen record={record} /> with <a href={sessionHref(record.id)}>{record.label ?? 'that conversation'}</a>. Neither is imported again while
        their transcripts stay on disk; once that conversation is unforgotten, <ImportBrings what="both" />.
      </p>
      <Unforget kind="session" id={record.id} label="Unforget that conversation" lift={lift} names={PARENT_NAMES} />
    </EmptyState>
  );
}

const projectNames = (record: ForgetCover) => ({ what: `The project ${record.label ?? record.id}`, back: 'its conversations' });

/** A conversation erased with its project. */
function ForgotItsProject({ record, lift }: { record: ForgetCover; lift: Lift }): ReactElement {
  return (
    <EmptyState icon="search" title={`You forgot the project ${record.label ?? record.id} this conversation was in`}>
      <p>
        Its conversations were deleted from Steward <ForgottenWhen record={record} />, and are not imported again while their transcripts stay on disk; once the project is unforgotten,{' '}
        <ImportBrings what="them" />.
      </p>
      <Unforget kind="project" id={record.id} label="Unforget the project" lift={lift} names={projectNames(record)} />
    </EmptyState>
  );
}

/** What Unforget says once lifted, in the forget record's place, with Check now when the next check brings it back. */
function Lifted({ record, lift, check }: { record: ForgetCover; lift: Lift; check: Check }): ReactElement {
  const names = record.via === 'self' ? {} : record.via === 'parent' ? PARENT_NAMES : projectNames(record);
  return (
    <>
      <Unforget kind={record.kind} id={record.id} lift={lift} names={names} />
      {offersCheck(lift.data) && <CheckNow check={check} />}
    </>
  );
}

/** A forget record, said with its Unforget; once lifted, only what Unforget says stays, in its place. */
function ForgotOrLifted({ record, lift, check }: { record: ForgetCover; lift: Lift; check: Check }): ReactElement {
  if (lift.data !== undefined) return <Lifted record={record} lift={lift} check={check} />;
  if (record.via === 'self') return <ForgotItself record={record} lift={lift} />;
  if (record.via === 'parent') return <ForgotItsConversation record={record} lift={lift} />;
  return <ForgotItsProject record={record} lift={lift} />;
}

/**
 * Unforgotten in this tab, not back yet (a reload lost Unforget's own words): when it comes back, with
 * Check now when the next check brings it; or, as Unforget said, that nothing of it is left to import.
 */
function ReloadedUnforgotten({ unforgotten, check }: { unforgotten: Unforgotten; check: Check }): ReactElement {
  const earlier = <a href={IMPORT_HREF}>Import earlier history</a>;
  if (unforgotten.nothingLeft) {
    return (
      <EmptyState icon="search" title="You unforgot this conversation">
        <p>{nothingLeftWords('session')}</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState icon="search" title="You unforgot this conversation">
      <p>
        Steward does not hold it again yet.{' '}
        {unforgotten.nextCheck === 'all' && <>Steward&rsquo;s next check brings it back (any message older than the regular checks reach comes with {earlier}).</>}
        {unforgotten.nextCheck === 'part' && <>Steward&rsquo;s next check brings back what the regular checks reach; {earlier} on Projects brings back the rest.</>}
        {unforgotten.nextCheck === undefined && <>{earlier} on Projects, reaching back to when it was written, brings it back.</>}
      </p>
      {unforgotten.nextCheck !== undefined && <CheckNow check={check} />}
    </EmptyState>
  );
}

/**
 * When the next check runs, kept moving while the page stays open. A check late to start (its time passed,
 * its tick not in yet) is due in a moment, never "2 minutes ago".
 */
function NextCheckIn({ at }: { at: number }): ReactElement {
  const now = useNow(15_000);
  return <time dateTime={new Date(at).toISOString()}>{formatRelativeTime(Math.max(at, now + 1_000), now)}</time>;
}

/**
 * Why a conversation is not in Steward, as `Forget.Of` answers and the CLI says it (forgottenOrWhole):
 * the person forgot it, the conversation it is a subagent of, or the project it was in (each record
 * says when, with the way back); unforgotten in this tab and not back yet (`unforgotten`, kept by the
 * tab: see unforgotten.ts); or no conversation has this id: perhaps not imported yet (the next check, or
 * Check now, brings it), perhaps mistyped.
 * `lift`: see useLift; `check`: see useCheck.
 */
export function ConversationNotHeld({
  sessionId,
  record,
  lift: given,
  check: givenCheck,
  unforgotten = unforgottenOf(sessionId),
  nextCheckAt = null,
}: {
  sessionId: string;
  record: ForgetCover | null;
  lift?: Lift;
  check?: Check;
  unforgotten?: Unforgotten | undefined;
  /** When the next scheduled check runs (Sweep.Status's `nextTickAt`); null when none is scheduled. */
  nextCheckAt?: number | null;
}): ReactElement {
  const lift = useLift(given);
  const check = useCheck(givenCheck);
  useKeepLift(sessionId, lift);
  if (record) return <ForgotOrLifted record={record} lift={lift} check={check} />;
  if (unforgotten) return <ReloadedUnforgotten unforgotten={unforgotten} check={check} />;
  // A transcript written since the last check is not imported yet: the next check (or Check now) brings it, and the viewer shows it once one has.
  return (
    <EmptyState icon="search" title="This conversation is not in Steward">
      <NotFoundTitle />
      <p>
        No conversation in Steward has the id <code>{sessionId}</code>. If its transcript was written since Steward last checked,{' '}
        {nextCheckAt != null ? (
          <>
            it appears with Steward&rsquo;s next check (<NextCheckIn at={nextCheckAt} />), or at once with Check now.
          </>
        ) : (
          // Paused, or no schedule: no next check to promise.
          <>it appears once Steward checks, at once with Check now.</>
        )}{' '}
        It may be mistyped, or only part of an id: the address needs the whole id, as Search and a project&rsquo;s conversations link to it.
      </p>
      <CheckNow check={check} />
    </EmptyState>
  );
}

function NotInSteward({ sessionId, check }: { sessionId: string; check: Check }): ReactElement {
  const cover = useCall('Forget.Of', { sessionId });
  // When the next check is, if the schedule knows (none while paused, or with no schedule).
  const sweep = useCall('Sweep.Status', {}, { refreshOn: ['sweep.tick', 'app.status'] });
  // Until the owner answers (or if it cannot), nothing is said of why: the plain words are said once it has.
  if (!cover.data && !cover.error) return <p className="muted">Looking for this conversation…</p>;
  return <ConversationNotHeld sessionId={sessionId} record={cover.data?.record ?? null} check={check} nextCheckAt={sweep.data?.nextTickAt ?? null} />;
}

/**
 * The address names a message the conversation does not hold (a reading position kept from before, a
 * link cut short): the conversation is there, so it is offered from its start, or the subagent that
 * holds the message is, never "not in Steward".
 */
function MessageNotHere({ sessionId, partId, heldBy }: { sessionId: string; partId: string; heldBy: string | undefined }): ReactElement {
  return (
    <EmptyState icon="search" title="That message is not in this conversation">
      <p>
        The address names a message (<code>{partId}</code>) this conversation does not hold.{' '}
        {heldBy !== undefined ? (
          <>
            One of its subagents holds it: <a href={sessionHref(heldBy, partId)}>open the message in that subagent</a>, or{' '}
            <a href={sessionHref(sessionId)}>open the conversation at its start</a>.
          </>
        ) : (
          <a href={sessionHref(sessionId)}>Open the conversation at its start</a>
        )}
      </p>
    </EmptyState>
  );
}

function NotLoaded({ sessionId, partId, error, onRetry, check }: { sessionId: string; partId: string | undefined; error: Error; onRetry: () => void; check: Check }): ReactElement {
  const gone = (error as { code?: unknown }).code === 'not_found';
  const missed = missedOf(error);
  if (gone && missed.missing === 'part' && partId !== undefined) {
    return (
      <>
        <PlaceHeader title="Conversation" description="Steward holds this conversation, but not the message its address names." actions={<BackButton />} />
        <MessageNotHere sessionId={sessionId} partId={partId} heldBy={missed.heldBy} />
      </>
    );
  }
  return (
    <>
      {/* A conversation Steward does not hold is not called "one captured conversation" above the words saying so. */}
      <PlaceHeader title="Conversation" description={gone ? 'Steward does not hold the conversation at this address.' : 'One captured conversation.'} actions={<BackButton />} />
      {gone ? (
        <NotInSteward sessionId={sessionId} check={check} />
      ) : (
        <ErrorBanner title="The conversation could not be loaded." error={error} onRetry={onRetry} />
      )}
    </>
  );
}

/**
 * Check now as the viewer holds it: once the check ran, the conversation is asked for again (its
 * `sweep.tick` does so too, but not over a stream that is down), and what it did stays said.
 */
function useViewerCheck(reload: () => void): Check {
  const tick = useAction('Sweep.Tick');
  return {
    ...tick,
    run: async (params) => {
      const done = await tick.run(params);
      reload();
      return done;
    },
  };
}

/**
 * The conversation's own address, when the reading position the address kept (`readAt`, no message
 * named: `partId`) is one the conversation no longer holds: nobody named that message, so nothing is
 * said of it, and it opens at its start. Undefined otherwise.
 */
export function positionLost(sessionId: string, partId: string | undefined, readAt: string | undefined, shows: ViewerShows): string | undefined {
  return shows === 'message-missing' && partId === undefined && readAt !== undefined ? sessionHref(sessionId) : undefined;
}

/**
 * One conversation at `#/sessions/<id>`, opened at the message named to the person (`partId`: a search
 * hit, a link to a message), highlighted, or at the reading position the viewer kept (`readAt`), plainly.
 * While it is not held (forgotten here, or not found), every settled check or import asks for it
 * again, so once one brings it back it shows, without a reload.
 */
export function SessionViewer({ sessionId, partId, readAt }: { sessionId: string; partId: string | undefined; readAt?: string | undefined }): ReactElement {
  // Secrets redacted unless the person asks, each time: the viewer is keyed by conversation, so the choice is not kept for the next.
  const [showSecrets, setShowSecrets] = useState(false);
  const opensAt = partId ?? readAt;
  const pages = useSessionPages(sessionId, opensAt, !showSecrets);
  const [forgotten, setForgotten] = useState<{ wipeAsked: boolean; openedThen: Page | undefined }>();
  const check = useViewerCheck(pages.reload);
  const shows = viewerShows(forgotten, pages);
  const missWatch = useMissWatch(sessionId, shows === 'message-missing', pages.reload);
  useEvent('sweep.tick', (tick) => (watchesChecks(shows) ? pages.reload() : missWatch(tick)));
  // Held again: an Unforget this tab kept has nothing more to say.
  const held = shows === 'page';
  useEffect(() => {
    if (held) heldAgain(sessionId);
  }, [held, sessionId]);
  const startOver = positionLost(sessionId, partId, readAt, shows);
  useEffect(() => {
    if (startOver !== undefined) replaceRoute(startOver);
  }, [startOver]);
  if (shows === 'forgotten') return <Forgotten sessionId={sessionId} wipeAsked={forgotten?.wipeAsked} check={check} />;
  if (startOver !== undefined) return <p className="muted">Loading the conversation…</p>;
  if ((shows === 'not-loaded' || shows === 'message-missing') && pages.error) return <NotLoaded sessionId={sessionId} partId={opensAt} error={pages.error} onRetry={pages.reload} check={check} />;
  if (!pages.page) return <p className="muted">Loading the conversation…</p>;
  return (
    <SessionPage
      sessionId={sessionId}
      partId={partId}
      readAt={readAt}
      page={pages.page}
      pages={pages}
      showSecrets={showSecrets}
      onShowSecrets={setShowSecrets}
      onForgotten={(wipeAsked) => setForgotten({ wipeAsked, openedThen: pages.opened })}
      notice={check.data && `${checkedSentence(check.data)} Steward holds this conversation now.`}
    />
  );
}
