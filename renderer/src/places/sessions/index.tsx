import { useEffect, useState, type ReactElement } from 'react';
import { EmptyState, ErrorBanner, formatRelativeTime, PlaceHeader } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { Unforget } from '../projects/Unforget.js';
import { useSessionPages } from './pages.js';
import { BackButton } from './SessionHeader.js';
import { SessionPage } from './SessionPage.js';
import './sessions.css';

function Forgotten({ sessionId }: { sessionId: string }): ReactElement {
  // The Forget button is gone with the conversation: the heading that says what happened takes the focus.
  useEffect(() => document.querySelector<HTMLElement>('#main h1')?.focus(), []);
  return (
    <>
      <PlaceHeader title="Conversation forgotten" description="It was deleted from Steward and will not be imported again while its transcript stays on disk." actions={<BackButton />} />
      <p role="status">Forgotten.</p>
      <Unforget kind="session" id={sessionId} />
    </>
  );
}

/** Why a conversation is not in Steward, when Steward knows: the person forgot it (its tombstone says when), with the way back. */
function NotInSteward({ sessionId }: { sessionId: string }): ReactElement {
  const tombstones = useCall('Forget.List', {});
  const tombstone = tombstones.data?.tombstones.find((t) => t.kind === 'session' && t.id === sessionId);
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
      <p>{tombstones.data ? 'It was not forgotten here: its project may have been, or the cache retention window removed it.' : 'It may have been forgotten, or removed by the cache retention window.'} Search finds what Steward still holds.</p>
    </EmptyState>
  );
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
  const [forgotten, setForgotten] = useState(false);
  if (forgotten) return <Forgotten sessionId={sessionId} />;
  if (pages.error && !pages.page) return <NotLoaded sessionId={sessionId} error={pages.error} onRetry={pages.reload} />;
  if (!pages.page) return <p className="muted">Loading the conversation…</p>;
  return <SessionPage sessionId={sessionId} partId={partId} page={pages.page} pages={pages} showSecrets={showSecrets} onShowSecrets={setShowSecrets} onForgotten={() => setForgotten(true)} />;
}
