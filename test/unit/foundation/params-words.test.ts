import { describe, expect, it } from 'vitest';
import { createDispatcher, StewardError, type Handlers } from '../../../core/api/index.js';
import { reportError, type CliIo } from '../../../core/cli/output.js';

// No handler is reached: every call here is refused at the boundary.
const d = createDispatcher(new Proxy({} as Handlers, { get: () => () => Promise.reject(new Error('not exercised')) }));
const ctx = { transport: 'in-process' as const };

async function refusal(method: string, params: unknown): Promise<StewardError> {
  const error = await d.call(method, params, ctx).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StewardError);
  expect((error as StewardError).code).toBe('invalid_params');
  return error as StewardError;
}

const search = { repo: 'github.com/acme/widgets', query: 'frost' };

describe('a refused request, in words', () => {
  it('names the wrong field and what it takes, not the method', async () => {
    const error = await refusal('Repository.Search', { ...search, query: '   ', limit: 99 });
    expect(error.message).toBe('query cannot be empty; limit must be at most 50');
    expect(error.message).not.toMatch(/Invalid params|Repository\.Search/);
  });

  it('keeps the method and zod’s issues in the details, for scripts', async () => {
    const error = await refusal('Repository.Search', { ...search, limit: 0 });
    expect(error.details).toEqual({ method: 'Repository.Search', issues: [{ path: 'limit', message: expect.any(String) }] });
  });

  it('says a missing field, a wrong type, a value not on the list, and a field the request does not take', async () => {
    expect((await refusal('App.SetPaused', {})).message).toBe('paused is missing');
    expect((await refusal('App.SetPaused', { paused: 'yes' })).message).toBe('paused must be true or false');
    expect((await refusal('App.SetPaused', { paused: true, extra: 1 })).message).toBe('extra is not part of this request');
    expect((await refusal('Repository.Search', { ...search, collection: 'nope' })).message).toMatch(/^collection must be one of issues, /);
    expect((await refusal('Telemetry.Recent', { limit: 1.5 })).message).toBe('limit must be a whole number');
    expect((await refusal('App.SetPaused', 'nope')).message).toBe('the request must be an object');
  });

  it('keeps a schema’s own words', async () => {
    expect((await refusal('Backfill.Run', { days: 3, all: true })).message).toBe('days and all cannot be combined');
  });

  it('reaches the terminal as words, and --json keeps the method', async () => {
    const error = await refusal('Repository.Search', { ...search, limit: 0 });
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
    expect(reportError(io, error, false)).toBe(2);
    expect(err.join('')).toBe('steward: limit must be at least 1\n');
    reportError(io, error, true);
    expect(JSON.parse(out.join(''))).toEqual({ error: { code: 'invalid_params', message: 'limit must be at least 1', method: 'Repository.Search' } });
  });
});
