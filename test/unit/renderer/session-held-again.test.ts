import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName, MethodName, Params } from '../../../core/api/index.js';
import { routeFromHash } from '../../../renderer/src/navigation.js';
import { SessionViewer } from '../../../renderer/src/places/sessions/index.js';
import { useSessionPages } from '../../../renderer/src/places/sessions/pages.js';
import { readingHref } from '../../../renderer/src/places/sessions/position.js';
import { StewardRpcError } from '../../../renderer/src/transport.js';

/** Every call the views ask for (useCall), the events they listen to (useEvent), and what a reload asked again. */
const asked: Array<{ method: MethodName; params: unknown }> = [];
const listeners = new Map<EventName, () => void>();
const reloaded: MethodName[] = [];
const GONE = new StewardRpcError('not_found', 'No such conversation');

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useCall: (method: MethodName, params: unknown) => {
    asked.push({ method, params });
    const reload = () => reloaded.push(method);
    if (method === 'Forget.Of') return { data: { record: null }, error: undefined, loading: false, reload };
    return { data: undefined, error: GONE, loading: false, reload };
  },
  useEvent: (event: EventName, listener: () => void) => listeners.set(event, listener),
}));

beforeEach(() => {
  asked.length = 0;
  reloaded.length = 0;
  listeners.clear();
});

describe('a reading position opened again (reload, Back)', () => {
  it('asks for the page around the message at the top, not for the conversation’s first page', () => {
    const href = readingHref({ sessionId: 's1', messages: [{ messageId: 'cc:x', parts: [{ partId: 'cc:x:0' }] }] as never, topmost: 0, hasEarlier: true, hitInView: false })!;
    const route = routeFromHash(href);
    const Probe = () => {
      // The viewer opens at a named message, else at the place it kept (?at=, readAt): SessionViewer's opensAt.
      useSessionPages('s1', route?.view === 'session' ? (route.partId ?? route.readAt) : undefined, true);
      return null;
    };
    renderToStaticMarkup(createElement(Probe));
    expect(asked.map((a) => a.params as Params<'Sessions.Get'>)).toEqual([{ sessionId: 's1', partId: 'cc:x:0', redact: true }]);
  });
});

describe('a conversation Steward does not hold', () => {
  it('is asked for again when a check or an import settles, so it shows once it is held again', () => {
    renderToStaticMarkup(createElement(SessionViewer, { sessionId: 's1', partId: undefined }));
    expect(asked.some((a) => a.method === 'Sessions.Get')).toBe(true);
    listeners.get('sweep.tick')?.();
    expect(reloaded).toEqual(['Sessions.Get']);
  });
});
