import { describe, expect, it } from 'vitest';
import type { SessionMessage } from '../../../core/api/index.js';
import { keptAfter, newMessagesAfter, newMessagesWords, shownPage, type Page } from '../../../renderer/src/places/sessions/pages.js';

/** A message with parts `parts` (ids `<id>-<n>`); `tool`: a tool's result, which the session's count leaves out. */
const message = (id: string, parts = 1, tool = false): SessionMessage =>
  ({ messageId: id, role: tool ? 'user' : 'assistant', ts: null, ...(tool ? { countsAsMessage: false } : {}), parts: Array.from({ length: parts }, (_, i) => ({ partId: `${id}-${i}`, kind: 'text' })) }) as unknown as SessionMessage;

const page = (messages: SessionMessage[], ways: { cursor?: string; before?: string } = {}): Page => ({ session: {} as Page['session'], messages, subagents: [], ...ways });

const ids = (p: Page) => p.messages.map((m) => `${m.messageId}:${m.parts.length}`);

describe('new messages an import brought to an open conversation', () => {
  it('are none while the page does not reach the end: "Later messages" leads to them already', () => {
    const shown = page([message('a'), message('b')], { cursor: 'after-b' });
    expect(newMessagesAfter(shown, page([message('a'), message('b'), message('c')]))).toBeUndefined();
  });

  it('are none when the end is what is shown', () => {
    const shown = page([message('a'), message('b')]);
    expect(newMessagesAfter(shown, page([message('a'), message('b')], { before: 'x' }))).toBeUndefined();
  });

  it('counts the messages after the last one shown (tool results not counted) and joins them as the later page', () => {
    const shown = page([message('a'), message('b')], { before: 'before-a' });
    const end = page([message('a'), message('b'), message('c'), message('r', 1, true), message('d'), message('e')], { before: 'before-a' });
    const news = newMessagesAfter(shown, end);
    expect(news?.count).toBe(3);
    expect(newMessagesWords(news!)).toBe('3 new messages');
    const joined = shownPage(keptAfter([shown], news!.later!, 'cursor'));
    expect(ids(joined)).toEqual(['a:1', 'b:1', 'c:1', 'r:1', 'd:1', 'e:1']);
    // Earlier messages still lead on from the page's start; nothing later follows.
    expect(joined.before).toBe('before-a');
    expect(joined.cursor).toBeUndefined();
  });

  it('brings the new parts of the last message shown without showing its old ones twice', () => {
    const shown = page([message('a'), message('b', 2)]);
    const news = newMessagesAfter(shown, page([message('a'), message('b', 4)]));
    expect(news?.count).toBe(0);
    expect(newMessagesWords(news!)).toBe('The conversation went on');
    expect(ids(shownPage(keptAfter([shown], news!.later!, 'cursor')))).toEqual(['a:1', 'b:4']);
  });

  it('says at least a page is new when the end no longer holds the last message shown, and offers the end instead', () => {
    const shown = page([message('a'), message('b')]);
    const news = newMessagesAfter(shown, page([message('x'), message('y'), message('z')], { before: 'before-x' }));
    expect(news).toEqual({ count: 3, atLeast: true, later: undefined });
    expect(newMessagesWords(news!)).toBe('At least 3 new messages');
  });
});
