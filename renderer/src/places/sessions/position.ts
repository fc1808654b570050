import { useEffect, useRef } from 'react';
import type { SessionMessage } from '../../../../core/api/index.js';
import { readingAtHref, replaceAddress, sessionHref } from '../../navigation.js';
import { messageElementId } from './reading.js';

/** How often, at most, the address follows the scroll: often enough to keep the place, rarely enough to cost nothing. */
const FOLLOW_MS = 400;

/**
 * The first of `count` messages (in page order) not wholly above the window's top edge (`edge`, in the
 * viewport's pixels): the one the reader is at. `bottomOf(i)`: where message i ends. Messages follow
 * one another down the page, so their bottoms grow and a binary search finds it among thousands.
 * The last when all are above; undefined when there are none.
 */
export function topmostIndex(count: number, bottomOf: (i: number) => number, edge = 0): number | undefined {
  if (count === 0) return undefined;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (bottomOf(mid) > edge) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The address of where the reader is: the conversation opened at its topmost message in view (by the
 * message's first part, as `?at=`: the page opens around it as around a search hit, but a reload shows
 * no hit's highlight, since no one named it), or its plain address at its very start. Undefined, to leave the address alone, while a search
 * hit the conversation was opened at is still in view (`hitInView`): it keeps its address, and its
 * highlight, until the reader moves away from it; and with no message in view.
 */
export function readingHref(at: { sessionId: string; messages: readonly SessionMessage[]; topmost: number | undefined; hasEarlier: boolean; hitInView: boolean }): string | undefined {
  if (at.hitInView || at.topmost === undefined) return undefined;
  if (at.topmost === 0 && !at.hasEarlier) return sessionHref(at.sessionId);
  const partId = at.messages[at.topmost]?.parts[0]?.partId;
  return partId === undefined ? undefined : readingAtHref(at.sessionId, partId);
}

/**
 * `run` at most once per `waitMs`, at the end of each interval, so the last call's moment counts (the
 * position is read when it runs, not when the scroll event came). `cancel` drops a pending run.
 * A few lines of our own: none of the panel's dependencies throttles.
 */
export function throttled(run: () => void, waitMs: number): (() => void) & { cancel: () => void } {
  let pending: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    if (pending !== undefined) return;
    pending = setTimeout(() => {
      pending = undefined;
      run();
    }, waitMs);
  };
  return Object.assign(call, {
    cancel: () => {
      if (pending !== undefined) clearTimeout(pending);
      pending = undefined;
    },
  });
}

/** Whether an element is at least partly inside the window. */
function inView(element: HTMLElement | null): boolean {
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

/** The reading position as the page shows it now, as an address (see readingHref). */
function readNow(sessionId: string, messages: readonly SessionMessage[], hasEarlier: boolean, hitPartId: string | undefined): string | undefined {
  const bottomOf = (i: number) => document.getElementById(messageElementId(messages[i]!.messageId))?.getBoundingClientRect().bottom ?? Number.POSITIVE_INFINITY;
  const hitInView = hitPartId !== undefined && inView(document.getElementById(`part-${hitPartId}`));
  return readingHref({ sessionId, messages, topmost: topmostIndex(messages.length, bottomOf), hasEarlier, hitInView });
}

/**
 * Keeps the address on where the reader is in the conversation as they scroll or page (replaced, never a
 * new history entry per scroll), so a reload and Back open it there. Read at most every FOLLOW_MS.
 */
export function useReadingPosition(sessionId: string, messages: readonly SessionMessage[], hasEarlier: boolean, hitPartId: string | undefined): void {
  // The listener stays for the conversation; what it reads is the page shown now.
  const shown = useRef({ messages, hasEarlier, hitPartId });
  useEffect(() => {
    shown.current = { messages, hasEarlier, hitPartId };
  });
  useEffect(() => {
    const follow = throttled(() => {
      const { messages: now, hasEarlier: earlier, hitPartId: hit } = shown.current;
      const href = readNow(sessionId, now, earlier, hit);
      if (href !== undefined) replaceAddress(href);
    }, FOLLOW_MS);
    window.addEventListener('scroll', follow, { passive: true });
    return () => {
      window.removeEventListener('scroll', follow);
      follow.cancel();
    };
  }, [sessionId]);
}
