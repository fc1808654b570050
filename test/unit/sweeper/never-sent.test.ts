import { describe, expect, it } from 'vitest';
import { neverSent } from '../../../core/sweeper/curators/remote.js';

/** The SDKs wrap fetch's TypeError, which wraps the socket's error: only a connection that never opened is unsent. */
function wrapped(cause: unknown): Error {
  const fetchFailed = new TypeError('fetch failed', { cause });
  return Object.assign(new Error('Connection error.', { cause: fetchFailed }), { name: 'APIConnectionError' });
}

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('a request that never reached the model', () => {
  it('is a refused connection, an unknown host or a port fetch will not use, however deeply wrapped', () => {
    expect(neverSent(wrapped(withCode('ECONNREFUSED')))).toBe(true);
    expect(neverSent(wrapped(withCode('ENOTFOUND')))).toBe(true);
    expect(neverSent(wrapped(withCode('EAI_AGAIN')))).toBe(true);
    expect(neverSent(wrapped(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])))).toBe(true);
    expect(neverSent(wrapped(new Error('bad port')))).toBe(true);
  });

  it('is not a reset, a closed socket or a timeout: those may have reached it', () => {
    expect(neverSent(wrapped(withCode('ECONNRESET')))).toBe(false);
    expect(neverSent(wrapped(withCode('UND_ERR_SOCKET', 'other side closed')))).toBe(false);
    expect(neverSent(Object.assign(new Error('Request timed out.'), { name: 'APIConnectionTimeoutError' }))).toBe(false);
    expect(neverSent(null)).toBe(false);
  });

  it('stops on a cycle of causes', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(neverSent(a)).toBe(false);
  });
});
