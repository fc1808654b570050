import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionMessage } from '../../../core/api/index.js';
import { routeFromHash } from '../../../renderer/src/navigation.js';
import { readingHref, throttled, topmostIndex } from '../../../renderer/src/places/sessions/position.js';

const message = (messageId: string, partIds: string[]): SessionMessage => ({ messageId, parts: partIds.map((partId) => ({ partId })) }) as unknown as SessionMessage;
const MESSAGES = [message('cc:a', ['cc:a:0', 'cc:a:1']), message('cc:b', ['cc:b:0']), message('cc:c', ['cc:c:0'])];

describe('the message at the top of the window', () => {
  // Each message 100 px tall; the window scrolled so its top edge is at `scrolled` px of the page.
  const bottoms = (scrolled: number) => (i: number) => (i + 1) * 100 - scrolled;

  it('is the first message not wholly above the top edge', () => {
    expect(topmostIndex(3, bottoms(0))).toBe(0);
    expect(topmostIndex(3, bottoms(150))).toBe(1);
    expect(topmostIndex(3, bottoms(200))).toBe(2);
    expect(topmostIndex(400, bottoms(39_950))).toBe(399);
  });

  it('is the last one when every message is above the edge, and none when there are none', () => {
    expect(topmostIndex(3, bottoms(10_000))).toBe(2);
    expect(topmostIndex(0, bottoms(0))).toBeUndefined();
  });
});

describe('the address a reading position gives', () => {
  // QA: a reload after "Latest messages" showed the message the address kept expanded, outlined as a search hit.
  it('names the topmost message by its first part as where the reader is (`at`), not as a message named to them, so a reload opens there plainly', () => {
    const href = readingHref({ sessionId: 's 1', messages: MESSAGES, topmost: 1, hasEarlier: false, hitInView: false });
    expect(href).toBe('#/sessions/s%201?at=cc%3Ab%3A0');
    expect(routeFromHash(href!)).toEqual({ view: 'session', sessionId: 's 1', partId: undefined, readAt: 'cc:b:0' });
  });

  it('is the plain address at the conversation’s very start', () => {
    expect(readingHref({ sessionId: 's1', messages: MESSAGES, topmost: 0, hasEarlier: false, hitInView: false })).toBe('#/sessions/s1');
    // The first message shown is not the first of the conversation when earlier ones are still to load.
    expect(readingHref({ sessionId: 's1', messages: MESSAGES, topmost: 0, hasEarlier: true, hitInView: false })).toBe('#/sessions/s1?at=cc%3Aa%3A0');
  });

  it('leaves the address of a search hit alone while the hit is still in view', () => {
    expect(readingHref({ sessionId: 's1', messages: MESSAGES, topmost: 2, hasEarlier: true, hitInView: true })).toBeUndefined();
  });

  it('says nothing with no message in view', () => {
    expect(readingHref({ sessionId: 's1', messages: MESSAGES, topmost: undefined, hasEarlier: false, hitInView: false })).toBeUndefined();
  });
});

describe('following the scroll, throttled', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the position once per interval however many scroll events came, and at its end, so the last position counts', () => {
    vi.useFakeTimers();
    const read = vi.fn();
    const onScroll = throttled(read, 400);
    for (let i = 0; i < 50; i++) onScroll();
    expect(read).not.toHaveBeenCalled();
    vi.advanceTimersByTime(400);
    expect(read).toHaveBeenCalledTimes(1);
    onScroll();
    vi.advanceTimersByTime(399);
    expect(read).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads nothing once cancelled (the conversation closed)', () => {
    vi.useFakeTimers();
    const read = vi.fn();
    const onScroll = throttled(read, 400);
    onScroll();
    onScroll.cancel();
    vi.advanceTimersByTime(1_000);
    expect(read).not.toHaveBeenCalled();
  });
});
