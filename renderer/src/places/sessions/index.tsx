import { useEffect, useState, type ReactElement } from 'react';
import type { ForgetCover } from '../../../../core/api/index.js';
import { EmptyState, ErrorBanner, formatPastTime, PlaceHeader } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { sessionHref } from '../../navigation.js';
import { NotFoundTitle } from '../not-found/index.js';
import { Unforget } from '../projects/Unforget.js';
import { WipeStatus } from '../projects/WipeStatus.js';
import { useSessionPages } from './pages.js';
import { BackButton } from './SessionHeader.js';
import { SessionPage } from './SessionPage.js';
import './sessions.css';

/** `wipeAsked`: the forget also asked to wipe it from the disk; how that went (WipeStatus) is said under the status. */
export function Forgotten({ sessionId, wipeAsked = false }: { sessionId: string; wipeAsked?: boolean }): ReactElement {
  // The Forget button is gone with the conversation: the heading that says what happened takes the focus.
  useEffect(() => document.querySelector<HTMLElement>('#main h1')?.focus(), []);
  // The heading says it was forgotten; the status line (announced) says what that means, not the same word again.
  return (
    <>
      <PlaceHeader title="Conversation forgotten" description={<span role="status">It was deleted from Steward and will not be imported again while its transcript stays on disk.</span>} actions={<BackButton />} />
      {wipeAsked && <WipeStatus />}
      <Unforget kind="session" id={sessionId} />
    </>
  );
}

/** When the forget record was made, as a `<time>` a sentence can hold. */
function ForgottenWhen({ record }: { record: ForgetCover }): ReactElement {
  return <time dateTime={new Date(record.createdAt).toISOString()}>{formatPastTime(record.createdAt)}</time>;
}

/** Its own forget record: the conversation was forgotten itself. */
function ForgotItself({ record }: { record: ForgetCover }): ReactElement {
  return (
    <EmptyState icon="search" title="You forgot this conversation">
      <p>
        It was deleted from Steward <ForgottenWhen record={record} />, and is not imported again while its transcript stays on disk.
      </p>
      <Unforget kind="session" id={record.id} />
    </EmptyState>
  );
}

/** A subagent erased with the conversation it belongs to: the way back is that conversation's. */
function ForgotItsConversation({ record }: { record: ForgetCover }): ReactElement {
  return (
    <EmptyState icon="search" title="You forgot the conversation this subagent belongs to">
      <p>
        It was deleted from Steward <ForgottenWhen record={record} /> with <a href={sessionHref(record.id)}>{record.label ?? 'that conversation'}</a>. Neither is imported again while
        their transcripts stay on disk; unforgetting that conversation brings both back.
      </p>
      <Unforget kind="session" id={record.id} label="Unforget that conversation" />
    </EmptyState>
  );
}

/** A conversation erased with its project. The project's own view says only "not in Steward" for a forgotten one, so it is not linked. */
function ForgotItsProject({ record }: { record: ForgetCover }): ReactElement {
  return (
    <EmptyState icon="search" title={`You forgot the project ${record.label ?? record.id} this conversation was in`}>
      <p>
        Its conversations were deleted from Steward <ForgottenWhen record={record} />, and are not imported again while their transcripts stay on disk; unforgetting the project
        brings them back.
      </p>
      <Unforget kind="project" id={record.id} label="Unforget the project" />
    </EmptyState>
  );
}

/**
 * Why a conversation is not in Steward, as `Forget.Of` answers and the CLI says it (forgottenOrWhole):
 * the person forgot it, the conversation it is a subagent of, or the project it was in (each record
 * says when, with the way back); or no conversation has this id, said plainly, with no guessed reason.
 */
export function ConversationNotHeld({ sessionId, record }: { sessionId: string; record: ForgetCover | null }): ReactElement {
  if (record?.via === 'self') return <ForgotItself record={record} />;
  if (record?.via === 'parent') return <ForgotItsConversation record={record} />;
  if (record?.via === 'project') return <ForgotItsProject record={record} />;
  return (
    <EmptyState icon="search" title="This conversation is not in Steward">
      <NotFoundTitle />
      <p>
        No conversation in Steward has the id <code>{sessionId}</code>. It may be mistyped, or only part of an id: the address needs the whole id, as Search and a project&rsquo;s
        conversations link to it.
      </p>
    </EmptyState>
  );
}

function NotInSteward({ sessionId }: { sessionId: string }): ReactElement {
  const cover = useCall('Forget.Of', { sessionId });
  // Until the owner answers (or if it cannot), nothing is said of why: the plain words are said once it has.
  if (!cover.data && !cover.error) return <p className="muted">Looking for this conversation…</p>;
  return <ConversationNotHeld sessionId={sessionId} record={cover.data?.record ?? null} />;
}

function NotLoaded({ sessionId, error, onRetry }: { sessionId: string; error: Error; onRetry: () => void }): ReactElement {
  const gone = (error as { code?: unknown }).code === 'not_found';
  return (
    <>
      {/* A conversation Steward does not hold is not called "one captured conversation" above the words saying so. */}
      <PlaceHeader title="Conversation" description={gone ? 'Steward does not hold the conversation at this address.' : 'One captured conversation.'} actions={<BackButton />} />
      {gone ? (
        <NotInSteward sessionId={sessionId} />
      ) : (
        <ErrorBanner title="The conversation could not be loaded." error={error} onRetry={onRetry} />
      )}
    </>
  );
}

/** One conversation at `#/sessions/<id>`, opened at the search hit `partId` when given. */
export function SessionViewer({ sessionId, partId }: { sessionId: string; partId: string | undefined }): ReactElement {
  // Secrets redacted unless the person asks, each time: the viewer is keyed by conversation, so the choice is not kept for the next.
  const [showSecrets, setShowSecrets] = useState(false);
  const pages = useSessionPages(sessionId, partId, !showSecrets);
  const [forgotten, setForgotten] = useState<{ wipeAsked: boolean }>();
  if (forgotten) return <Forgotten sessionId={sessionId} wipeAsked={forgotten.wipeAsked} />;
  if (pages.error && !pages.page) return <NotLoaded sessionId={sessionId} error={pages.error} onRetry={pages.reload} />;
  if (!pages.page) return <p className="muted">Loading the conversation…</p>;
  return <SessionPage sessionId={sessionId} partId={partId} page={pages.page} pages={pages} showSecrets={showSecrets} onShowSecrets={setShowSecrets} onForgotten={(wipeAsked) => setForgotten({ wipeAsked })} />;
}
