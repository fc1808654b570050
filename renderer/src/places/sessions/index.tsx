import { useEffect, useState, type ReactElement } from 'react';
import type { Tombstone } from '../../../../core/api/index.js';
import { EmptyState, ErrorBanner, formatRelativeTime, PlaceHeader } from '../../components/index.js';
import { useCall } from '../../hooks.js';
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

/**
 * Why a conversation is not in Steward: the person forgot it (its tombstone says when, with the way
 * back), or no conversation has this id, said plainly as the CLI says it, with no guessed reason.
 * `tombstones` is undefined while they load.
 */
export function ConversationNotHeld({ sessionId, tombstones }: { sessionId: string; tombstones: readonly Tombstone[] | undefined }): ReactElement {
  const tombstone = tombstones?.find((t) => t.kind === 'session' && t.id === sessionId);
  if (tombstone)
    return (
      <EmptyState icon="search" title="You forgot this conversation">
        <p>
          It was deleted from Steward <time dateTime={new Date(tombstone.createdAt).toISOString()}>{formatRelativeTime(tombstone.createdAt)}</time>, and is not imported again while its transcript stays on disk.
        </p>
        <Unforget kind="session" id={sessionId} />
      </EmptyState>
    );
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
  const tombstones = useCall('Forget.List', {});
  // Until the tombstones answer (or if they cannot), nothing is said of why: the plain words are said once they have.
  if (!tombstones.data && !tombstones.error) return <p className="muted">Looking for this conversation…</p>;
  return <ConversationNotHeld sessionId={sessionId} tombstones={tombstones.data?.tombstones ?? []} />;
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
