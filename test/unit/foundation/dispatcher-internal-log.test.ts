import { describe, expect, it } from 'vitest';
import { createDispatcher, StewardError, type Handlers } from '../../../core/api/index.js';

// An internal error is a bug, not a refusal: the owner logs it (the method and the thrown error's class
// or code), never its params or its message, which can hold what was searched for or a path.

const status = { state: 'idle' as const, message: 'Up to date', paused: false, working: [], attention: [], errors: [], details: [] };

function handlers(setPaused: Handlers['App.SetPaused']): Handlers {
  return new Proxy({ 'App.SetPaused': setPaused } as Handlers, {
    get: (target, key) => (target as Record<string | symbol, unknown>)[key] ?? (() => Promise.reject(new Error('not exercised'))),
  });
}

describe('the dispatcher with an internal error', () => {
  const ctx = { transport: 'in-process' as const };

  it('says the method and the thrown error to onInternal, and nothing of a refusal', async () => {
    const told: Array<[string, unknown]> = [];
    const thrown = new RangeError('Invalid time value /home/someone/secret');
    const crashing = createDispatcher(handlers(() => { throw thrown; }), (method, error) => told.push([method, error]));
    await expect(crashing.call('App.SetPaused', { paused: true }, ctx)).rejects.toMatchObject({ code: 'internal', message: 'Internal error' });
    expect(told).toEqual([['App.SetPaused', thrown]]);

    const refusing = createDispatcher(handlers(() => { throw new StewardError('invalid_params', 'no'); }), (method, error) => told.push([method, error]));
    await expect(refusing.call('App.SetPaused', { paused: true }, ctx)).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(refusing.call('App.SetPaused', { paused: 'yes' }, ctx)).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(createDispatcher(handlers(() => ({ status })), (m, e) => told.push([m, e])).call('App.SetPaused', { paused: true }, ctx)).resolves.toBeDefined();
    expect(told).toHaveLength(1);
  });
});
