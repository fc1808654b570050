import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOwner, type Owner } from '../../../core/index.js';
import { createClient } from '../../../renderer/src/client.js';
import { createHttpTransport, StewardRpcError, toRpcError, type ConnectionState, type PanelTransport } from '../../../renderer/src/transport.js';
import { tempHome, type TempHome } from '../../support/home.js';

/** Resolves once `predicate` holds for a value pushed into `values` (checked every 20 ms, bounded). */
async function until<T>(values: T[], predicate: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = values.find(predicate);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms; saw ${JSON.stringify(values)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the panel's HTTP transport against a real owner", () => {
  let home: TempHome;
  let owner: Owner;
  let transport: PanelTransport;
  let origin: string;

  beforeEach(async () => {
    home = tempHome('steward-panel-transport-');
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0 });
    origin = owner.http.url.replace(/\/$/, '');
    transport = createHttpTransport(owner.http.token, origin);
  });

  afterEach(async () => {
    await owner.stop();
    home.cleanup();
  });

  it('calls contract methods with the bearer token and returns their results', async () => {
    const info = await createClient(transport).call('App.Info', {});
    expect(info.name).toBe('Steward');
    expect(info.homeKind).toBe('env');
    expect(info.status).toEqual(owner.core.status);
  });

  it("maps JSON-RPC errors to an Error carrying the contract's data.code", async () => {
    const invalid = await transport.call('App.SetPaused', { paused: 'yes' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(StewardRpcError);
    expect(invalid).toMatchObject({ code: 'invalid_params', rpcCode: -32602, data: { code: 'invalid_params' } });

    const unknown = await transport.call('No.Such', {}).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'method_not_found' });
  });

  it('delivers app.status events from the streamed /events', async () => {
    const states: ConnectionState[] = [];
    const statuses: unknown[] = [];
    transport.onConnection((state) => states.push(state));
    const off = transport.on('app.status', (payload) => statuses.push(payload));
    await until(states, (state) => state === 'open');

    await transport.call('App.SetPaused', { paused: true });
    expect(await until(statuses, (status) => (status as { paused: boolean }).paused)).toMatchObject({ paused: true, message: owner.core.status.message });
    off();
  });

  it('says "reconnecting" when the owner goes away', async () => {
    const states: ConnectionState[] = [];
    transport.onConnection((state) => states.push(state));
    const off = transport.on('app.status', () => undefined);
    await until(states, (state) => state === 'open');
    await owner.stop();
    await until(states, (state) => state === 'reconnecting');
    off();
  });

  it('reports a wrong token as unauthorized, on calls and on the event stream', async () => {
    const stranger = createHttpTransport('x'.repeat(43), origin);
    const states: ConnectionState[] = [];
    stranger.onConnection((state) => states.push(state));
    const error = await stranger.call('App.Info', {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unauthorized' });
    expect(states.at(-1)).toBe('unauthorized');

    const fresh = createHttpTransport('y'.repeat(43), origin);
    const freshStates: ConnectionState[] = [];
    fresh.onConnection((state) => freshStates.push(state));
    const off = fresh.on('app.status', () => undefined);
    await until(freshStates, (state) => state === 'unauthorized');
    off();
  });
});

describe('errors from the Electron bridge', () => {
  it("keeps the contract's code and details from the bridge's plain {code, message, details}", () => {
    const error = toRpcError({ code: 'stale_plan', message: 'The plan is stale', details: { planId: 'p1' } });
    expect(error).toBeInstanceOf(StewardRpcError);
    expect(error).toMatchObject({ code: 'stale_plan', message: 'The plan is stale', data: { code: 'stale_plan', details: { planId: 'p1' } } });
  });

  it('keeps a JSON-RPC shaped error with data.code', () => {
    expect(toRpcError({ message: 'busy', data: { code: 'cache_writer_busy' } })).toMatchObject({ code: 'cache_writer_busy', message: 'busy' });
  });

  it('never passes on foreign error text, which could hold paths or content', () => {
    const error = toRpcError(new Error('ENOENT: /home/someone/.claude/projects/secret.jsonl'));
    expect(error).toMatchObject({ code: 'internal', message: 'The request failed.' });
  });
});
