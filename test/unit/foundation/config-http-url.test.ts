import { describe, expect, it } from 'vitest';
import { createDispatcher, StewardError, type Handlers } from '../../../core/api/index.js';
import { parseConfig } from '../../../core/config/index.js';
import { fieldProblems } from '../../../core/config/problems.js';

/*
 * QA: an OpenAI-compatible curator at `ftp://x` was saved, then tried, and said "The model endpoint at
 * x could not be reached". A model endpoint is only ever asked over HTTP: any other scheme is a
 * setting error naming the field, before anything is saved or tried.
 */
function errorOf(fn: () => unknown): StewardError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StewardError) return error;
    throw error;
  }
  throw new Error('expected a StewardError');
}

const HTTP_ONLY = 'must be a URL that starts with http:// or https://';

describe('an endpoint setting that is not http:// or https://', () => {
  it('is refused in config.json, naming the field', () => {
    for (const url of ['ftp://x', 'file:///etc/passwd', 'ws://127.0.0.1:11434']) {
      const error = errorOf(() => parseConfig({ sweeper: { curator: 'openai-compatible', model: 'llama3', base_url: url } }));
      expect(error.code).toBe('config_invalid');
      expect(error.details).toMatchObject({ keys: ['sweeper.base_url'], fields: { 'sweeper.base_url': { message: HTTP_ONLY } } });
    }
  });

  it('is refused beside its field for every endpoint the settings hold', () => {
    expect(fieldProblems({ sweeper: { base_url: 'ftp://x', anthropic_base_url: 'ftp://x', ollama_url: 'ftp://x' } })).toEqual({
      'sweeper.base_url': { message: HTTP_ONLY },
      'sweeper.anthropic_base_url': { message: HTTP_ONLY },
      'sweeper.ollama_url': { message: HTTP_ONLY },
    });
    expect(fieldProblems({ maintenance: { profiles: { local: { provider: 'ollama', model: 'nomic-embed-text', endpoint: 'ftp://x' } } } })).toEqual({
      'maintenance.profiles.local.endpoint': { message: HTTP_ONLY },
    });
  });

  it('still takes http:// and https:// addresses', () => {
    expect(fieldProblems({ sweeper: { base_url: 'http://127.0.0.1:11434/v1', anthropic_base_url: 'https://gateway.example/anthropic' } })).toEqual({});
  });

  it('is refused before a curator is tried or saved', async () => {
    const d = createDispatcher(new Proxy({} as Handlers, { get: () => () => Promise.reject(new Error('not exercised')) }));
    for (const method of ['Settings.TestCurator', 'Settings.SetCurator'] as const) {
      const error = await d.call(method, { curator: 'openai-compatible', model: 'llama3', baseUrl: 'ftp://x' }, { transport: 'in-process' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StewardError);
      expect((error as StewardError).code).toBe('invalid_params');
      expect((error as StewardError).message).toBe(`baseUrl ${HTTP_ONLY}`);
    }
  });
});
