import { afterEach, describe, expect, it, vi } from 'vitest';
import { placeOf } from '../../../renderer/src/navigation.js';
import { connect, syncPlaceWithLocation, usePanel } from '../../../renderer/src/store.js';
import type { ConnectionState, PanelTransport } from '../../../renderer/src/transport.js';

/** A transport whose event stream opens only when the test says so, answering App.Info with `paused`. */
function slowStream() {
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  const eventListeners = new Map<string, (payload: unknown) => void>();
  const owner = { paused: false, infoCalls: 0 };
  const transport: PanelTransport = {
    kind: 'http',
    call: async (method) => {
      if (method !== 'App.Info') throw new Error(`unexpected ${method}`);
      owner.infoCalls += 1;
      return { status: { paused: owner.paused } };
    },
    on: (event, listener) => {
      eventListeners.set(event, listener);
      return () => eventListeners.delete(event);
    },
    onConnection: (listener) => {
      connectionListeners.add(listener);
      listener('connecting');
      return () => connectionListeners.delete(listener);
    },
  };
  const open = () => {
    for (const listener of connectionListeners) listener('open');
  };
  return { transport, owner, open };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the panel store', () => {
  it('catches up on a status that changed before its event stream opened', async () => {
    const { transport, owner, open } = slowStream();
    const disconnect = connect({ kind: 'ready', transport });
    await settle();
    expect(usePanel.getState().status).toEqual({ paused: false });

    // Paused while the stream was still connecting: the app.status event reached no one.
    owner.paused = true;
    open();
    await settle();
    expect(usePanel.getState().status).toEqual({ paused: true });
    expect(owner.infoCalls).toBe(2);
    disconnect();
  });
});

/** A window whose address the test moves, firing what Chromium fires on Back (popstate, then hashchange for a fragment). */
function fakeWindow(hash: string) {
  const events = new EventTarget();
  const location = { hash };
  vi.stubGlobal('window', Object.assign(events, { location }));
  return {
    back(to: string) {
      location.hash = to;
      events.dispatchEvent(new Event('popstate'));
      events.dispatchEvent(new Event('hashchange'));
    },
  };
}

describe('the panel store following the address', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Home when Back returns to the first address, which has no fragment', () => {
    // The token link, once its token has left the address bar: no fragment at all.
    const window = fakeWindow('');
    const stop = syncPlaceWithLocation();
    expect(usePanel.getState()).toMatchObject({ place: 'home', route: { view: 'home' } });
    window.back('#/projects');
    expect(usePanel.getState()).toMatchObject({ place: 'projects', route: { view: 'projects' } });

    window.back('');
    expect(usePanel.getState()).toMatchObject({ place: 'home', route: { view: 'home', params: {} } });
    stop();
  });

  it('says a fragment that names nothing names nothing, marks no place, and shows the next address that names something', () => {
    const window = fakeWindow('#/telemetry');
    const stop = syncPlaceWithLocation();
    window.back('#/nowhere');
    expect(usePanel.getState().route).toEqual({ view: 'missing', address: '#/nowhere' });
    expect(placeOf(usePanel.getState().route)).toBeUndefined();
    // From a conversation Steward does not hold to a project that is no key: the project view, not the conversation.
    window.back('#/sessions/doesnotexist');
    expect(usePanel.getState().route).toEqual({ view: 'session', sessionId: 'doesnotexist', partId: undefined });
    window.back('#/projects/p_nope');
    expect(usePanel.getState()).toMatchObject({ place: 'projects', route: { view: 'project-name', name: 'p_nope' } });
    window.back('#/settings');
    expect(usePanel.getState()).toMatchObject({ place: 'settings', route: { view: 'settings' } });
    stop();
  });

  it('leaves the view as it is for the token fragment, which the transport takes away', () => {
    const window = fakeWindow('#/telemetry');
    const stop = syncPlaceWithLocation();
    window.back('#token=abc');
    expect(usePanel.getState()).toMatchObject({ place: 'telemetry', route: { view: 'telemetry' } });
    stop();
  });
});
