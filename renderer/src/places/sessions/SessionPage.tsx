import { useEffect, useState, type ReactElement } from 'react';
import { Button, ErrorBanner, PlaceHeader } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { Conversation } from './Conversation.js';
import type { Page, SessionPages } from './pages.js';
import { BackButton, download, Facts, ForgetButton } from './SessionHeader.js';

/** Exports the conversation as a file the browser downloads, and says what was exported. */
function useExport(sessionId: string): { exportAs: (format: 'markdown' | 'json') => void; busy: boolean; error: Error | undefined; notice: string | undefined } {
  const exporter = useAction('Sessions.Export');
  const [notice, setNotice] = useState<string | undefined>();
  const exportAs = (format: 'markdown' | 'json') =>
    void exporter.run({ sessionId, format }).then((exported) => {
      if (!exported) return;
      download(exported.filename, exported.mediaType, exported.content);
      setNotice(`Exported ${exported.filename}${exported.redacted ? ', with secrets redacted' : ''}.`);
    });
  return { exportAs, busy: exporter.busy, error: exporter.error, notice };
}

/** A loaded conversation: its facts and actions, then its messages with earlier and later ones a page at a time. */
export function SessionPage({ sessionId, partId, page, pages, onForgotten }: { sessionId: string; partId: string | undefined; page: Page; pages: SessionPages; onForgotten: () => void }): ReactElement {
  const exporter = useExport(sessionId);
  useEffect(() => {
    // The hit is shown where the eye lands, highlighted, and takes the focus for keyboard readers.
    if (!partId) return;
    const hit = document.getElementById(`part-${partId}`);
    hit?.scrollIntoView({ block: 'center' });
    hit?.focus({ preventScroll: true });
  }, [page, partId]);
  const s = page.session;
  const busy = pages.busy || exporter.busy;
  return (
    <>
      <PlaceHeader
        title={s.title ?? s.firstRequest ?? 'Untitled conversation'}
        description={<Facts session={s} />}
        actions={
          <>
            <BackButton />
            <Button onClick={() => exporter.exportAs('markdown')} disabled={busy}>
              Export Markdown
            </Button>
            <Button onClick={() => exporter.exportAs('json')} disabled={busy}>
              Export JSON
            </Button>
            <ForgetButton sessionId={sessionId} onForgotten={onForgotten} />
          </>
        }
      />
      {s.parentSessionId && (
        <p>
          A subagent of <a href={`#/sessions/${encodeURIComponent(s.parentSessionId)}`}>its parent conversation</a>.
        </p>
      )}
      {exporter.notice && (
        <p role="status" className="session-notice">
          {exporter.notice}
        </p>
      )}
      <ErrorBanner title="Something could not be loaded." error={pages.moreError ?? pages.error} />
      <ErrorBanner title="The export failed." error={exporter.error} />
      {page.before && (
        <Button onClick={() => pages.more('before')} disabled={pages.busy}>
          Earlier messages
        </Button>
      )}
      <Conversation messages={page.messages} subagents={page.subagents} hitPartId={partId} />
      {page.cursor && (
        <Button onClick={() => pages.more('cursor')} disabled={pages.busy}>
          Later messages
        </Button>
      )}
    </>
  );
}
