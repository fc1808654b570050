import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Params, SessionMessage } from '../../../core/api/index.js';
import { keptAfter, useSessionPages, type Page, type SessionPages } from '../../../renderer/src/places/sessions/pages.js';
import { landingMessage } from '../../../renderer/src/places/sessions/reading.js';

/** A message with one part; ids say which page and place it has. */
const message = (id: string): SessionMessage => ({ messageId: id, role: 'user', ts: null, parts: [{ partId: `${id}-p`, kind: 'text' }] }) as unknown as SessionMessage;

function pageOf(n: number, size = 200, ways: { cursor?: boolean; before?: boolean } = { cursor: true, before: true }): Page {
  return {
    session: {} as Page['session'],
    messages: Array.from({ length: size }, (_, i) => message(`m${n}-${i}`)),
    subagents: [],
    ...(ways.cursor ? { cursor: `after-${n}` } : {}),
    ...(ways.before ? { before: `before-${n}` } : {}),
  };
}

/** The conversation's end, as Sessions.Get at: 'end' gives it: earlier messages behind it, none after. */
const END = pageOf(99, 200, { before: true });

describe('"Latest messages": the page the panel keeps', () => {
  it('is the end page alone, in place of every page kept before it', () => {
    const kept = keptAfter([pageOf(1), pageOf(2), pageOf(3)], END, 'end');
    expect(kept).toEqual([END]);
  });

  it('goes on earlier from the end page, as after any page', () => {
    const kept = keptAfter(keptAfter([pageOf(1)], END, 'end'), pageOf(98), 'before');
    expect(kept.map((p) => p.messages[0]?.messageId)).toEqual(['m98-0', 'm99-0']);
  });

  it('joins earlier and later pages on their sides as before', () => {
    expect(keptAfter([pageOf(1)], pageOf(2), 'cursor').map((p) => p.cursor)).toEqual(['after-1', 'after-2']);
    expect(keptAfter([pageOf(2)], pageOf(1), 'before').map((p) => p.cursor)).toEqual(['after-1', 'after-2']);
  });

  it('lands the reader on the last message', () => {
    expect(landingMessage(pageOf(1).messages, END.messages, 'end')).toBe('m99-199');
  });
});

/** Every Sessions.Get the viewer asks for, loaded at once (useCall) or run (useAction). */
const asked: Array<Params<'Sessions.Get'>> = [];
const FIRST = { session: {}, messages: [], subagents: [], cursor: 'next-page' };

vi.mock('../../../renderer/src/hooks.js', () => ({
  useCall: (_method: string, params: Params<'Sessions.Get'>) => {
    asked.push(params);
    return { data: FIRST, error: undefined, loading: false, reload: () => undefined };
  },
  useAction: () => ({
    run: (params: Params<'Sessions.Get'>) => {
      asked.push(params);
      return Promise.resolve(END);
    },
    busy: false,
    error: undefined,
    data: undefined,
    reset: () => undefined,
  }),
}));

function opened(redact: boolean): SessionPages {
  let pages: SessionPages | undefined;
  const Probe = () => {
    pages = useSessionPages('s1', undefined, redact);
    return null;
  };
  renderToStaticMarkup(createElement(Probe));
  return pages!;
}

beforeEach(() => {
  asked.length = 0;
});

describe('"Latest messages": what it asks for', () => {
  it('the end of the conversation, read as the page is read, with no cursor', async () => {
    await opened(true).more('end');
    expect(asked).toEqual([
      { sessionId: 's1', redact: true },
      { sessionId: 's1', at: 'end', redact: true },
    ]);
  });

  it('the end page itself, resolved once asked', async () => {
    expect(await opened(false).more('end')).toBe(END);
    expect(asked[1]).toEqual({ sessionId: 's1', at: 'end', markSecrets: true });
  });
});
