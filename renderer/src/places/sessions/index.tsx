import { useEffect, useState, type ReactElement } from 'react';
import type { Result, SessionMessage } from '../../../../core/api/index.js';
import { Button, EmptyState, ErrorBanner, PlaceHeader } from '../../components/index.js';
import { useAction, useClient } from '../../hooks.js';
import { download, Facts, ForgetButton } from './SessionHeader.js';
import { placeHref } from '../../navigation.js';
import { Conversation } from './Conversation.js';
import './sessions.css';

type Page = Result<'Sessions.Get'>;

/** Joins two pages; a message cut at a page edge becomes one again. */
function joinMessages(first: readonly SessionMessage[], second: readonly SessionMessage[]): SessionMessage[] {
  const last = first[first.length - 1];
  if (last && second[0]?.messageId === last.messageId) return [...first.slice(0, -1), { ...last, parts: [...last.parts, ...second[0].parts] }, ...second.slice(1)];
  return [...first, ...second];
}

function goBack(): void {
  if (window.history.length > 1) window.history.back();
  else window.location.hash = placeHref('search');
}

/** One conversation at `#/sessions/<id>`, opened at the search hit `partId` when given. */
export function SessionViewer({ sessionId, partId }: { sessionId: string; partId: string | undefined }): ReactElement {
  const client = useClient();
  const [page, setPage] = useState<Page | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const exporter = useAction('Sessions.Export');
  const [forgotten, setForgotten] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!client) return;
    let current = true;
    client.call('Sessions.Get', { sessionId, ...(partId ? { partId } : {}) }).then(
      (got) => current && (setPage(got), setError(undefined)),
      (e: unknown) => current && setError(e instanceof Error ? e : new Error('The conversation could not be loaded.')),
    );
    return () => {
      current = false;
    };
  }, [client, sessionId, partId, generation]);

  useEffect(() => {
    // The hit is shown where the eye lands, highlighted, and takes the focus for keyboard readers.
    if (!page || !partId) return;
    const hit = document.getElementById(`part-${partId}`);
    hit?.scrollIntoView({ block: 'center' });
    hit?.focus({ preventScroll: true });
  }, [page, partId]);

  const more = (direction: 'before' | 'cursor') => {
    const cursor = direction === 'before' ? page?.before : page?.cursor;
    if (!client || !page || !cursor) return;
    setBusy(true);
    client.call('Sessions.Get', { sessionId, cursor }).then(
      (next) => {
        setBusy(false);
        setPage((previous) => {
          if (!previous) return next;
          const messages = direction === 'before' ? joinMessages(next.messages, previous.messages) : joinMessages(previous.messages, next.messages);
          const { cursor: _c, before: _b, ...kept } = previous;
          const later = direction === 'before' ? previous.cursor : next.cursor;
          const earlier = direction === 'before' ? next.before : previous.before;
          return { ...kept, messages, ...(later ? { cursor: later } : {}), ...(earlier ? { before: earlier } : {}) };
        });
      },
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof Error ? e : new Error('More messages could not be loaded.'));
      },
    );
  };

  const exportAs = (format: 'markdown' | 'json') =>
    void exporter.run({ sessionId, format }).then((exported) => {
      if (!exported) return;
      download(exported.filename, exported.mediaType, exported.content);
      setNotice(`Exported ${exported.filename}${exported.redacted ? ', with secrets redacted' : ''}.`);
    });

  const back = (
    <Button variant="quiet" onClick={goBack}>
      ← Back
    </Button>
  );

  if (forgotten)
    return (
      <>
        <PlaceHeader title="Conversation forgotten" description="It was deleted from Steward and will not be imported again while its transcript stays on disk." actions={back} />
        <p role="status">
          Forgotten. <code>steward unforget --session {sessionId}</code> lifts that; the next backfill then imports it again.
        </p>
      </>
    );
  if (error && !page)
    return (
      <>
        <PlaceHeader title="Conversation" description="One captured conversation." actions={back} />
        {(error as { code?: unknown }).code === 'not_found' ? (
          <EmptyState icon="search" title="This conversation is not in Steward">
            <p>It may have been forgotten, or removed by the cache retention window. Search finds what Steward still holds.</p>
          </EmptyState>
        ) : (
          <ErrorBanner title="The conversation could not be loaded." error={error} onRetry={() => setGeneration((n) => n + 1)} />
        )}
      </>
    );
  if (!page) return <p className="muted">Loading the conversation…</p>;

  const s = page.session;
  return (
    <>
      <PlaceHeader
        title={s.title ?? s.firstRequest ?? 'Untitled conversation'}
        description={<Facts session={s} />}
        actions={
          <>
            {back}
            <Button onClick={() => exportAs('markdown')} disabled={busy || exporter.busy}>
              Export Markdown
            </Button>
            <Button onClick={() => exportAs('json')} disabled={busy || exporter.busy}>
              Export JSON
            </Button>
            <ForgetButton sessionId={sessionId} onForgotten={() => setForgotten(true)} />
          </>
        }
      />
      {s.parentSessionId && (
        <p>
          A subagent of <a href={`#/sessions/${encodeURIComponent(s.parentSessionId)}`}>its parent conversation</a>.
        </p>
      )}
      {notice && (
        <p role="status" className="session-notice">
          {notice}
        </p>
      )}
      <ErrorBanner title="Something could not be loaded." error={error} />
      <ErrorBanner title="The export failed." error={exporter.error} />
      {page.before && (
        <Button onClick={() => more('before')} disabled={busy}>
          Earlier messages
        </Button>
      )}
      <Conversation messages={page.messages} subagents={page.subagents} hitPartId={partId} />
      {page.cursor && (
        <Button onClick={() => more('cursor')} disabled={busy}>
          Later messages
        </Button>
      )}
    </>
  );
}
