import { describe, expect, it } from 'vitest';
import { connect, usePanel } from '../../../renderer/src/store.js';
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
