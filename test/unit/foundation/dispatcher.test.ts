import { describe, expect, it } from 'vitest';
import { createDispatcher, StewardError, type Handlers } from '../../../core/api/index.js';

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const status = { state: 'idle' as const, message: 'Up to date', paused: false, working: [], attention: [], errors: [], details: [] };
  const base = {
    'App.Info': () => ({ name: 'Steward' as const, version: '1.0.0', protocol: 1, homeKind: 'env' as const, platform: 'linux', uptimeMs: 5, status }),
    'App.SetPaused': ({ paused }: { paused: boolean }) => ({ status: { ...status, paused } }),
    'Telemetry.Recent': () => ({ entries: [] }),
  };
  // Later areas add methods; the dispatcher under test only ever calls these three.
  return new Proxy({ ...base, ...overrides } as Handlers, {
    get: (target, key) => (target as Record<string | symbol, unknown>)[key] ?? (() => Promise.reject(new Error('not exercised'))),
  });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof StewardError ? error.code : 'foreign';
  }
  return 'resolved';
}

describe('the dispatcher', () => {
  const ctx = { transport: 'in-process' as const };

  it('validates params and returns results that match the contract', async () => {
    const d = createDispatcher(handlers());
    await expect(d.call('App.SetPaused', { paused: true }, ctx)).resolves.toMatchObject({ status: { paused: true } });
    await expect(d.call('Telemetry.Recent', undefined, ctx)).resolves.toEqual({ entries: [] });
  });

  it('answers invalid params with invalid_params and never reaches the handler', async () => {
    let reached = false;
    const d = createDispatcher(handlers({ 'App.SetPaused': () => ((reached = true), { status: { state: 'paused', message: '', paused: true, working: [], attention: [], errors: [], details: [] } }) }));
    expect(await codeOf(d.call('App.SetPaused', { paused: 'yes' }, ctx))).toBe('invalid_params');
    expect(await codeOf(d.call('App.SetPaused', { paused: true, extra: 1 }, ctx))).toBe('invalid_params');
    expect(await codeOf(d.call('Telemetry.Recent', { limit: 0 }, ctx))).toBe('invalid_params');
    expect(await codeOf(d.call('App.SetPaused', 'nope', ctx))).toBe('invalid_params');
    expect(reached).toBe(false);
  });

  it('answers unknown methods with method_not_found', async () => {
    expect(await codeOf(createDispatcher(handlers()).call('App.Explode', {}, ctx))).toBe('method_not_found');
    expect(await codeOf(createDispatcher(handlers()).call('__proto__', {}, ctx))).toBe('method_not_found');
  });

  it('refuses a result that breaks the contract instead of handing it out', async () => {
    const d = createDispatcher(handlers({ 'Telemetry.Recent': () => ({ entries: 'oops' }) as never }));
    expect(await codeOf(d.call('Telemetry.Recent', {}, ctx))).toBe('internal');
  });

  it('turns foreign errors into a typed internal error without their message', async () => {
    const d = createDispatcher(handlers({ 'Telemetry.Recent': () => { throw new Error('/home/secret/path leaked'); } }));
    const error = await d.call('Telemetry.Recent', {}, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StewardError);
    expect((error as StewardError).message).not.toContain('/home/secret');
  });

  it('passes typed errors through unchanged', async () => {
    const d = createDispatcher(handlers({ 'Telemetry.Recent': () => { throw new StewardError('busy', 'Try later'); } }));
    expect(await codeOf(d.call('Telemetry.Recent', {}, ctx))).toBe('busy');
  });
});
