import { useState } from 'react';
import type { Result, SessionMessage } from '../../../../core/api/index.js';
import { useAction, useCall } from '../../hooks.js';

export type Page = Result<'Sessions.Get'>;
/** `before` asks for earlier messages, `cursor` for later ones. */
export type Direction = 'before' | 'cursor';
/** What a reader asks the page for: earlier or later messages (Direction), or the conversation's end ("Latest messages"). */
export type Move = Direction | 'end';

/** Joins two pages; a message cut at a page edge becomes one again. */
function joinMessages(first: readonly SessionMessage[], second: readonly SessionMessage[]): SessionMessage[] {
  const last = first[first.length - 1];
  if (last && second[0]?.messageId === last.messageId) return [...first.slice(0, -1), { ...last, parts: [...last.parts, ...second[0].parts] }, ...second.slice(1)];
  return [...first, ...second];
}

/** `next` joined to `shown` on the side it was asked for; each side keeps its own way onward. */
function joinPages(shown: Page, next: Page, direction: Direction): Page {
  const messages = direction === 'before' ? joinMessages(next.messages, shown.messages) : joinMessages(shown.messages, next.messages);
  const { cursor: _c, before: _b, ...kept } = shown;
  const later = direction === 'before' ? shown.cursor : next.cursor;
  const earlier = direction === 'before' ? next.before : shown.before;
  return { ...kept, messages, ...(later ? { cursor: later } : {}), ...(earlier ? { before: earlier } : {}) };
}

/**
 * The most messages the page holds (three pages of 200): a reader paging on through a 45,000-message
 * conversation had every page kept, and each click froze the page for seconds by the 20th.
 */
export const WINDOW_MESSAGES = 600;

const messageCount = (pages: readonly Page[]) => pages.reduce((sum, p) => sum + p.messages.length, 0);

/**
 * The loaded pages the page keeps, in conversation order, once `got` joins them on its side
 * (`direction`): pages on the far side go, while more than `max` messages would be held, never the one
 * just loaded. What goes stays a click away: the new edge page's own way onward brings it back.
 */
export function windowPages(kept: readonly Page[], got: Page, direction: Direction, max = WINDOW_MESSAGES): Page[] {
  const pages = direction === 'before' ? [got, ...kept] : [...kept, got];
  while (pages.length > 1 && messageCount(pages) > max) {
    if (direction === 'before') pages.pop();
    else pages.shift();
  }
  return pages;
}

/**
 * The pages kept once `got` is loaded by `move`: joined on its side (windowPages), or, for the
 * conversation's end, alone in place of them all: what lay between is Earlier messages away.
 */
export function keptAfter(kept: readonly [Page, ...Page[]], got: Page, move: Move): [Page, ...Page[]] {
  return (move === 'end' ? windowPages([], got, 'cursor') : windowPages(kept, got, move)) as [Page, ...Page[]];
}

/** The kept pages as one: their messages in order, earlier messages from the first, later from the last. */
export function shownPage(kept: readonly [Page, ...Page[]]): Page {
  return kept.slice(1).reduce((shown, next) => joinPages(shown, next, 'cursor'), kept[0]);
}

export interface SessionPages {
  /** What is shown: the pages kept (windowPages) of the first page and every earlier and later page loaded since. */
  page: Page | undefined;
  /** The page the conversation opened at (around the hit when given); a new one means the view started over. */
  opened: Page | undefined;
  /** The first page could not be loaded. */
  error: Error | undefined;
  reload: () => void;
  /**
   * Loads the page before or after what is shown, or (`end`, while later messages follow) the
   * conversation's last page in place of it; resolves with that page once it is shown.
   */
  more: (move: Move) => Promise<Page | undefined>;
  busy: boolean;
  /** Earlier or later messages could not be loaded. */
  moreError: Error | undefined;
}

/**
 * A conversation a page at a time, opened at the search hit `partId` when given; with `redact`, every
 * text redacted before a summary is cut from it, else as written, each part saying where its secrets
 * are (`markSecrets`): one request a page either way. Changing `redact` loads the opening page again.
 */
export function useSessionPages(sessionId: string, partId: string | undefined, redact: boolean): SessionPages {
  const reading = redact ? { redact } : { markSecrets: true };
  const first = useCall('Sessions.Get', { sessionId, ...(partId ? { partId } : {}), ...reading });
  const next = useAction('Sessions.Get');
  // Pages kept with the first page they continue, and shown as one; a first page loaded again starts over.
  const [joined, setJoined] = useState<{ base: Page; kept?: [Page, ...Page[]]; page?: Page }>();
  const current = joined !== undefined && joined.base === first.data;
  const page = current && joined.page ? joined.page : first.data;
  const more = async (move: Move): Promise<Page | undefined> => {
    const base = first.data;
    const cursor = move === 'before' ? page?.before : page?.cursor;
    if (!base || !page || !cursor || next.busy) return undefined;
    setJoined((previous) => (previous?.base === base ? previous : { base }));
    // The end is read from the end (Sessions.Get `at`), not paged on to: no cursor goes with it.
    const got = await next.run({ sessionId, ...(move === 'end' ? { at: 'end' as const } : { cursor }), ...reading });
    if (got)
      setJoined((previous) => {
        const kept = keptAfter(previous?.base === base && previous.kept ? previous.kept : [base], got, move);
        return { base, kept, page: shownPage(kept) };
      });
    return got;
  };
  return { page, opened: first.data, error: first.error, reload: first.reload, more, busy: next.busy, moreError: current ? next.error : undefined };
}
