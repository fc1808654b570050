import { useEffect, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import type { SessionMessage } from '../../../../core/api/index.js';
import { conversationName, Button, ErrorBanner, PlaceHeader } from '../../components/index.js';
import { useClient, useEvent, useViewTitle } from '../../hooks.js';
import { toRpcError, type StewardRpcError } from '../../transport.js';
import { Conversation } from './Conversation.js';
import { exportConversation, saveFile } from './export.js';
import { newMessagesWords, type Move, type Page, type SessionPages } from './pages.js';
import { useReadingPosition } from './position.js';
import { landingMessage, messageElementId } from './reading.js';
import { BackButton, Facts, ForgetButton } from './SessionHeader.js';

const MB = 1024 * 1024;

/**
 * Exports the conversation as a file the browser downloads, under the name Sessions.Export gives (from
 * its title, redacted unless the export is raw: core/history/export-name.ts), and says what was
 * exported. A long conversation arrives in pieces (exportConversation); the notice counts what has come
 * so far, and `cancel` stops asking for more.
 */
function useExport(sessionId: string): { exportAs: (format: 'markdown' | 'json', raw: boolean) => void; cancel: () => void; busy: boolean; error: Error | undefined; notice: string | undefined } {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<StewardRpcError | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const running = useRef<AbortController | undefined>(undefined);
  const exportAs = async (format: 'markdown' | 'json', raw: boolean) => {
    if (!client) return;
    const control = new AbortController();
    running.current = control;
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      const onProgress = (filename: string, chars: number) => setNotice(`Exporting ${filename}: ${Math.round(chars / MB)} MB so far…`);
      const outcome = await exportConversation(client, { sessionId, format, ...(raw ? { raw } : {}) }, { signal: control.signal, onProgress });
      if (outcome.kind === 'done') saveFile(outcome.filename, outcome.file);
      setNotice(outcome.kind === 'cancelled' ? 'Export cancelled.' : `Exported ${outcome.filename}${outcome.redacted ? ', with secrets redacted' : ', with secrets as they were written'}.`);
    } catch (failure) {
      setNotice(undefined);
      setError(toRpcError(failure));
    } finally {
      running.current = undefined;
      setBusy(false);
    }
  };
  return { exportAs: (format, raw) => void exportAs(format, raw), cancel: () => running.current?.abort(), busy, error, notice };
}

/**
 * The export's buttons, its notice and its error, in a component of their own: the notice changes
 * once a piece (112 times for 112 MB), and drawn in the page it drew the conversation again each time
 * (600 messages' Markdown, about a second each). `children`: the row's other actions.
 */
function ExportActions({ sessionId, paging, children }: { sessionId: string; paging: boolean; children: ReactNode }): ReactElement {
  const exporter = useExport(sessionId);
  const exportButton = useRef<HTMLButtonElement>(null);
  // Redacted unless the person asks, each time: the choice is not kept for the next conversation.
  const [raw, setRaw] = useState(false);
  const busy = paging || exporter.busy;
  return (
    <>
      {/* A row of its own, so Forget's question takes the whole width below the buttons instead of stretching them. */}
      <div className="session-actions">
        {/* aria-disabled, not disabled: a disabled button drops the focus to the page's top, and a keyboard user would lose their place. */}
        <Button ref={exportButton} onClick={() => !busy && exporter.exportAs('markdown', raw)} aria-disabled={busy}>
          Export Markdown
        </Button>
        <Button onClick={() => !busy && exporter.exportAs('json', raw)} aria-disabled={busy}>
          Export JSON
        </Button>
        {exporter.busy && (
          <Button
            variant="quiet"
            onClick={() => {
              exporter.cancel();
              // The button goes once the export stops; the focus waits where the export started, not at the page's top.
              exportButton.current?.focus();
            }}
          >
            Cancel export
          </Button>
        )}
        <label className="session-actions__raw">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.currentTarget.checked)} /> Keep secrets in the export (not redacted)
        </label>
        {children}
      </div>
      {exporter.notice && (
        <p role="status" className="session-notice">
          {exporter.notice}
        </p>
      )}
      <ErrorBanner title="The export failed." error={exporter.error} />
    </>
  );
}

/**
 * Earlier or later messages, a page at a time, the page holding a few pages at most (windowPages), or
 * the conversation's last page in place of them (Latest messages), landing on its last message. The
 * button is disabled while the page loads, which drops the focus, and gone after the last page: the
 * first new message takes the focus instead, so a keyboard reader goes on from where they were.
 */
function useMorePages(page: Page, pages: SessionPages): (move: Move | 'new') => void {
  const [landing, setLanding] = useState<{ messageId: string }>();
  // Before the page is painted: the page that made room for the new one (windowPages) went from the
  // other end, so a reader paging on sees the message they land on, never a jump to where it went.
  useLayoutEffect(() => {
    if (!landing) return;
    const message = document.getElementById(messageElementId(landing.messageId));
    message?.focus({ preventScroll: true });
    message?.scrollIntoView({ block: 'center' });
  }, [landing]);
  return (move) => {
    const shown = page.messages;
    // The new messages an import brought (pages.news): shown in place, landing on the first of them.
    if (move === 'new') {
      const shownNew = pages.showNew();
      const messageId = shownNew ? landingMessage(shown, shownNew.got.messages, shownNew.move) : undefined;
      if (messageId !== undefined) setLanding({ messageId });
      return;
    }
    void pages.more(move).then((got) => {
      const messageId = got ? landingMessage(shown, got.messages, move) : undefined;
      if (messageId !== undefined) setLanding({ messageId });
    });
  };
}

/**
 * Where the focus lands when a conversation opens: on the hit it was opened at, else (opened at its start,
 * or the hit not on the page) on its heading, so a keyboard reader reads on from inside it rather than
 * from the top of the window, where the focus falls when the link that opened it goes away.
 */
export function landingOf(page: Pick<Document, 'getElementById' | 'querySelector'>, partId: string | undefined): HTMLElement | null {
  return (partId === undefined ? null : page.getElementById(`part-${partId}`)) ?? page.querySelector<HTMLElement>('#main h1');
}

/**
 * Where a conversation reopened at the reader's kept position lands: the message holding `readAt`, at
 * the window's top as it was read (the address names the topmost message in view), focused as a whole
 * message, not as a hit; the heading when the page does not hold it.
 */
export function positionLanding(page: Pick<Document, 'getElementById' | 'querySelector'>, messages: readonly SessionMessage[], readAt: string): HTMLElement | null {
  const message = messages.find((m) => m.parts.some((p) => p.partId === readAt));
  return (message === undefined ? null : page.getElementById(messageElementId(message.messageId))) ?? page.querySelector<HTMLElement>('#main h1');
}

/**
 * The conversation's name as a page read redacted shows it: the window title (a tab, the taskbar, the
 * browser's history) keeps it so while the person reads with secrets shown, and until the page read
 * redacted comes after they untick "Show secrets" (`readRedacted`: how the page shown was read).
 */
function useRedactedName(name: string, readRedacted: boolean): string | undefined {
  const [redacted, setRedacted] = useState(readRedacted ? name : undefined);
  if (readRedacted && redacted !== name) setRedacted(name);
  return readRedacted ? name : redacted;
}

/**
 * A loaded conversation: its facts and actions, then its messages with earlier and later ones a page at a
 * time. `showSecrets`: the page is read as written, not redacted (the person ticked "Show secrets").
 * `notice`: what the viewer has to say of how it came to show it (a check that brought it back).
 * The address follows where the reader is (useReadingPosition), so a reload and Back return there.
 */
export function SessionPage({
  sessionId,
  partId,
  readAt,
  page,
  pages,
  showSecrets,
  onShowSecrets,
  onForgotten,
  notice,
}: {
  sessionId: string;
  partId: string | undefined;
  /** The reading position the address kept (`?at=`): opened there, with no hit's highlight. */
  readAt?: string | undefined;
  page: Page;
  pages: SessionPages;
  showSecrets: boolean;
  onShowSecrets: (show: boolean) => void;
  onForgotten: (wipeAsked: boolean) => void;
  notice?: string | undefined;
}): ReactElement {
  const more = useMorePages(page, pages);
  useReadingPosition(sessionId, page.messages, page.before !== undefined, partId);
  // An import that wrote anything may have written to this conversation: the page asks for its end and
  // says what is new where the reader reads (below the last message), never moving what they read.
  useEvent('sweep.tick', (tick) => tick.providers.some((p) => p.partsWritten > 0) && pages.checkLatest());
  const opened = pages.opened;
  const landedAt = useRef<string | null>(null);
  useEffect(() => {
    // The hit is shown where the eye lands, highlighted, and takes the focus for keyboard readers (the
    // heading does, opened at the start), once per opening: earlier or later messages loaded since, or
    // the page loaded again for Show secrets, leave the reader (and the focus) where they are.
    // Reopened at the reader's kept position, it lands there as it was read, plainly.
    const at = partId ?? readAt ?? '';
    if (!opened || landedAt.current === at) return;
    landedAt.current = at;
    if (partId === undefined && readAt !== undefined) {
      const message = positionLanding(document, opened.messages, readAt);
      message?.scrollIntoView({ block: 'start' });
      message?.focus({ preventScroll: true });
      return;
    }
    const landing = landingOf(document, partId);
    if (partId !== undefined) landing?.scrollIntoView({ block: 'center' });
    landing?.focus({ preventScroll: true });
  }, [opened, partId, readAt]);
  const s = page.session;
  useViewTitle(useRedactedName(conversationName(s), pages.redacted === true));
  return (
    <>
      <PlaceHeader title={conversationName(s)} description={<Facts session={s} />} actions={<BackButton />} />
      <ExportActions sessionId={sessionId} paging={pages.busy}>
        {/* What is on the screen, apart from the export: secrets show as [REDACTED] until the person ticks it. */}
        <label className="session-actions__raw">
          <input type="checkbox" checked={showSecrets} onChange={(e) => onShowSecrets(e.currentTarget.checked)} /> Show secrets
        </label>
        <ForgetButton sessionId={sessionId} subagent={s.parentKind === 'subagent'} subagents={s.subagents} onForgotten={onForgotten} />
      </ExportActions>
      {s.parentSessionId && (
        <p>
          {s.parentKind === 'branch' ? 'Branched from ' : 'A subagent of '}
          <a href={`#/sessions/${encodeURIComponent(s.parentSessionId)}`}>{s.parentKind === 'branch' ? 'an earlier conversation' : 'its parent conversation'}</a>.
        </p>
      )}
      {notice && (
        <p role="status" className="session-notice">
          {notice}
        </p>
      )}
      <ErrorBanner title="Something could not be loaded." error={pages.moreError ?? pages.error} />
      {page.before && (
        <Button onClick={() => more('before')} disabled={pages.busy}>
          Earlier messages
        </Button>
      )}
      <Conversation messages={page.messages} subagents={page.subagents} hitPartId={partId} app={s.app} inSubagent={s.parentKind === 'subagent'} redact={!showSecrets} />
      {/* Latest messages: a long conversation's end (its most recent work) in one click, not a page at a time. */}
      {page.cursor && (
        <div className="session-more">
          <Button onClick={() => more('cursor')} disabled={pages.busy}>
            Later messages
          </Button>
          <Button onClick={() => more('end')} disabled={pages.busy}>
            Latest messages
          </Button>
        </div>
      )}
      {pages.news && (
        <div className="session-more">
          <p role="status" className="session-more__news">
            {newMessagesWords(pages.news)}
          </p>
          <Button onClick={() => more('new')} disabled={pages.busy}>
            Show
          </Button>
        </div>
      )}
    </>
  );
}
