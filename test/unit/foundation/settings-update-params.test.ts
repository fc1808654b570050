import { describe, expect, it } from 'vitest';
import { createDispatcher, StewardError, type Handlers } from '../../../core/api/index.js';

// No handler is reached: every call here is refused at the boundary.
const d = createDispatcher(new Proxy({} as Handlers, { get: () => () => Promise.reject(new Error('not exercised')) }));
const ctx = { transport: 'in-process' as const };

async function refusal(params: unknown): Promise<StewardError> {
  const error = await d.call('Settings.Update', params, ctx).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StewardError);
  expect((error as StewardError).code).toBe('invalid_params');
  return error as StewardError;
}

describe('Settings.Update refuses a key that is not a setting the panel changes', () => {
  it('in the contract’s own words, naming the key', async () => {
    const error = await refusal({ changes: { 'bogus.key': 1 } });
    expect(error.message).toBe('bogus.key is not a setting the panel changes');
    expect(error.details).toEqual({ method: 'Settings.Update', issues: [{ path: 'changes.bogus.key', message: 'bogus.key is not a setting the panel changes' }] });
  });

  it('names every unknown key, and only those, beside a real setting', async () => {
    const error = await refusal({ changes: { 'server.port': 1, 'log.level': 'warn', 'sweep.intervalms': 5 } });
    expect(error.message).toBe('server.port is not a setting the panel changes; sweep.intervalms is not a setting the panel changes');
  });

  it('still asks for at least one setting', async () => {
    expect((await refusal({ changes: {} })).message).toMatch(/name at least one setting/);
  });
});
