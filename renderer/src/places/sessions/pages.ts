import { useState } from 'react';
import type { Result, SessionMessage } from '../../../../core/api/index.js';
import { countOf } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { firstAnswer, useSettledMiss } from './missing.js';

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

/**
 * What an import brought to an open conversation after what the page shows: `count` new messages as the
 * session counts them (a tool's result is not one), `later` the page that joins them on (see
 * newMessagesAfter), undefined when they do not follow on from what is shown (`atLeast`: more than
 * the conversation's last page holds), so only its end ("Latest messages") shows them.
 */
export interface NewMessages {
  count: number;
  atLeast: boolean;
  later: Page | undefined;
}

const counted = (messages: readonly SessionMessage[]) => messages.filter((m) => m.countsAsMessage !== false).length;

/**
 * The messages in `end` (the conversation's last page, asked for after an import) that the page does
 * not show yet. None while the page does not reach the end: "Later messages" leads on to them already.
 * New parts of the last message shown (a tool's result written since) come as that message with only
 * them, which joining the pages adds to it (joinMessages), so nothing is shown twice. The later page has
 * no way onward of its own: windowPages keeps the page before it, whose `before` leads to earlier ones.
 */
export function newMessagesAfter(shown: Page, end: Page): NewMessages | undefined {
  if (shown.cursor !== undefined) return undefined;
  const last = shown.messages[shown.messages.length - 1];
  const at = last === undefined ? -1 : end.messages.findIndex((m) => m.messageId === last.messageId);
  if (last !== undefined && at === -1) return end.messages.length === 0 ? undefined : { count: counted(end.messages), atLeast: true, later: undefined };
  const after = end.messages.slice(at + 1);
  const seen = new Set(last?.parts.map((p) => p.partId));
  const grown = at === -1 ? [] : end.messages[at]!.parts.filter((p) => !seen.has(p.partId));
  if (after.length === 0 && grown.length === 0) return undefined;
  const messages = grown.length > 0 ? [{ ...end.messages[at]!, parts: grown }, ...after] : after;
  return { count: counted(after), atLeast: false, later: { session: end.session, messages, subagents: end.subagents } };
}

/** What the page says of them, beside the button that shows them. */
export function newMessagesWords(news: NewMessages): string {
  if (news.count === 0) return 'The conversation went on';
  return news.atLeast ? `At least ${countOf(news.count, 'new message')}` : countOf(news.count, 'new message');
}

export interface SessionPages {
  /** What is shown: the pages kept (windowPages) of the first page and every earlier and later page loaded since. */
  page: Page | undefined;
  /** The page the conversation opened at (around the hit when given); a new one means the view started over. */
  opened: Page | undefined;
  /**
   * How `page` was read: redacted (true) or as written (false), the `redact` its first page was asked
   * with, never the checkbox's state; undefined before any page came. The page asked for anew comes
   * after the checkbox changes, and until then the page kept is the one read the other way.
   */
  redacted: boolean | undefined;
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
  /** Messages an import brought after what is shown, once checkLatest found them; gone once shown. */
  news: NewMessages | undefined;
  /** Asks for the conversation's end, to see whether an import brought messages after what is shown. */
  checkLatest: () => void;
  /** Shows `news`: joined on as the later page, or the conversation's end when they do not follow on; says which, and how. */
  showNew: () => { got: Page; move: Move } | undefined;
}

/** A first page as it came, with the `redact` it was asked with. */
export interface ReadPage {
  data: Page;
  redact: boolean;
}

/**
 * The first page's call's page with how it was read. useCall keeps the page asked for before while it
 * asks with new params, so the page is taken with `redact` once, in the drawing its answer came
 * (loading over, no error); the params change only in a later drawing, which finds it taken already.
 */
export function readOf(taken: ReadPage | undefined, first: { data: Page | undefined; error: Error | undefined; loading: boolean }, redact: boolean): ReadPage | undefined {
  if (first.data === undefined || taken?.data === first.data || first.loading || first.error !== undefined) return taken;
  return { data: first.data, redact };
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
  const latest = useAction('Sessions.Get');
  // Pages kept with the first page they continue, and shown as one; a first page loaded again starts over.
  const [joined, setJoined] = useState<{ base: Page; kept?: [Page, ...Page[]]; page?: Page }>();
  // The conversation's end as last asked for, with the first page it was asked over (read the same way).
  const [end, setEnd] = useState<{ base: Page; end: Page }>();
  const current = joined !== undefined && joined.base === first.data;
  // Taken while drawing, as useSettledMiss does: an effect would draw the page once more without it.
  const [taken, setTaken] = useState(() => readOf(undefined, first, redact));
  const read = readOf(taken, first, redact);
  if (read !== taken) setTaken(read);
  // A part the conversation does not hold (`missing: 'part'`) is the address's answer, settled: the page
  // the call keeps from the address before is never shown under it, not even while a check asks again (firstAnswer).
  const address = JSON.stringify([sessionId, partId ?? null, redact]);
  const answer = firstAnswer(first, useSettledMiss(first, address), address);
  const page = answer.page !== undefined && current && joined.page ? joined.page : answer.page;
  const error = answer.error;
  const join = (base: Page, got: Page, move: Move) =>
    setJoined((previous) => {
      const kept = keptAfter(previous?.base === base && previous.kept ? previous.kept : [base], got, move);
      return { base, kept, page: shownPage(kept) };
    });
  const more = async (move: Move): Promise<Page | undefined> => {
    const base = first.data;
    const cursor = move === 'before' ? page?.before : page?.cursor;
    if (!base || !page || !cursor || next.busy) return undefined;
    setJoined((previous) => (previous?.base === base ? previous : { base }));
    // The end is read from the end (Sessions.Get `at`), not paged on to: no cursor goes with it.
    const got = await next.run({ sessionId, ...(move === 'end' ? { at: 'end' as const } : { cursor }), ...reading });
    if (got) join(base, got, move);
    return got;
  };
  // Derived from what is shown, so loading later messages or the end by hand puts the notice away too.
  const news = end !== undefined && end.base === first.data && page ? newMessagesAfter(page, end.end) : undefined;
  const checkLatest = () => {
    const base = first.data;
    // Not shown to the end: "Later messages" leads on to whatever came since. A failed check says
    // nothing: the next import asks again.
    if (!base || !page || page.cursor !== undefined || latest.busy) return;
    void latest.run({ sessionId, at: 'end', ...reading }).then((got) => got && setEnd({ base, end: got }));
  };
  const showNew = (): { got: Page; move: Move } | undefined => {
    const base = first.data;
    if (!base || !end || !news || next.busy) return undefined;
    // Not following on from what is shown: the end already asked for takes the place of the pages kept.
    const shown = news.later ? { got: news.later, move: 'cursor' as const } : { got: end.end, move: 'end' as const };
    join(base, shown.got, shown.move);
    return shown;
  };
  const redacted = read !== undefined && read.data === first.data ? read.redact : undefined;
  return { page, opened: first.data, redacted, error, reload: first.reload, more, busy: next.busy, moreError: current ? next.error : undefined, news, checkLatest, showNew };
}
