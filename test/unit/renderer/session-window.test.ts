import { describe, expect, it } from 'vitest';
import type { SessionMessage } from '../../../core/api/index.js';
import { shownPage, windowPages, WINDOW_MESSAGES, type Page } from '../../../renderer/src/places/sessions/pages.js';

/** A message with one part; ids say which page and place it has. */
const message = (id: string): SessionMessage => ({ messageId: id, role: 'user', ts: null, parts: [{ partId: `${id}-p`, kind: 'text' }] }) as unknown as SessionMessage;

/** Page `n` of `size` messages, with both ways onward. */
function pageOf(n: number, size = 200): Page {
  return {
    session: {} as Page['session'],
    messages: Array.from({ length: size }, (_, i) => message(`m${n}-${i}`)),
    subagents: [],
    cursor: `after-${n}`,
    before: `before-${n}`,
  };
}

const names = (pages: readonly Page[]) => pages.map((p) => p.cursor);

describe('the pages a long conversation keeps on the page', () => {
  it('holds at most three pages of 200 messages', () => {
    expect(WINDOW_MESSAGES).toBe(600);
  });

  it('keeps every page while they fit: a 205-message conversation shows whole after "Later messages"', () => {
    expect(names(windowPages([pageOf(1)], pageOf(2, 5), 'cursor'))).toEqual(['after-1', 'after-2']);
    expect(names(windowPages([pageOf(1), pageOf(2)], pageOf(3), 'cursor'))).toEqual(['after-1', 'after-2', 'after-3']);
  });

  it('drops the earliest page when a later one would hold too many', () => {
    expect(names(windowPages([pageOf(1), pageOf(2), pageOf(3)], pageOf(4), 'cursor'))).toEqual(['after-2', 'after-3', 'after-4']);
  });

  it('drops the latest page when an earlier one would hold too many', () => {
    expect(names(windowPages([pageOf(2), pageOf(3), pageOf(4)], pageOf(1), 'before'))).toEqual(['after-1', 'after-2', 'after-3']);
  });

  it('never drops the page just loaded, however long', () => {
    expect(names(windowPages([pageOf(1)], pageOf(2, 700), 'cursor'))).toEqual(['after-2']);
  });

  it('does not change the pages it was given', () => {
    const kept = [pageOf(1), pageOf(2), pageOf(3)];
    windowPages(kept, pageOf(4), 'cursor');
    expect(names(kept)).toEqual(['after-1', 'after-2', 'after-3']);
  });
});

describe('what the page shows of the pages kept', () => {
  it('is their messages in order, going on earlier from the first and later from the last', () => {
    const shown = shownPage([pageOf(2), pageOf(3), pageOf(4)]);
    expect(shown.messages).toHaveLength(600);
    expect(shown.messages[0]?.messageId).toBe('m2-0');
    expect(shown.messages[599]?.messageId).toBe('m4-199');
    expect(shown.before).toBe('before-2');
    expect(shown.cursor).toBe('after-4');
  });

  it('is the page itself when one is kept', () => {
    const only = pageOf(1);
    expect(shownPage([only])).toBe(only);
  });

  it('joins a message cut at a page edge into one', () => {
    const first = pageOf(1, 2);
    const second = { ...pageOf(2, 2), messages: [{ ...message('m1-1'), parts: [{ partId: 'm1-1-q', kind: 'text' }] } as unknown as SessionMessage, message('m2-1')] };
    const shown = shownPage([first, second]);
    expect(shown.messages.map((m) => m.messageId)).toEqual(['m1-0', 'm1-1', 'm2-1']);
    expect(shown.messages[1]?.parts.map((p) => p.partId)).toEqual(['m1-1-p', 'm1-1-q']);
  });
});
